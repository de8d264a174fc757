"""The Schotten Totten position: an immutable state that plays moves.

>>> game = new_game(seed=1)
>>> game.to_move, len(game.hands[0]), game.deck_size
(0, 6, 42)
>>> move = game.legal_moves()[0]
>>> after = game.play(move)
>>> after.phase, game.phase
(<Phase.AFTER_PLAY: 'after_play'>, <Phase.PLAY: 'play'>)
>>> after.play("done")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'done': after playing a card you must draw while the deck has cards
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Literal, NamedTuple, TypeVar

from referee.cards import Card, CardSet
from referee.errors import ClaimRefusedError, IllegalMoveError
from referee.formations import FormationRule
from referee.game import Outcome
from referee.prover import ClaimVerdict, Engine, Pool, decide_claim
from referee.schotten_totten.moves import (
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    parse_move,
)

__all__ = [
    "CLAN_CARDS",
    "FORMATION",
    "HAND_SIZE",
    "STONES",
    "Phase",
    "Reason",
    "Rules",
    "State",
    "Stone",
    "new_game",
    "public_game",
    "render",
]

_T = TypeVar("_T")

#: The 54 clan cards: red, orange, yellow, green, blue, purple; values 1-9.
CLAN_CARDS = CardSet(
    colours="ROYGBP",
    colour_names=("red", "orange", "yellow", "green", "blue", "purple"),
    values=range(1, 10),
)
_CLAN_SET = frozenset(CLAN_CARDS.cards)
_PAIRS = {card: CLAN_CARDS.as_pair(card) for card in CLAN_CARDS.cards}
_NO_POOL = Pool(())
#: How formations form and compare at an ordinary stone.
FORMATION = FormationRule(size=3)
#: Number of stones in the row.
STONES = 9
#: Cards in hand in the base game.
HAND_SIZE = 6


class Reason:
    """The stable reason codes of refused Schotten Totten moves."""

    GAME_OVER = "game_over"
    NO_SUCH_STONE = "no_such_stone"
    UNKNOWN_CARD = "unknown_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_ALREADY_PLAYED = "card_already_played"
    EMPTY_HAND = "empty_hand"
    STONE_CLAIMED = "stone_claimed"
    SIDE_FULL = "side_full"
    ALREADY_PLAYED = "already_played"
    CLAIM_NOT_NOW = "claim_not_now"
    FORMATION_INCOMPLETE = "formation_incomplete"
    CLAIM_NOT_PROVEN = "claim_not_proven"
    PASS_NOT_ALLOWED = "pass_not_allowed"
    MUST_PLAY_FIRST = "must_play_first"
    MUST_DRAW = "must_draw"
    NOTHING_TO_DRAW = "nothing_to_draw"
    PASS_DRAWS_NOTHING = "pass_draws_nothing"


class Phase(Enum):
    """Where the player to move is within its turn."""

    #: Start of the turn: play a card (or pass when none can be played).
    PLAY = "play"
    #: A card was played: claim stones, then draw (or end the turn if the deck is empty).
    AFTER_PLAY = "after_play"
    #: The player passed: claim stones, then end the turn without drawing.
    AFTER_PASS = "after_pass"


@dataclass(frozen=True, slots=True)
class Rules:
    """Which Schotten Totten is played.

    ``edition`` is ``"2024"`` or ``"1999"`` (the same core rules);
    ``early_bird`` allows claims only at the start of a turn, before the card.
    """

    edition: Literal["2024", "1999"] = "2024"
    early_bird: bool = False

    def __post_init__(self) -> None:
        if self.edition not in ("2024", "1999"):
            raise ValueError(f"unknown edition {self.edition!r}: use '2024' or '1999'")


class Stone(NamedTuple):
    """One stone: both sides' cards in play order, completion times, owner.

    ``completed`` holds, per side, the ply at which that side's formation was
    completed (``None`` while incomplete); ties go to the earlier one.
    """

    sides: tuple[tuple[Card, ...], ...] = ((), ())
    completed: tuple[int | None, ...] = (None, None)
    owner: int | None = None

    def room(self, player: int) -> bool:
        """Whether ``player`` may still add a card here."""
        return self.owner is None and len(self.sides[player]) < FORMATION.size


_EMPTY_STONES = tuple(Stone() for _ in range(STONES))


@dataclass(frozen=True, slots=True)
class State:
    """A Schotten Totten position. Immutable: :meth:`play` returns a new state.

    ``hands[p]`` is ``None`` when that hand is hidden (a player's view, or a
    replay of a public record); ``hand_sizes`` always holds the counts.
    ``deck`` (top card first) is ``None`` when its order is unknown.
    """

    rules: Rules = field(default_factory=Rules)
    stones: tuple[Stone, ...] = _EMPTY_STONES
    hands: tuple[tuple[Card, ...] | None, ...] = ((), ())
    hand_sizes: tuple[int, ...] = (0, 0)
    deck: tuple[Card, ...] | None = ()
    deck_size: int = 0
    to_move: int = 0
    phase: Phase = Phase.PLAY
    ply: int = 0
    outcome: Outcome | None = None

    # --- reading the position -------------------------------------------------

    def visible_cards(self) -> set[Card]:
        """Every card both players can see: all cards on the stones."""
        seen: set[Card] = set()
        for stone in self.stones:
            seen.update(stone.sides[0])
            seen.update(stone.sides[1])
        return seen

    def unseen_cards(self) -> list[Card]:
        """Every clan card not visible: the deck and both hands, in card order."""
        seen = self.visible_cards()
        return [card for card in CLAN_CARDS.cards if card not in seen]

    def stone(self, number: int) -> Stone:
        """The stone numbered ``number`` (1-9)."""
        if not 1 <= number <= STONES:
            raise ValueError(f"no stone {number}: stones are numbered 1-{STONES}")
        return self.stones[number - 1]

    def stones_of(self, player: int) -> list[int]:
        """The numbers of the stones ``player`` holds."""
        return [i + 1 for i, stone in enumerate(self.stones) if stone.owner == player]

    def can_play_card(self) -> bool:
        """Whether the player to move has a card and a stone with room for it."""
        player = self.to_move
        return self.hand_sizes[player] > 0 and any(s.room(player) for s in self.stones)

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def view(self, player: int) -> State:
        """What ``player`` can see: the opponent's hand and the deck order hidden."""
        return _evolve(self, hands=_with(self.hands, 1 - player, None), deck=None)

    def claim_verdict(
        self, number: int, player: int | None = None, *, engine: Engine = "exact"
    ) -> ClaimVerdict:
        """The prover's verdict on ``player`` (default: to move) claiming stone ``number``.

        Raises ``ValueError`` if that side's formation is not complete.
        """
        claimant = self.to_move if player is None else player
        return self._verdict(self.stone(number), claimant, engine, None)

    # --- moves ------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move in the game's notation (see :mod:`referee.schotten_totten.moves`)."""
        return parse_move(text)

    def legal_moves(self) -> list[Move]:
        """Every legal move for the player to move.

        With a hidden hand, plays of every unseen card are listed (any of them
        may be in that hand).
        """
        if self.outcome is not None:
            return []
        moves: list[Move] = []
        player = self.to_move
        if self.phase is Phase.PLAY:
            if self.rules.early_bird:
                moves.extend(self._provable_claims())
            hand = self.hands[player]
            cards = hand if hand is not None else self.unseen_cards()
            if self.hand_sizes[player] > 0:
                open_stones = [i + 1 for i, s in enumerate(self.stones) if s.room(player)]
                moves.extend(PlayCard(card, n) for card in cards for n in open_stones)
            if not self.can_play_card():
                moves.append(Pass())
            return moves
        if not self.rules.early_bird:
            moves.extend(self._provable_claims())
        if self.phase is Phase.AFTER_PLAY and self.deck_size > 0:
            moves.append(Draw())
        else:
            moves.append(EndTurn())
        return moves

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` may be played now."""
        try:
            self.play(move)
        except ValueError:
            return False
        return True

    def play(self, move: Move | str) -> State:
        """The state after ``move``. Raises ``IllegalMoveError`` (or
        ``InvalidMoveError`` for unreadable text) and changes nothing if refused.
        """
        if isinstance(move, str):
            move = parse_move(move)
        if self.outcome is not None:
            raise _illegal(move, Reason.GAME_OVER, "the game is over")
        if isinstance(move, PlayCard):
            return self._play_card(move)
        if isinstance(move, Draw):
            return self._draw(move)
        if isinstance(move, Claim):
            return self._claim(move)
        if isinstance(move, EndTurn):
            return self._end_turn(move)
        if isinstance(move, Pass):
            return self._pass(move)
        raise TypeError(f"not a Schotten Totten move: {move!r}")

    def _play_card(self, move: PlayCard) -> State:
        player, card = self.to_move, move.card
        if self.phase is not Phase.PLAY:
            raise _illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
        stone = self._stone_for(move, move.stone)
        if card not in _CLAN_SET:
            raise _illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a Schotten Totten clan card")
        hand = self.hands[player]
        if hand is not None:
            if card not in hand:
                raise _illegal(move, Reason.CARD_NOT_IN_HAND, f"{card} is not in your hand")
        elif self.hand_sizes[player] == 0:
            raise _illegal(move, Reason.EMPTY_HAND, "your hand is empty")
        elif card in self.visible_cards():
            raise _illegal(move, Reason.CARD_ALREADY_PLAYED, f"{card} is already on the table")
        if stone.owner is not None:
            raise _illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
        side = stone.sides[player]
        if len(side) >= FORMATION.size:
            raise _illegal(
                move, Reason.SIDE_FULL, f"your side of stone {move.stone} already has 3 cards"
            )
        new_side = (*side, card)
        done = self.ply if len(new_side) == FORMATION.size else None
        placed = Stone(
            _with(stone.sides, player, new_side),
            _with(stone.completed, player, done),
            None,
        )
        new_hand = None if hand is None else tuple(c for c in hand if c != card)
        return _evolve(self,
            stones=_with(self.stones, move.stone - 1, placed),
            hands=_with(self.hands, player, new_hand),
            hand_sizes=_with(self.hand_sizes, player, self.hand_sizes[player] - 1),
            phase=Phase.AFTER_PLAY,
            ply=self.ply + 1,
        )

    def _claim(self, move: Claim) -> State:
        player = self.to_move
        if self.rules.early_bird and self.phase is not Phase.PLAY:
            raise _illegal(
                move,
                Reason.CLAIM_NOT_NOW,
                "with Der frühe Vogel, stones are claimed only at the start of the turn",
            )
        if not self.rules.early_bird and self.phase is Phase.PLAY:
            raise _illegal(
                move, Reason.CLAIM_NOT_NOW, "stones are claimed after playing (or passing)"
            )
        stone = self._stone_for(move, move.stone)
        if stone.owner is not None:
            raise _illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
        if len(stone.sides[player]) < FORMATION.size:
            raise _illegal(
                move,
                Reason.FORMATION_INCOMPLETE,
                f"your formation at stone {move.stone} is not complete "
                f"({len(stone.sides[player])} of {FORMATION.size} cards)",
            )
        verdict = self._verdict(stone, player, "exact", None)
        if not verdict.holds:
            raise ClaimRefusedError(
                Reason.CLAIM_NOT_PROVEN,
                f"illegal move {str(move)!r}: {_describe_refusal(verdict)}",
                verdict,
            )
        claimed = Stone(stone.sides, stone.completed, player)
        stones = _with(self.stones, move.stone - 1, claimed)
        return _evolve(self, stones=stones, ply=self.ply + 1, outcome=_outcome(stones, player))

    def _pass(self, move: Pass) -> State:
        if self.phase is not Phase.PLAY:
            raise _illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
        if self.can_play_card():
            raise _illegal(
                move, Reason.PASS_NOT_ALLOWED, "you can still play a card, so you may not pass"
            )
        return _evolve(self, phase=Phase.AFTER_PASS, ply=self.ply + 1)

    def _draw(self, move: Draw) -> State:
        player = self.to_move
        if self.phase is Phase.PLAY:
            raise _illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before drawing")
        if self.phase is Phase.AFTER_PASS:
            raise _illegal(move, Reason.PASS_DRAWS_NOTHING, "a turn with a pass draws no card")
        if self.deck_size == 0:
            raise _illegal(
                move, Reason.NOTHING_TO_DRAW, "the deck is empty: end the turn with 'done'"
            )
        hand, deck = self.hands[player], self.deck
        if deck is not None:
            drawn, rest = deck[0], deck[1:]
            new_hand = None if hand is None else (*hand, drawn)
        else:
            rest, new_hand = None, None
        return _evolve(self,
            hands=_with(self.hands, player, new_hand),
            hand_sizes=_with(self.hand_sizes, player, self.hand_sizes[player] + 1),
            deck=rest,
            deck_size=self.deck_size - 1,
            to_move=1 - player,
            phase=Phase.PLAY,
            ply=self.ply + 1,
        )

    def _end_turn(self, move: EndTurn) -> State:
        if self.phase is Phase.PLAY:
            raise _illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before ending")
        if self.phase is Phase.AFTER_PLAY and self.deck_size > 0:
            raise _illegal(
                move,
                Reason.MUST_DRAW,
                "after playing a card you must draw while the deck has cards",
            )
        return _evolve(self, to_move=1 - self.to_move, phase=Phase.PLAY, ply=self.ply + 1)

    # --- helpers ------------------------------------------------------------------

    def _stone_for(self, move: Move, number: int) -> Stone:
        if not 1 <= number <= STONES:
            raise _illegal(
                move, Reason.NO_SUCH_STONE, f"there is no stone {number} (stones are 1-{STONES})"
            )
        return self.stones[number - 1]

    def _verdict(
        self, stone: Stone, player: int, engine: Engine, pool: Pool | None
    ) -> ClaimVerdict:
        mine, theirs = stone.sides[player], stone.sides[1 - player]
        if len(mine) < FORMATION.size:
            raise ValueError("the claimant's formation is not complete")
        if pool is None:
            # Against a complete side nothing can be added, so no pool is needed.
            pool = _NO_POOL if len(theirs) == FORMATION.size else self._pool()
        first = True
        if len(theirs) == FORMATION.size:
            mine_at, theirs_at = stone.completed[player], stone.completed[1 - player]
            first = mine_at is not None and theirs_at is not None and mine_at < theirs_at
        return decide_claim(
            [_PAIRS[c] for c in mine],
            [_PAIRS[c] for c in theirs],
            pool,
            FORMATION,
            colours=len(CLAN_CARDS.colours),
            claimant_completed_first=first,
            engine=engine,
        )

    def _pool(self) -> Pool:
        """The prover's pool: every clan card that is not visible."""
        seen = self.visible_cards()
        return Pool([_PAIRS[c] for c in CLAN_CARDS.cards if c not in seen])

    def _provable_claims(self) -> list[Claim]:
        player = self.to_move
        candidates = [
            i + 1
            for i, s in enumerate(self.stones)
            if s.owner is None and len(s.sides[player]) == FORMATION.size
        ]
        if not candidates:
            return []
        pool = self._pool()
        return [
            Claim(n)
            for n in candidates
            if self._verdict(self.stones[n - 1], player, "exact", pool).holds
        ]

    # --- text picture ---------------------------------------------------------------

    def __str__(self) -> str:
        return render(self)


def _evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without its overhead: this is the hot path of replays."""
    new = object.__new__(State)
    for name in _STATE_FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new


_STATE_FIELDS = tuple(f.name for f in fields(State))
_set = object.__setattr__


def _with(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _illegal(move: Move, reason: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"illegal move {str(move)!r}: {why}")


def _describe_refusal(verdict: ClaimVerdict) -> str:
    best = verdict.opponent_best
    if best is None:  # pragma: no cover - a refusal always has a witness
        return verdict.explain()
    cards = " ".join(str(CLAN_CARDS.from_pair(p)) for p in best.cards)
    if verdict.opponent_complete:
        return f"the opponent's {best.strength} is not beaten ({verdict.explain()})"
    return (
        f"the opponent can still beat your {verdict.claimant.strength}: "
        f"adding {cards} makes {best.strength}"
    )


def _outcome(stones: Sequence[Stone], player: int) -> Outcome | None:
    held = [stone.owner == player for stone in stones]
    for i in range(len(held) - 2):
        if held[i] and held[i + 1] and held[i + 2]:
            return Outcome(player, "three_adjacent")
    if sum(held) >= 5:
        return Outcome(player, "five_stones")
    return None


def new_game(
    *,
    seed: int | None = None,
    deck: Iterable[Card] | None = None,
    first: int = 0,
    rules: Rules | None = None,
) -> State:
    """Set up a game from a seed (a shuffled deck) or an explicit deck order.

    The deal: player 0 takes the first 6 cards, player 1 the next 6, and the rest
    is the draw pile, top first. ``first`` is the player who moves first.

    >>> game = new_game(deck=CLAN_CARDS.cards)
    >>> [str(c) for c in game.hands[0]], str(game.deck[0])
    (['R1', 'R2', 'R3', 'R4', 'R5', 'R6'], 'O4')
    """
    if seed is not None and deck is not None:
        raise ValueError("give a seed or a deck, not both")
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, not {first!r}")
    if deck is None:
        order = list(CLAN_CARDS.cards)
        random.Random(seed).shuffle(order)
    else:
        order = list(deck)
        _check_deck(order)
    return State(
        rules=rules or Rules(),
        hands=(tuple(order[:HAND_SIZE]), tuple(order[HAND_SIZE : 2 * HAND_SIZE])),
        hand_sizes=(HAND_SIZE, HAND_SIZE),
        deck=tuple(order[2 * HAND_SIZE :]),
        deck_size=len(order) - 2 * HAND_SIZE,
        to_move=first,
    )


def public_game(*, first: int = 0, rules: Rules | None = None) -> State:
    """The start of a game whose deal is unknown (for public records).

    Both hands and the deck are hidden; only their sizes are known.

    >>> start = public_game()
    >>> start.hands, start.hand_sizes, start.deck_size
    ((None, None), (6, 6), 42)
    """
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, not {first!r}")
    return State(
        rules=rules or Rules(),
        hands=(None, None),
        hand_sizes=(HAND_SIZE, HAND_SIZE),
        deck=None,
        deck_size=len(CLAN_CARDS.cards) - 2 * HAND_SIZE,
        to_move=first,
    )


def _check_deck(order: Sequence[Card]) -> None:
    unknown = [c for c in order if c not in CLAN_CARDS]
    if unknown:
        raise ValueError(f"the deck holds cards that are not clan cards: {unknown[0]}")
    if len(order) != len(CLAN_CARDS.cards) or len(set(order)) != len(order):
        missing = sorted(set(CLAN_CARDS.cards) - set(order))
        repeated = sorted({c for c in order if order.count(c) > 1})
        problems = []
        if missing:
            problems.append("missing " + " ".join(map(str, missing[:5])))
        if repeated:
            problems.append("repeated " + " ".join(map(str, repeated[:5])))
        raise ValueError(
            "the deck must hold each of the 54 clan cards once: " + "; ".join(problems)
        )


def render(state: State) -> str:
    """The terminal picture of a position (also ``str(state)``)."""
    lines = [
        f"Schotten Totten ({state.rules.edition}) - ply {state.ply}, "
        + (
            f"game over: player {state.outcome.winner + 1} wins ({state.outcome.reason})"
            if state.outcome is not None and state.outcome.winner is not None
            else f"player {state.to_move + 1} to move ({state.phase.value})"
        ),
        f"{'':>9}{'player 1':<16}stone  player 2",
    ]
    for number, stone in enumerate(state.stones, start=1):
        left = " ".join(map(str, stone.sides[0]))
        right = " ".join(map(str, stone.sides[1]))
        mark = {None: f"  {number}  ", 0: f"<[{number}] ", 1: f" [{number}]>"}[stone.owner]
        lines.append(f"{'':>9}{left:<16}{mark:<7}{right:<16}".rstrip())
    for player in (0, 1):
        hand = state.hands[player]
        shown = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        lines.append(f"player {player + 1} hand ({state.hand_sizes[player]}): {shown}")
    lines.append(f"deck: {state.deck_size} cards")
    return "\n".join(lines)
