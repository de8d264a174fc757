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
referee.errors.IllegalMoveError: illegal move 'done': after playing a card you must draw while a pile has cards

With the Tartan-Taktiken variant, hands hold 7 cards and a tactic pile joins in:

>>> tactics = new_game(seed=1, rules=Rules(tactics=True))
>>> len(tactics.hands[0]), tactics.deck_size, tactics.tactic_deck_size
(7, 40, 10)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, Any, Literal, TypeVar, assert_never

from referee.cards import Card, CardSet
from referee.errors import ClaimRefusedError, InvalidDealError
from referee.formations import SUM_ONLY, FormationRule, Kind
from referee.game import (
    NO_HISTORY,
    REFEREE_ENDS,
    History,
    Outcome,
    Termination,
    check_player,
)
from referee.line import LineState, copier, illegal, place_at, remember, replaced
from referee.line.claims import NO_POOL, Sight, card_bits, describe_refusal, mask_of, verdict_at
from referee.prover import ClaimVerdict, Engine, Piece, Pool, best_reachable
from referee.schotten_totten.moves import (
    Banshee,
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
    parse_move,
)
from referee.schotten_totten.tactics import (
    ELITE,
    TACTIC_CARDS,
    TACTIC_NAMES,
    AnyCard,
    Tactic,
    copies,
    wildcard_of,
)

if TYPE_CHECKING:
    pass

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
    "check_deck",
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
_COLOURS = len(CLAN_CARDS.colours)
#: How formations form and compare at an ordinary stone.
FORMATION = FormationRule(size=3)
#: At a stone with Blind Man's Bluff only the sum counts.
BLIND_FORMATION = FormationRule(size=3, kinds=SUM_ONLY)
#: At a stone with Mud Fight formations have 4 cards.
MUD_FORMATION = FormationRule(size=4)
#: Number of stones in the row.
STONES = 9
#: Cards in hand in the base game (one more with tactics).
HAND_SIZE = 6


class Reason(StrEnum):
    """The stable reason codes of refused Schotten Totten moves."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
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
    MUST_CLAIM = "must_claim"
    # tactics variant
    TACTICS_NOT_IN_PLAY = "tactics_not_in_play"
    TACTIC_LIMIT = "tactic_limit"
    SECOND_JOKER = "second_joker"
    STYLE_TAKEN = "style_taken"
    RUSE_NOTATION = "ruse_notation"
    NOT_A_RUSE = "not_a_ruse"
    CARD_NOT_AT_STONE = "card_not_at_stone"
    NOT_A_CLAN_CARD = "not_a_clan_card"
    SAME_STONE = "same_stone"
    CHOOSE_PILE = "choose_pile"
    PILE_EMPTY = "pile_empty"
    ALREADY_DREW = "already_drew"
    RECRUIT_DRAWS = "recruit_draws"
    RECRUIT_RETURNS = "recruit_returns"
    MUST_RETURN = "must_return"
    NOT_RECRUITING = "not_recruiting"


class Phase(Enum):
    """Where the player to move is within its turn."""

    #: Start of the turn: play a card (or pass when none can be played).
    PLAY = "play"
    #: A card was played: claim stones, then draw (or end the turn if no pile has cards).
    AFTER_PLAY = "after_play"
    #: The player passed: claim stones, then end the turn without drawing.
    AFTER_PASS = "after_pass"
    #: The recruiter drew its cards: put cards back under their piles (``return ...``).
    RECRUIT_RETURN = "recruit_return"
    #: The recruiter replaced this turn's draw: claim stones, then end the turn.
    AFTER_RECRUIT = "after_recruit"


@dataclass(frozen=True, slots=True)
class Rules:
    """Which Schotten Totten is played.

    ``edition`` is ``"2024"`` or ``"1999"`` (the same core rules); ``tactics``
    plays the Tartan-Taktiken variant (tactic cards, 7-card hands);
    ``early_bird`` (Der frühe Vogel) allows claims only at the start of a turn.
    """

    edition: Literal["2024", "1999"] = "2024"
    tactics: bool = False
    early_bird: bool = False

    def __post_init__(self) -> None:
        if type(self.edition) is not str or self.edition not in ("2024", "1999"):
            raise ValueError(f"unknown edition {self.edition!r}: use '2024' or '1999'")
        for name in ("tactics", "early_bird"):
            value = getattr(self, name)
            if type(value) is not bool:
                raise ValueError(f"{name} must be True or False, not {value!r}")
        # RULINGS 13: the 1999 edition has no variants.
        if self.tactics and self.edition == "1999":
            raise ValueError("the 1999 edition has no variants: no tactic cards")
        if self.early_bird and self.edition == "1999":
            raise ValueError("the 1999 edition has no variants: no Der frühe Vogel")

    @property
    def hand_size(self) -> int:
        """Cards in a full hand: 6, or 7 with tactics."""
        return HAND_SIZE + 1 if self.tactics else HAND_SIZE


@dataclass(frozen=True, slots=True)
class Stone:
    """One stone: both sides' cards in play order, completion times, owner, and
    the combat style lying on it (Blind Man's Bluff or Mud Fight), if any.

    ``completed`` holds, per side, the ply at which that side's formation was
    completed (``None`` while incomplete); ties go to the earlier one.
    """

    sides: tuple[tuple[AnyCard, ...], ...] = ((), ())
    completed: tuple[int | None, ...] = (None, None)
    owner: int | None = None
    style: Tactic | None = None

    @property
    def rule(self) -> FormationRule:
        """How formations form and compare at this stone."""
        if self.style is None:
            return FORMATION
        return MUD_FORMATION if self.style.name == "mud_fight" else BLIND_FORMATION

    def room(self, player: int) -> bool:
        """Whether ``player`` may still add a card here."""
        return self.owner is None and len(self.sides[player]) < self.rule.size

    def complete(self, player: int) -> bool:
        """Whether ``player``'s formation here is complete."""
        return len(self.sides[player]) == self.rule.size


# The phases as module names: the hot paths test them at every ply.
_PLAY = Phase.PLAY
_AFTER_PLAY = Phase.AFTER_PLAY
_AFTER_PASS = Phase.AFTER_PASS
_RECRUIT_RETURN = Phase.RECRUIT_RETURN


_EMPTY_STONES = tuple(Stone() for _ in range(STONES))


def _as_seen_in_a_view(move: Move) -> Move:
    """``move`` as a view's history shows it: the recruiter's returned cards lie
    face down under their piles, so they are written as the piles' names."""
    if type(move) is Recruit and any(type(c) is not str for c in move.returns):
        piles = tuple(
            c if type(c) is str else "clan" if type(c) is Card else "tactic" for c in move.returns
        )
        return Recruit(move.draws, piles)
    if type(move) is PutBack and any(type(c) is not str for c in move.cards):
        return PutBack(
            tuple(
                c if type(c) is str else "clan" if type(c) is Card else "tactic" for c in move.cards
            )
        )
    return move


@dataclass(frozen=True, slots=True)
class State(LineState[Move]):
    """A Schotten Totten position. Immutable: :meth:`play` returns a new state.

    A state is a frozen dataclass, like every game's on the shared kernel
    (:mod:`referee.line`); ``dataclasses.replace(state, ...)`` gives a copy with
    some fields changed.

    ``hands[p]`` is ``None`` when that hand is hidden (a player's view, or a
    replay of a public record); ``hand_sizes`` always holds the counts.
    ``deck`` and ``tactic_deck`` (top card first) are ``None`` when their order
    is unknown. ``discards`` are the face-up discard piles, visible to both.
    ``tactics_played`` counts each player's tactic cards played (ruses too);
    ``jokers_played`` whether each player has played a joker.
    """

    rules: Rules = Rules()
    stones: tuple[Stone, ...] = _EMPTY_STONES
    hands: tuple[tuple[AnyCard, ...] | None, ...] = ((), ())
    hand_sizes: tuple[int, ...] = (0, 0)
    deck: tuple[Card, ...] | None = ()
    deck_size: int = 0
    tactic_deck: tuple[Tactic, ...] | None = ()
    tactic_deck_size: int = 0
    discards: tuple[AnyCard, ...] = ()
    tactics_played: tuple[int, ...] = (0, 0)
    jokers_played: tuple[bool, ...] = (False, False)
    to_move: int = 0
    phase: Phase = Phase.PLAY
    ply: int = 0
    outcome: Outcome | None = None
    #: Consecutive blank turns (a pass and no claim); -1 while a claim was made
    #: in the current turn. Two blank turns in a row end a blocked game.
    blank_turns: int = 0
    #: How many tactic cards each hand holds. Hands are dealt clan cards only and
    #: every tactic draw and return is a visible move, so this count is known
    #: exactly even when the hand itself is hidden (a view, a public replay).
    hand_tactics: tuple[int, ...] = (0, 0)
    #: The cards the recruiter put under each pile (clan pile, tactic pile) that
    #: are still in it, bottom-most last, each as ``(player, card)``. A player
    #: knows the cards it put back itself: a view shows those and writes the
    #: others' as the pile's name (``"clan"`` or ``"tactic"``).
    under_piles: tuple[tuple[tuple[int, AnyCard | str], ...], ...] = ((), ())
    #: The moves played since the start (see :attr:`history`); never part of equality.
    past: History[Move] = field(default=NO_HISTORY, compare=False, repr=False)

    # The game's parts of the shared scaffolding (plain class attributes, not fields).
    _NAME = "Schotten Totten"
    _MOVE_TYPES = frozenset(
        (PlayCard, Draw, Claim, EndTurn, Pass, Recruit, PutBack, Strategist, Banshee, Traitor)
    )
    _GAME_OVER = Reason.GAME_OVER
    _NOT_YOUR_TURN = Reason.NOT_YOUR_TURN
    _as_seen = staticmethod(_as_seen_in_a_view)
    _parse = staticmethod(parse_move)

    # --- reading the position -------------------------------------------------

    def visible_cards(self) -> Counter[Card]:
        """Every clan card both players can see: on the stones and discarded,
        counted (once each: the clan cards are all different), as in every game."""
        seen = Counter(
            c for stone in self.stones for side in stone.sides for c in side if type(c) is Card
        )
        if self.discards:
            seen.update(c for c in self.discards if type(c) is Card)
        return seen

    def visible_tactics(self) -> Counter[Tactic]:
        """The tactic cards both players can see, counted."""
        seen: Counter[Tactic] = Counter(c for c in self.discards if type(c) is Tactic)
        for stone in self.stones:
            if stone.style is not None:
                seen[stone.style] += 1
            for side in stone.sides:
                seen.update(c for c in side if type(c) is Tactic)
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

    def clans_in_hand(self, player: int) -> int:
        """How many clan cards ``player``'s hand holds, known even when it is hidden.

        >>> public_game().clans_in_hand(1)
        6
        """
        hand = self.hands[player]
        if hand is not None:
            return sum(1 for c in hand if type(c) is Card)
        return self.hand_sizes[player] - self.hand_tactics[player]

    def tactics_in_hand(self, player: int) -> int:
        """How many tactic cards ``player``'s hand holds (public: see ``hand_tactics``)."""
        return self.hand_sizes[player] - self.clans_in_hand(player)

    def can_play_card(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: to move) must play rather than pass: it
        holds a clan card and a stone has room for it on its side.

        Clan counts are public, so the answer is the same for a full state, a
        player's view and a public replay. Tactic cards never oblige a player
        to play (RULINGS 3).
        """
        p = self.to_move if player is None else player
        return self.clans_in_hand(p) > 0 and any(s.room(p) for s in self.stones)

    def claims_now(self) -> bool:
        """Whether the player to move may claim stones at this point of its turn.

        2024: after playing (or passing), before the draw; with Der frühe Vogel
        only at the start of the turn. 1999: at any time before the draw, so
        also before playing a card.
        """
        if self.rules.early_bird:
            return self.phase is Phase.PLAY
        if self.phase is Phase.RECRUIT_RETURN:
            return False
        return self.rules.edition == "1999" or self.phase is not Phase.PLAY

    def may_play_tactic(self, player: int | None = None) -> bool:
        """Whether the tactic limit lets ``player`` (default: to move) play one now."""
        p = self.to_move if player is None else player
        return self.rules.tactics and self.tactics_played[p] <= self.tactics_played[1 - p]

    def status(self) -> tuple[str, ...]:
        """Every reason this position could not arise from a deal by legal play
        (empty when it can), like python-chess's ``Board.status()``; each
        problem names where (``"stone 3: ..."``, ``"player 2 ..."``).

        Checked: cards used twice or not adding up, sides over their size,
        owners without their complete formation or whose claim the table cannot
        prove, the outcome against the stones (a won game stops at the winner's
        claim, in its own turn), tactic and joker counts against the table, hand
        sizes against the piles (full while a pile has cards), the cards each
        player has played against alternating turns and the passes the rules
        allow, the phase against what it says happened this turn, blank turns,
        and the recruiter's cards under the piles. Loading a position refuses
        it when this is not empty.

        >>> new_game(seed=1).status()
        ()
        >>> from dataclasses import replace
        >>> spectator = new_game(seed=1).view(None)
        >>> replace(spectator, hand_sizes=(3, 6), deck_size=45).status()
        ('player 1 holds 3 cards but 45 cards are still to draw: a hand is refilled to 6 after every card played while a pile has cards',)
        """
        return tuple(_problems(self))

    def view(self, player: int | None) -> State:
        """What ``player`` can see: the opponent's hand and the piles' order hidden.

        ``None`` is a spectator's view: both hands hidden.

        >>> spectator = new_game(seed=1).view(None)
        >>> spectator.hands, spectator.hand_sizes
        ((None, None), (6, 6))
        """
        return self._viewed(player)

    def _view_changes(self, player: int | None) -> dict[str, Any]:
        """The tactic counts (public) and the cards under the piles as ``player``
        knows them: its own, the others' written as their pile's name."""
        counts = (self.tactics_in_hand(0), self.tactics_in_hand(1))
        under = self.under_piles
        if under[0] or under[1]:
            under = tuple(
                tuple((p, c if p == player else name) for p, c in pile)
                for pile, name in zip(under, _PILE_NAMES, strict=True)
            )
        return {"hand_tactics": counts, "under_piles": under}

    def _render(self) -> str:
        return render(self)

    def claim_verdict(
        self, number: int, *, player: int | None = None, engine: Engine = "exact"
    ) -> ClaimVerdict:
        """The prover's verdict on ``player`` (default: to move) claiming stone ``number``.

        Raises ``ValueError`` if that side's formation is not complete.
        """
        claimant = self.to_move if player is None else check_player(player, 2)
        return self._verdict(self.stone(number), claimant, engine, None)

    # --- moves ------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move in the game's notation (see :mod:`referee.schotten_totten.moves`)."""
        return parse_move(text)

    def _play_untracked(self, move: Move | str, player: int | None = None) -> State:
        """:meth:`play` without extending :attr:`history`, for validation, which
        replays whole corpora and never reads it (the state's history is stale)."""
        checked = self._checked(move, player)
        phase = self.phase
        # The common plies first, by their exact type (the match below tests
        # each case in turn): a card played, a card drawn.
        if phase is _PLAY and type(checked) is PlayCard:
            return self._play_card(checked)
        if phase is _AFTER_PLAY and type(checked) is Draw:
            return self._draw(checked)
        if phase is _RECRUIT_RETURN and type(checked) is not PutBack:
            back = min(2, self.hand_sizes[self.to_move])
            raise illegal(
                checked,
                Reason.MUST_RETURN,
                f"the recruiter has drawn: put {back} cards back first ('return ...')",
            )
        # Every move type has its case: one left out fails ``mypy --strict``.
        match checked:
            case PlayCard():
                return self._play_card(checked)
            case Draw():
                return self._draw(checked)
            case Claim():
                return self._claim(checked)
            case EndTurn():
                return self._end_turn(checked)
            case Pass():
                return self._pass(checked)
            case Recruit():
                return self._recruit(checked)
            case PutBack():
                return self._return(checked)
            case Strategist():
                return self._strategist(checked)
            case Banshee():
                return self._banshee(checked)
            case Traitor():
                return self._traitor(checked)
            case _:
                assert_never(checked)

    def _play_card(self, move: PlayCard) -> State:
        player, card = self.to_move, move.card
        hand = self.hands[player]
        index = move.stone - 1
        # The common case, inlined for replay speed: a clan card from a known
        # hand to an open side. Anything else takes the checked path below,
        # which also names the broken rule.
        if (
            type(card) is Card
            and hand is not None
            and self.phase is _PLAY
            and 0 <= index < STONES
            and card in hand
        ):
            stone = self.stones[index]
            side = stone.sides[player]
            size = 3 if stone.style is None or stone.style.name != "mud_fight" else 4
            if stone.owner is None and len(side) < size:
                return _fast_play(self, player, card, hand, index, stone, side, size)
        if self.phase is not _PLAY:
            raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
        stone = self._stone_for(move, move.stone)
        if isinstance(card, Tactic):
            if card.name not in TACTIC_NAMES:
                raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a tactic card")
            self._check_variant(move)
            if card.kind == "ruse":
                raise illegal(
                    move,
                    Reason.RUSE_NOTATION,
                    "a ruse is played with its own move, like 'banshee B5@4', not at a stone",
                )
        elif card not in _CLAN_SET:
            raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a Schotten Totten clan card")
        # The hand first (RULINGS: issue 12 point 8), then the tactic limit.
        self._check_in_hand(move, card)
        if isinstance(card, Tactic):
            self._check_tactic(move, card)
        if stone.owner is not None:
            raise illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
        if isinstance(card, Tactic) and card.kind == "style":
            if stone.style is not None:
                raise illegal(
                    move, Reason.STYLE_TAKEN, f"stone {move.stone} already holds {stone.style}"
                )
            placed = _restyle(stone, card, self.ply)
        else:
            side = stone.sides[player]
            size = stone.rule.size
            if len(side) >= size:
                raise illegal(
                    move,
                    Reason.SIDE_FULL,
                    f"your side of stone {move.stone} already has {size} cards",
                )
            placed = _put(stone, player, (*side, card), self.ply)
        return _evolve(
            self,
            stones=replaced(self.stones, move.stone - 1, placed),
            **self._spend(player, card),
            phase=_AFTER_PLAY,
            ply=self.ply + 1,
        )

    def _claim(self, move: Claim) -> State:
        player = self.to_move
        if self.rules.early_bird and self.phase is not Phase.PLAY:
            raise illegal(
                move,
                Reason.CLAIM_NOT_NOW,
                "with Der frühe Vogel, stones are claimed only at the start of the turn",
            )
        if not self.claims_now():
            raise illegal(
                move, Reason.CLAIM_NOT_NOW, "stones are claimed after playing (or passing)"
            )
        stone = self._stone_for(move, move.stone)
        if stone.owner is not None:
            raise illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
        size = stone.rule.size
        if len(stone.sides[player]) < size:
            raise illegal(
                move,
                Reason.FORMATION_INCOMPLETE,
                f"your formation at stone {move.stone} is not complete "
                f"({len(stone.sides[player])} of {size} cards)",
            )
        last, proven = _LAST_CLAIMS
        known = last is self and _CLAIMS[move.stone - 1] in proven
        if not known and not _claim_holds(self, stone, player, self._seen_mask()):
            verdict = self._verdict(stone, player, "exact", None)
            raise ClaimRefusedError(
                Reason.CLAIM_NOT_PROVEN,
                f"illegal move {str(move)!r}: {describe_refusal(verdict, CLAN_CARDS.from_pair)}",
                verdict,
            )
        stones = replaced(self.stones, move.stone - 1, _evolve_stone(stone, owner=player))
        after = _evolve(
            self,
            stones=stones,
            ply=self.ply + 1,
            outcome=_outcome(stones, player),
            blank_turns=-1,
        )
        # A claim shows no card: what was seen, and every other claim proven, still is.
        _carry_seen(self, stones, None)
        if known:
            _remember_claims(after, tuple(c for c in proven if c.stone != move.stone))
        return after

    def _pass(self, move: Pass) -> State:
        if self.phase is not Phase.PLAY:
            raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
        if self.can_play_card():
            what = "a clan card" if self.rules.tactics else "a card"
            raise illegal(
                move, Reason.PASS_NOT_ALLOWED, f"you can still play {what}, so you may not pass"
            )
        if self.rules.early_bird:
            # Claims come before the pass; a turn with a pass claims what it can.
            self._check_no_claim_left(move)
        return _evolve(self, phase=Phase.AFTER_PASS, ply=self.ply + 1)

    def _check_no_claim_left(self, move: Move) -> None:
        """A turn with a pass may not end while the mover can prove a claim
        (RULINGS 14: every game ends, and a blocked game has no provable claim)."""
        claims = self._provable_claims()
        if claims:
            stones = ", ".join(str(c.stone) for c in claims)
            raise illegal(
                move,
                Reason.MUST_CLAIM,
                f"in a turn with a pass you must claim what you can prove first (stone {stones})",
            )

    def _draw(self, move: Draw) -> State:
        player = self.to_move
        hand, deck = self.hands[player], self.deck
        # The common case, inlined for replay speed: the base game's draw of a
        # known top card into a known hand.
        if (
            self.phase is _AFTER_PLAY
            and move.pile is None
            and not self.rules.tactics
            and deck
            and hand is not None
        ):
            return _after_draw(
                self,
                replaced(self.hands, player, (*hand, deck[0])),
                replaced(self.hand_sizes, player, self.hand_sizes[player] + 1),
                deck[1:],
                self.deck_size - 1,
                1 - player,
                _PLAY,
                self.ply + 1,
                0,
            )
        if self.phase is _PLAY:
            raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before drawing")
        if self.phase is _AFTER_PASS:
            raise illegal(move, Reason.PASS_DRAWS_NOTHING, "a turn with a pass draws no card")
        if self.phase is Phase.AFTER_RECRUIT:
            raise illegal(
                move,
                Reason.ALREADY_DREW,
                "the recruiter replaced this turn's draw: end with 'done'",
            )
        if self.deck_size + self.tactic_deck_size == 0:
            raise illegal(
                move, Reason.NOTHING_TO_DRAW, "no pile has cards left: end the turn with 'done'"
            )
        if not self.rules.tactics and move.pile is not None:
            raise illegal(move, Reason.TACTICS_NOT_IN_PLAY, "the base game has one pile: write 'draw'")
        if self.rules.tactics and move.pile is None:
            raise illegal(
                move, Reason.CHOOSE_PILE, "name the pile to draw from: 'draw clan' or 'draw tactic'"
            )
        pile = move.pile or "clan"
        if (self.deck_size if pile == "clan" else self.tactic_deck_size) == 0:
            raise illegal(move, Reason.PILE_EMPTY, f"the {pile} pile is empty")
        changes = self._take(player, [pile])
        return _evolve(
            self, **changes, to_move=1 - player, phase=_PLAY, ply=self.ply + 1, blank_turns=0
        )

    def _end_turn(self, move: EndTurn) -> State:
        if self.phase is Phase.PLAY:
            raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before ending")
        if self.phase is Phase.AFTER_PLAY and self.deck_size + self.tactic_deck_size > 0:
            raise illegal(
                move, Reason.MUST_DRAW, "after playing a card you must draw while a pile has cards"
            )
        blank = 0
        if self.phase is Phase.AFTER_PASS:
            if not self.rules.early_bird:
                self._check_no_claim_left(move)
            blank = 0 if self.blank_turns < 0 else self.blank_turns + 1
        return _evolve(
            self,
            to_move=1 - self.to_move,
            phase=Phase.PLAY,
            ply=self.ply + 1,
            blank_turns=blank,
            # Two blank turns in a row: nothing can change any more (RULINGS: blocked).
            outcome=Outcome(Termination.BLOCKED, None) if blank >= 2 else None,
        )

    # --- ruses ---------------------------------------------------------------------

    def _start_ruse(self, move: Move, name: str) -> dict[str, Any]:
        """Checks common to every ruse; the changes of spending the ruse card."""
        if self.phase is not Phase.PLAY:
            raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
        card = Tactic(name)
        self._check_variant(move)
        self._check_in_hand(move, card)
        self._check_tactic(move, card)
        changes = self._spend(self.to_move, card)
        changes["discards"] = (*self.discards, card)
        return changes

    def _strategist(self, move: Strategist) -> State:
        player = self.to_move
        changes = self._start_ruse(move, "strategist")
        source = self._stone_for(move, move.source)
        self._check_target_card(move, move.card, source, move.source, player)
        stones = list(self.stones)
        stones[move.source - 1] = _take_from(source, player, move.card, self.ply)
        if move.target is None:
            changes["discards"] = (*changes["discards"], move.card)
        else:
            target = self._stone_for(move, move.target)
            if move.target == move.source:
                raise illegal(move, Reason.SAME_STONE, "move the card to another stone")
            self._check_room(move, target, move.target, player)
            stones[move.target - 1] = _put(
                target, player, (*target.sides[player], move.card), self.ply
            )
        return _evolve(
            self, stones=tuple(stones), **changes, phase=Phase.AFTER_PLAY, ply=self.ply + 1
        )

    def _banshee(self, move: Banshee) -> State:
        opponent = 1 - self.to_move
        changes = self._start_ruse(move, "banshee")
        stone = self._stone_for(move, move.stone)
        self._check_target_card(move, move.card, stone, move.stone, opponent)
        changes["discards"] = (*changes["discards"], move.card)
        stones = replaced(
            self.stones, move.stone - 1, _take_from(stone, opponent, move.card, self.ply)
        )
        return _evolve(self, stones=stones, **changes, phase=Phase.AFTER_PLAY, ply=self.ply + 1)

    def _traitor(self, move: Traitor) -> State:
        player = self.to_move
        changes = self._start_ruse(move, "traitor")
        source = self._stone_for(move, move.source)
        if type(move.card) is not Card:
            raise illegal(
                move, Reason.NOT_A_CLAN_CARD, f"the traitor takes clan cards only, not {move.card}"
            )
        self._check_target_card(move, move.card, source, move.source, 1 - player)
        stones = list(self.stones)
        stones[move.source - 1] = _take_from(source, 1 - player, move.card, self.ply)
        self._stone_for(move, move.target)
        target = stones[move.target - 1]
        self._check_room(move, target, move.target, player)
        stones[move.target - 1] = _put(target, player, (*target.sides[player], move.card), self.ply)
        return _evolve(
            self, stones=tuple(stones), **changes, phase=Phase.AFTER_PLAY, ply=self.ply + 1
        )

    def _recruit(self, move: Recruit) -> State:
        player = self.to_move
        changes = self._start_ruse(move, "recruiter")
        after = _evolve(self, **changes)
        wanted = min(3, self.deck_size + self.tactic_deck_size)
        if len(move.draws) != wanted:
            raise illegal(
                move,
                Reason.RECRUIT_DRAWS,
                f"the recruiter draws {wanted} cards, not {len(move.draws)}",
            )
        clan_draws = move.draws.count("clan")
        if clan_draws > self.deck_size or len(move.draws) - clan_draws > self.tactic_deck_size:
            raise illegal(move, Reason.PILE_EMPTY, "a pile runs out before those draws")
        after = _evolve(after, **after._take(player, move.draws))
        if not move.returns:
            # The first step: which cards go back is the next ply, chosen with the
            # drawn cards in hand (a hand of none puts nothing back).
            back = min(2, after.hand_sizes[player])
            if back and not after._put_back_moves():
                raise illegal(
                    move,
                    Reason.SECOND_JOKER,
                    f"the recruiter would have to put {back} cards back, but the second "
                    "joker stays in your hand to the end",
                )
            phase = Phase.RECRUIT_RETURN if back else Phase.AFTER_RECRUIT
            return _evolve(after, phase=phase, ply=self.ply + 1)
        return after._put_back(move, move.returns)

    def _return(self, move: PutBack) -> State:
        if self.phase is not Phase.RECRUIT_RETURN:
            raise illegal(
                move,
                Reason.NOT_RECRUITING,
                "cards go back under the piles only right after the recruiter's draws",
            )
        return self._put_back(move, move.cards)

    def _put_back(self, move: Recruit | PutBack, returns: tuple[AnyCard | str, ...]) -> State:
        """The recruiter's cards ``returns`` put under their piles: the turn
        goes on with claims (one ply after the start of ``move``)."""
        player = self.to_move
        hand, size = self.hands[player], self.hand_sizes[player]
        back = min(2, size)
        if len(returns) != back:
            raise illegal(
                move,
                Reason.RECRUIT_RETURNS,
                f"the recruiter puts {back} cards back, not {len(returns)}",
            )
        deck, tactic_deck = self.deck, self.tactic_deck
        remaining = list(hand) if hand is not None else None
        tactic_back = sum(1 for i in returns if i == "tactic" or type(i) is Tactic)
        held_tactics = self.tactics_in_hand(player)
        if remaining is None and (
            tactic_back > held_tactics or back - tactic_back > size - held_tactics
        ):
            raise illegal(
                move,
                Reason.CARD_NOT_IN_HAND,
                f"after the draws your hand holds {size - held_tactics} clan and "
                f"{held_tactics} tactic cards: it cannot put those back",
            )
        if _JOKER in returns and self.jokers_played[player]:
            raise illegal(
                move,
                Reason.SECOND_JOKER,
                "you have played a joker, so the second one stays in your hand to the end",
            )
        for item in returns:
            if isinstance(item, str):
                if remaining is not None:
                    raise illegal(
                        move, Reason.RECRUIT_RETURNS, f"name the card put back, not just {item!r}"
                    )
                if item == "clan":
                    deck = None
                else:
                    tactic_deck = None
                continue
            if remaining is not None:
                if item not in remaining:
                    raise illegal(
                        move, Reason.CARD_NOT_IN_HAND, f"{item} is not in your hand to put back"
                    )
                remaining.remove(item)
            elif not self._could_hold(item):
                raise illegal(move, Reason.CARD_ALREADY_PLAYED, f"{item} is already on the table")
            if isinstance(item, Card):
                deck = None if deck is None else (*deck, item)
            else:
                tactic_deck = None if tactic_deck is None else (*tactic_deck, item)
        clan_back = sum(1 for i in returns if i == "clan" or type(i) is Card)
        under_clan, under_tactic = self.under_piles
        for item in returns:
            if item == "clan" or type(item) is Card:
                under_clan = (*under_clan, (player, item))
            else:
                under_tactic = (*under_tactic, (player, item))
        return _evolve(
            self,
            under_piles=(under_clan, under_tactic),
            hands=replaced(self.hands, player, None if remaining is None else tuple(remaining)),
            hand_sizes=replaced(self.hand_sizes, player, size - back),
            deck=deck,
            deck_size=self.deck_size + clan_back,
            tactic_deck=tactic_deck,
            tactic_deck_size=self.tactic_deck_size + back - clan_back,
            hand_tactics=replaced(self.hand_tactics, player, held_tactics - tactic_back),
            phase=Phase.AFTER_RECRUIT,
            ply=self.ply + 1,
        )

    # --- checks and changes -----------------------------------------------------------

    def _stone_for(self, move: Move, number: int) -> Stone:
        return place_at(move, number, self.stones, Reason.NO_SUCH_STONE, "stone")

    def _check_variant(self, move: Move) -> None:
        if not self.rules.tactics:
            raise illegal(
                move, Reason.TACTICS_NOT_IN_PLAY, "tactic cards are played only with Tartan-Taktiken"
            )

    def _check_tactic(self, move: Move, card: AnyCard) -> None:
        """The tactic limit and the joker rule (after the hand was checked)."""
        player = self.to_move
        if not self.may_play_tactic():
            raise illegal(
                move,
                Reason.TACTIC_LIMIT,
                f"you have played {self.tactics_played[player]} tactic cards and your opponent "
                f"{self.tactics_played[1 - player]}: you may not get two ahead",
            )
        if card == _JOKER and self.jokers_played[player]:
            raise illegal(move, Reason.SECOND_JOKER, "you have already played a joker this game")

    def _check_in_hand(self, move: Move, card: AnyCard) -> None:
        player = self.to_move
        hand = self.hands[player]
        if hand is not None:
            if card not in hand:
                raise illegal(move, Reason.CARD_NOT_IN_HAND, f"{card} is not in your hand")
        elif self.hand_sizes[player] == 0:
            raise illegal(move, Reason.EMPTY_HAND, "your hand is empty")
        elif not self._could_hold(card):
            raise illegal(move, Reason.CARD_ALREADY_PLAYED, f"{card} is already on the table")
        elif type(card) is Tactic and self.tactics_in_hand(player) == 0:
            raise illegal(
                move,
                Reason.CARD_NOT_IN_HAND,
                f"{card} is not in your hand: it holds no tactic card",
            )
        elif type(card) is Card and self.clans_in_hand(player) == 0:
            raise illegal(
                move, Reason.CARD_NOT_IN_HAND, f"{card} is not in your hand: it holds no clan card"
            )

    def _could_hold(self, card: AnyCard) -> bool:
        """Whether a hidden hand may hold ``card`` (it is not all visible)."""
        if type(card) is Tactic:
            return self.visible_tactics()[card] < copies(card)
        return card in _CLAN_SET and card not in self.visible_cards()

    def _check_target_card(
        self, move: Move, card: AnyCard, stone: Stone, number: int, owner: int
    ) -> None:
        whose = "your" if owner == self.to_move else "the opponent's"
        if stone.owner is not None:
            raise illegal(move, Reason.STONE_CLAIMED, f"stone {number} is already claimed")
        if card not in stone.sides[owner]:
            raise illegal(
                move, Reason.CARD_NOT_AT_STONE, f"{card} is not on {whose} side of stone {number}"
            )

    def _check_room(self, move: Move, stone: Stone, number: int, player: int) -> None:
        if stone.owner is not None:
            raise illegal(move, Reason.STONE_CLAIMED, f"stone {number} is already claimed")
        if not stone.room(player):
            raise illegal(
                move,
                Reason.SIDE_FULL,
                f"your side of stone {number} already has {stone.rule.size} cards",
            )

    def _spend(self, player: int, card: AnyCard) -> dict[str, Any]:
        """The changes of taking ``card`` from ``player``'s hand and playing it."""
        hand = self.hands[player]
        if hand is None:
            new_hand = None
        else:
            at = hand.index(card)
            new_hand = hand[:at] + hand[at + 1 :]
        changes: dict[str, Any] = {
            "hands": replaced(self.hands, player, new_hand),
            "hand_sizes": replaced(self.hand_sizes, player, self.hand_sizes[player] - 1),
        }
        if type(card) is Tactic:
            played = self.tactics_played
            changes["tactics_played"] = replaced(played, player, played[player] + 1)
            changes["hand_tactics"] = replaced(
                self.hand_tactics, player, self.tactics_in_hand(player) - 1
            )
            if card == _JOKER:
                changes["jokers_played"] = replaced(self.jokers_played, player, True)
        return changes

    def _take(self, player: int, piles: Sequence[str]) -> dict[str, Any]:
        """The changes of ``player`` drawing the top cards of ``piles`` in order."""
        hand, deck, tactic_deck = self.hands[player], self.deck, self.tactic_deck
        drawn: list[AnyCard] | None = []
        clans = sum(1 for p in piles if p == "clan")
        tactics = len(piles) - clans
        if (deck is None and clans) or (tactic_deck is None and tactics):
            drawn = None
        else:
            drawn = [*(deck or ())[:clans], *(tactic_deck or ())[:tactics]]
        new_hand = None if hand is None or drawn is None else (*hand, *drawn)
        changes: dict[str, Any] = {}
        under = self.under_piles
        if under[0] or under[1]:
            # Cards put under a pile are drawn once the pile is down to them.
            sizes = (self.deck_size - clans, self.tactic_deck_size - tactics)
            changes["under_piles"] = tuple(
                pile[len(pile) - size :] if len(pile) > size else pile
                for pile, size in zip(under, sizes, strict=True)
            )
        return {
            **changes,
            "hands": replaced(self.hands, player, new_hand),
            "hand_sizes": replaced(self.hand_sizes, player, self.hand_sizes[player] + len(piles)),
            "deck": None if deck is None else deck[clans:],
            "deck_size": self.deck_size - clans,
            "tactic_deck": None if tactic_deck is None else tactic_deck[tactics:],
            "tactic_deck_size": self.tactic_deck_size - tactics,
            "hand_tactics": replaced(
                self.hand_tactics, player, self.tactics_in_hand(player) + tactics
            ),
        }

    def _pieces(self, side: Iterable[AnyCard]) -> list[Piece]:
        return [wildcard_of(c) if isinstance(c, Tactic) else _PAIRS[c] for c in side]

    def _verdict(
        self, stone: Stone, player: int, engine: Engine, pool: Pool | None
    ) -> ClaimVerdict:
        return verdict_at(
            stone,
            player,
            pieces=self._pieces,
            pool=self._pool if pool is None else pool,
            colours=_COLOURS,
            engine=engine,
        )

    def _pool(self) -> Pool:
        """The prover's pool: every clan card that is not visible."""
        return Sight(lambda: self.visible_cards().keys(), _PAIRS).pool

    # --- legal moves ----------------------------------------------------------------

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move for the player to move, as a new list."""
        if self.outcome is not None:
            return []
        rules, phase = self.rules, self.phase
        if not rules.tactics and phase is not _AFTER_PASS:
            fast = self._base_moves(rules, phase)
            if fast is not None:
                return fast
        if phase is _RECRUIT_RETURN:
            return self._put_back_moves()
        moves: list[Move] = []
        claims = self._provable_claims() if self.claims_now() else []
        moves.extend(claims)
        if self.phase is _PLAY:
            moves.extend(self._card_plays())
            if not self.can_play_card() and not (claims and self.rules.early_bird):
                moves.append(Pass())
            return moves
        if self.phase is _AFTER_PASS and claims:
            return moves  # a turn with a pass claims what it can before it ends
        if self.phase is _AFTER_PLAY and self.deck_size + self.tactic_deck_size > 0:
            if not self.rules.tactics:
                moves.append(Draw())
            else:
                moves.extend(
                    Draw(pile)
                    for pile, size in (("clan", self.deck_size), ("tactic", self.tactic_deck_size))
                    if size
                )
        else:
            moves.append(EndTurn())
        return moves

    def _base_moves(self, rules: Rules, phase: Phase) -> list[Move] | None:
        """``legal_moves`` without tactics when playing or drawing with a known
        hand: the same moves in the same order, with less work (``None`` when
        the general path must answer)."""
        player = self.to_move
        moves: list[Move] = []
        if phase is _PLAY:
            hand = self.hands[player]
            if hand is None or not self.hand_sizes[player]:
                return None
            if rules.edition == "1999" or rules.early_bird:
                moves.extend(self._provable_claims())
            claimed = bool(moves)
            open_at = [
                i
                for i, s in enumerate(self.stones)
                if s.owner is None and len(s.sides[player]) < (3 if s.style is None else _size(s))
            ]
            rows = [
                _PLAY_ROWS.get(c) or _play_row(c) for c in dict.fromkeys(hand) if type(c) is Card
            ]
            moves += [row[i] for row in rows for i in open_at]
            # Pass only when no clan card can be played (can_play_card).
            if not (rows and open_at) and not (claimed and rules.early_bird):
                moves.append(Pass())
            return moves
        if phase is _AFTER_PLAY:
            if not rules.early_bird:
                moves.extend(self._provable_claims())
            moves.append(_DRAW if self.deck_size + self.tactic_deck_size > 0 else _END_TURN)
            return moves
        return None

    def _card_plays(self) -> list[Move]:
        player = self.to_move
        if self.hand_sizes[player] == 0:
            return []
        hand = self.hands[player]
        if hand is None:
            tactics: list[AnyCard] = []
            if self.hand_tactics[player] > 0:
                tactics = [t for t in dict.fromkeys(TACTIC_CARDS) if self._could_hold(t)]
            clans: list[AnyCard] = []
            if self.clans_in_hand(player) > 0:
                clans = list(self.unseen_cards())
            held: Sequence[AnyCard] = [*clans, *tactics]
        else:
            held = list(dict.fromkeys(hand))
        open_at = [
            i
            for i, s in enumerate(self.stones)
            if s.owner is None and len(s.sides[player]) < _size(s)
        ]
        # Clan-card plays come ready made, one per card and stone.
        rows = [_PLAY_ROWS.get(c) or _play_row(c) for c in held if type(c) is Card]
        moves: list[Move] = [row[i] for row in rows for i in open_at]
        if not self.may_play_tactic():
            return moves
        for card in held:
            if type(card) is not Tactic or (card == _JOKER and self.jokers_played[player]):
                continue
            if card.kind == "elite":
                row = _PLAY_ROWS.get(card) or _play_row(card)
                moves.extend(row[i] for i in open_at)
            elif card.kind == "style":
                row = _PLAY_ROWS.get(card) or _play_row(card)
                moves.extend(
                    row[i] for i, s in enumerate(self.stones) if s.owner is None and s.style is None
                )
            else:
                moves.extend(self._ruse_moves(card.name))
        return moves

    def _ruse_moves(self, name: str) -> list[Move]:
        player, opponent = self.to_move, 1 - self.to_move
        unclaimed = [(i + 1, s) for i, s in enumerate(self.stones) if s.owner is None]
        if name == "banshee":
            return [Banshee(c, n) for n, s in unclaimed for c in dict.fromkeys(s.sides[opponent])]
        if name == "traitor":
            return [
                Traitor(c, n, m)
                for n, s in unclaimed
                for c in dict.fromkeys(s.sides[opponent])
                if type(c) is Card
                for m, t in unclaimed
                if t.room(player)
            ]
        if name == "strategist":
            return [
                Strategist(c, n, m)
                for n, s in unclaimed
                for c in dict.fromkeys(s.sides[player])
                for m in (None, *(m for m, t in unclaimed if m != n and t.room(player)))
            ]
        return self._recruit_moves()

    def _recruit_moves(self) -> list[Move]:
        """The recruiter's first step, one move per mix of draws (the cards to
        put back are the next ply, once the drawn cards are in hand)."""
        total = min(3, self.deck_size + self.tactic_deck_size)
        moves: list[Move] = []
        for clans in range(total, -1, -1):
            tactics = total - clans
            if clans > self.deck_size or tactics > self.tactic_deck_size:
                continue
            draws = ("clan",) * clans + ("tactic",) * tactics
            if self.jokers_played[self.to_move]:
                # the second joker stays in hand: the draws must leave cards to put back
                after = _evolve(self, **self._start_ruse(Recruit(draws), "recruiter"))
                after = _evolve(after, **after._take(self.to_move, draws))
                if min(2, after.hand_sizes[self.to_move]) and not after._put_back_moves():
                    continue
            moves.append(_recruit(draws, ()))
        return moves

    def _put_back_moves(self) -> list[Move]:
        """The recruiter's second step: each set of cards it may put back, once
        (which of two goes under a pile first is not worth a decision of its own:
        one order, the kind order of the action ids)."""
        player = self.to_move
        hand, size = self.hands[player], self.hand_sizes[player]
        options: Iterable[tuple[AnyCard | str, ...]]
        if hand is None:
            held = self.tactics_in_hand(player)
            options = [
                back
                for back in combinations_with_replacement(("clan", "tactic"), min(2, size))
                if back.count("tactic") <= held and back.count("clan") <= size - held
            ]
        else:
            options = dict.fromkeys(
                tuple(sorted(back, key=_KIND_RANK.__getitem__))
                for back in combinations(hand, min(2, size))
            )
            if self.jokers_played[player]:
                options = [back for back in options if _JOKER not in back]
        return [_put_back(tuple(back)) for back in options]

    def _seen(self) -> frozenset[Card]:
        """:meth:`visible_cards`, as the prover's sight wants them."""
        return frozenset(self.visible_cards())

    def _seen_mask(self) -> int:
        """:meth:`visible_cards` as a bit mask (see ``_BIT``), kept from ply to
        ply when a play or a claim made this state from the last one asked
        (see ``_LAST_SEEN``)."""
        global _LAST_SEEN
        stones, discards, mask = _LAST_SEEN
        if stones is self.stones and discards is self.discards:
            return mask
        mask = _mask_of(self.visible_cards())
        _LAST_SEEN = (self.stones, self.discards, mask)
        return mask

    def _provable_claims(self) -> list[Claim]:
        last, proven = _LAST_CLAIMS
        if last is self:
            return list(proven)
        claims = self._prove_claims()
        _remember_claims(self, tuple(claims))
        return claims

    def _prove_claims(self) -> list[Claim]:
        player = self.to_move
        claims: list[Claim] = []
        seen = -1
        for i, stone in enumerate(self.stones):
            # Cheap bounds first: only an unclaimed stone with this side complete.
            if stone.owner is not None:
                continue
            held = len(stone.sides[player])
            if held < 3 or held != (3 if stone.style is None else _size(stone)):
                continue
            if seen < 0:
                seen = self._seen_mask()
            if _claim_holds(self, stone, player, seen):
                claims.append(_CLAIMS[i])
        return claims

    # --- text picture ---------------------------------------------------------------


_JOKER = Tactic("joker")
_RECRUITER = Tactic("recruiter")
_TRAITOR = Tactic("traitor")
_BANSHEE = Tactic("banshee")
_STRATEGIST = Tactic("strategist")
_MUD = Tactic("mud_fight")
#: The phases that follow a card played this turn.
_PLAYED = frozenset({Phase.AFTER_PLAY, Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT})
#: The ruses that take a card off a side (the strategist, the banshee, the traitor).
_MOVERS = frozenset({Tactic("strategist"), Tactic("banshee"), Tactic("traitor")})
_DRAW = Draw()
_END_TURN = EndTurn()


# --- claims: answers remembered from ply to ply --------------------------------------
#
# The prover's verdict on a claim (``decide_claim``) compares the claimant's
# complete formation with the best formation the opposing side has, when it is
# complete, or can still reach from the pool, every clan card not visible (ties go
# to whoever completed first, so to the claimant against an incomplete side).
#
# Visible cards never become hidden again (they lie on the stones or the discard
# pile), so during a game the pool only shrinks, and what the prover once found
# about a side stays usable as bounds on its best reachable formation:
#
# * a completion it found is still reachable while none of its cards is visible:
#   if it beats the claimant, the claim is refused;
# * the best it found with some cards visible bounds the best on any table that
#   shows at least those cards: if the claimant matches it, the claim holds.
#
# The prover runs only when neither bound decides. The bounds are kept in bounded
# memos keyed by immutable values (the combat style and the side); states carry
# nothing of them.

#: clan card -> its bit in a mask of clan cards (card order)
_BIT = card_bits(CLAN_CARDS.cards)


def _mask_of(cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (clan cards; see ``_BIT``)."""
    return mask_of(_BIT, cards)


_SideKey = tuple[Tactic | None, tuple[AnyCard, ...]]
_Rank = tuple[int, int]
#: (style, complete side) -> the rule's key of its strength (wildcards at their best)
_STRENGTHS: dict[_SideKey, _Rank] = {}
#: (style, incomplete side) -> completions found: (key of the strength, cards added)
_REACHED: dict[_SideKey, tuple[tuple[_Rank, int], ...]] = {}  # cards as a mask
#: (style, incomplete side) -> best found: (its key, or None when the pool could not
#: complete the side; the mask of the clan cards visible then)
_CEILINGS: dict[_SideKey, tuple[tuple[_Rank | None, int], ...]] = {}
_KEPT = 4  # completions and ceilings kept per side, newest first
_CARD_OF_PAIR = {pair: card for card, pair in _PAIRS.items()}
_HIGHEST_FIRST = sorted(CLAN_CARDS.cards, key=lambda card: -card.value)


def _clan_pairs(side: Iterable[AnyCard]) -> list[tuple[int, int]] | None:
    """The prover's pairs of a side of clan cards (``None`` if it holds a tactic card)."""
    pairs = []
    for card in side:
        if not isinstance(card, Card):
            return None
        pairs.append(_PAIRS[card])
    return pairs


def _strength_rank(state: State, stone: Stone, side: tuple[AnyCard, ...]) -> _Rank:
    """The rule's key of a complete side's strength, its wildcards at their best."""
    key = (stone.style, side)
    rank = _STRENGTHS.get(key)
    if rank is None and stone.style is None and len(side) == 3:
        a, b, c = side
        if type(a) is Card and type(b) is Card and type(c) is Card:
            # FORMATION.classify, written out for three clan cards
            low, middle, high = sorted((a.value, b.value, c.value))
            total = low + middle + high
            one_colour = a.colour == b.colour == c.colour
            run = middle == low + 1 and high == middle + 1
            if one_colour and run:
                rank = (Kind.COLOR_RUN, total)
            elif low == high:
                rank = (Kind.THREE_OF_A_KIND, total)
            elif one_colour:
                rank = (Kind.COLOR, total)
            elif run:
                rank = (Kind.RUN, total)
            else:
                rank = (Kind.SUM, total)
            remember(_STRENGTHS, key, rank)
            return rank
    if rank is None:
        rule = stone.rule
        pairs = _clan_pairs(side)
        if pairs is not None:
            strength = rule.classify(pairs)  # as the prover does without wildcards
        else:
            valued = best_reachable(state._pieces(side), NO_POOL, rule, colours=_COLOURS)
            assert valued is not None  # a complete side is its own completion
            strength = valued.strength
        rank = rule.key(strength)
        remember(_STRENGTHS, key, rank)
    return rank


def _beaten(
    state: State, stone: Stone, side: tuple[AnyCard, ...], mine: _Rank, seen: int
) -> int | None:
    """The cards (a mask) that complete the incomplete ``side`` into a
    formation that beats the claimant's ``mine`` (the claimant completed
    first), if it can still be done; ``None`` if it cannot. ``seen`` is the
    mask of the visible cards."""
    key = (stone.style, side)
    reached = _REACHED.get(key, ())
    for rank, cards in reached:
        if rank > mine and not cards & seen:
            return cards
    ceilings = _CEILINGS.get(key, ())
    for ceiling, then in ceilings:
        if (ceiling is None or ceiling <= mine) and not then & ~seen:
            return None
    if stone.style is None:
        plain = _best_plain(side, seen)
        if plain is not None:
            rank_or_none, added = plain
            remember(_CEILINGS, key, ((rank_or_none, seen), *ceilings[: _KEPT - 1]))
            if rank_or_none is None:
                return None
            remember(_REACHED, key, ((rank_or_none, added), *reached[: _KEPT - 1]))
            return added if rank_or_none > mine else None
    rule = stone.rule
    # A cheap try before the prover: the side with the highest unseen cards.
    missing = rule.size - len(side)
    pairs = _clan_pairs(side)
    if pairs is not None:
        highest = []
        for card in _HIGHEST_FIRST:
            if not _BIT[card] & seen:
                highest.append(card)
                if len(highest) == missing:
                    break
        if len(highest) == missing:
            rank = rule.key(rule.classify(pairs + [_PAIRS[c] for c in highest]))
            if rank > mine:
                cards = _mask_of(highest)
                remember(_REACHED, key, ((rank, cards), *reached[: _KEPT - 1]))
                return cards
    pool = Sight(state._seen, _PAIRS).pool
    best = best_reachable(state._pieces(side), pool, rule, colours=_COLOURS)
    if best is None:
        remember(_CEILINGS, key, ((None, seen), *ceilings[: _KEPT - 1]))
        return None
    rank = rule.key(best.strength)
    remember(_CEILINGS, key, ((rank, seen), *ceilings[: _KEPT - 1]))
    found = _mask_of(_CARD_OF_PAIR[pair] for pair in best.cards)
    remember(_REACHED, key, ((rank, found), *reached[: _KEPT - 1]))
    return found if rank > mine else None


_COLOUR_CODES = CLAN_CARDS.colours
_TOP_VALUE = max(card.value for card in CLAN_CARDS.cards)
_LOW_VALUE = min(card.value for card in CLAN_CARDS.cards)
#: colour -> its clan cards' (bit, value), highest value first
_COLOUR_HIGHEST_FIRST = {
    colour: [(_BIT[card], card.value) for card in _HIGHEST_FIRST if card.colour == colour]
    for colour in _COLOUR_CODES
}
#: every clan card's (bit, value), highest value first
_ALL_HIGHEST_FIRST = [(_BIT[card], card.value) for card in _HIGHEST_FIRST]
#: value -> the mask of its clan cards, one per colour
_VALUE_MASK = {
    value: _mask_of(card for card in CLAN_CARDS.cards if card.value == value)
    for value in range(_LOW_VALUE, _TOP_VALUE + 1)
}
#: (colour, lowest value) -> the mask of the three cards of that colour run
_RUN_MASK = {
    (colour, low): _mask_of(Card(colour, v) for v in range(low, low + 3))
    for colour in _COLOUR_CODES
    for low in range(_LOW_VALUE, _TOP_VALUE - 1)
}


def _best_plain(side: tuple[AnyCard, ...], seen: int) -> tuple[_Rank | None, int] | None:
    """The strongest formation an incomplete side of clan cards at a stone
    without a combat style can still reach from the unseen cards (``seen``,
    a mask, holds every visible card, the side's own among them), computed
    directly: its rule's key and the cards added (a mask), or ``(None, 0)``
    when too few cards are unseen to complete it; ``None`` when the side
    holds a tactic card (the prover answers then).

    Each kind's best is found strongest kind first; a completion that meets a
    kind's condition is worth at least that kind, so the first kind reachable
    gives the best key (what ``best_reachable`` finds, without its search).
    """
    values: list[int] = []
    colours: set[str] = set()
    mask = 0
    for card in side:
        if type(card) is not Card:
            return None
        values.append(card.value)
        colours.add(card.colour)
        mask |= _BIT[card]
    missing = 3 - len(values)
    total = sum(values)
    different = len(set(values))
    in_colours = colours or _COLOUR_CODES
    lows: Sequence[int] = ()
    if different == len(values):
        # Runs holding the side, highest first.
        if values:
            lows = range(min(min(values), _TOP_VALUE - 2), max(max(values) - 2, _LOW_VALUE) - 1, -1)
        else:
            lows = range(_TOP_VALUE - 2, _LOW_VALUE - 1, -1)
        if len(colours) <= 1:
            for low in lows:
                for colour in in_colours:
                    added = _RUN_MASK[colour, low] & ~mask
                    if not added & seen:
                        return (Kind.COLOR_RUN, 3 * low + 3), added
    if different <= 1:
        # Three of a kind: the highest value with enough unseen cards.
        for value in values[:1] or range(_TOP_VALUE, _LOW_VALUE - 1, -1):
            unseen = _VALUE_MASK[value] & ~seen
            if unseen.bit_count() >= missing:
                added = 0
                for _ in range(missing):
                    lowest = unseen & -unseen
                    added |= lowest
                    unseen ^= lowest
                return (Kind.THREE_OF_A_KIND, 3 * value), added
    if len(colours) <= 1:
        # Colour: the highest unseen cards of one colour.
        best_total, best_added = -1, 0
        for colour in in_colours:
            count, summed, added = 0, total, 0
            for bit, value in _COLOUR_HIGHEST_FIRST[colour]:
                if not bit & seen:
                    count += 1
                    summed += value
                    added |= bit
                    if count == missing:
                        if summed > best_total:
                            best_total, best_added = summed, added
                        break
        if best_added:
            return (Kind.COLOR, best_total), best_added
    if different == len(values):
        # Run: the highest run holding the side, any colours.
        for low in lows:
            added = 0
            for v in (low, low + 1, low + 2):
                if v in values:
                    continue
                unseen = _VALUE_MASK[v] & ~seen
                if not unseen:
                    break
                added |= unseen & -unseen
            else:
                return (Kind.RUN, 3 * low + 3), added
    # Sum: the highest unseen cards.
    count, summed, added = 0, total, 0
    for bit, value in _ALL_HIGHEST_FIRST:
        if not bit & seen:
            count += 1
            summed += value
            added |= bit
            if count == missing:
                return (Kind.SUM, summed), added
    return None, 0


def _claim_holds(state: State, stone: Stone, player: int, seen: int) -> bool:
    """Whether ``player``'s complete side at ``stone`` can be claimed, the
    visible cards' mask being ``seen``: the exact prover's answer
    (``decide_claim``), from what is remembered when it decides."""
    # This very stone's last answer first: a settled duel, or cards that beat
    # the claim and are still unseen (they still do: the stone is unchanged).
    kept = _BY_STONE.get(id(stone) * 2 + player)
    if kept is not None and kept[0] is stone:
        if kept[1] is not None:
            return kept[1]
        if not kept[2] & seen:
            return False
    mine, theirs = stone.sides[player], stone.sides[1 - player]
    style = stone.style
    mine_rank = _STRENGTHS.get((style, mine)) or _strength_rank(state, stone, mine)
    if len(theirs) == (3 if style is None else _size(stone)):
        theirs_rank = _STRENGTHS.get((style, theirs)) or _strength_rank(state, stone, theirs)
        if mine_rank != theirs_rank:
            holds = mine_rank > theirs_rank
        else:
            mine_at, theirs_at = stone.completed[player], stone.completed[1 - player]
            holds = mine_at is not None and theirs_at is not None and mine_at < theirs_at
        remember(_BY_STONE, id(stone) * 2 + player, (stone, holds, 0))
        return holds
    witness = _beaten(state, stone, theirs, mine_rank, seen)
    if witness is None:
        return True
    remember(_BY_STONE, id(stone) * 2 + player, (stone, None, witness))
    return False


#: id(stone) * 2 + claimant -> (the stone, its verdict when both sides are
#: complete, else None and the mask of cards that beat the claim). Each entry
#: holds its stone, so an id is never a stranger's. Only what holds in every
#: game through this stone is kept (a claim that holds now may not in a
#: position that shows fewer cards: that is for ``_CEILINGS`` to say).
_BY_STONE: dict[int, tuple[Stone, bool | None, int]] = {}


_CLAIMS = tuple(Claim(n) for n in range(1, STONES + 1))

# What the last positions asked showed, kept for the next ply (a playout asks
# position after position): each is replaced whole, by one assignment, and
# holds the objects it is about, so an identity test never meets a stranger.
#
# The visible cards are a function of the stones and the discard pile, both
# immutable tuples: (stones, discards, the visible cards' mask).
_LAST_SEEN: tuple[Any, Any, int] = (None, None, 0)
# The claims the player to move can prove: (state, its claims).
_LAST_CLAIMS: tuple[State | None, tuple[Claim, ...]] = (None, ())


def _carry_seen(state: State, stones: tuple[Stone, ...], card: Card | None) -> None:
    """``stones`` replace ``state``'s, showing ``card`` more (or nothing more):
    if ``state``'s visible cards are kept, keep them for ``stones`` too."""
    global _LAST_SEEN
    last, discards, mask = _LAST_SEEN
    if last is state.stones and discards is state.discards:
        _LAST_SEEN = (stones, discards, mask if card is None else mask | _BIT[card])


def _remember_claims(state: State, claims: tuple[Claim, ...]) -> None:
    global _LAST_CLAIMS
    _LAST_CLAIMS = (state, claims)


def _play(card: AnyCard, stone: int) -> PlayCard:
    """``PlayCard(card, stone)`` without the field checks (for generated moves)."""
    move = object.__new__(PlayCard)
    object.__setattr__(move, "card", card)
    object.__setattr__(move, "stone", stone)
    return move


def _fast_play(
    state: State,
    player: int,
    card: Card,
    hand: tuple[AnyCard, ...],
    index: int,
    stone: Stone,
    side: tuple[AnyCard, ...],
    size: int,
) -> State:
    """The state after a checked clan-card play (see ``State._play_card``)."""
    new_side = (*side, card)
    done = state.ply if len(new_side) == size else None
    if player == 0:
        sides = (new_side, stone.sides[1])
        completed = (done, stone.completed[1])
    else:
        sides = (stone.sides[0], new_side)
        completed = (stone.completed[0], done)
    placed = _new_sides(stone, sides, completed)
    at = hand.index(card)
    stones = state.stones
    new_stones = (*stones[:index], placed, *stones[index + 1 :])
    _carry_seen(state, new_stones, card)
    return _after_play(
        state,
        new_stones,
        replaced(state.hands, player, hand[:at] + hand[at + 1 :]),
        replaced(state.hand_sizes, player, state.hand_sizes[player] - 1),
        Phase.AFTER_PLAY,
        state.ply + 1,
    )


def _play_row(card: AnyCard) -> tuple[PlayCard, ...]:
    """The plays of ``card`` at stones 1-9, in stone order."""
    # cards and stones here are known good: skip the constructor's checks
    return tuple(_play(card, n) for n in range(1, STONES + 1))


_PLAY_ROWS: dict[AnyCard, tuple[PlayCard, ...]] = {
    card: _play_row(card) for card in CLAN_CARDS.cards
}
_PLAY_ROWS.update((tactic, _play_row(tactic)) for tactic in TACTIC_CARDS)


def _put_back(cards: tuple[AnyCard | str, ...]) -> PutBack:
    """``PutBack(cards)`` without the field checks (for generated moves)."""
    move = object.__new__(PutBack)
    object.__setattr__(move, "cards", cards)
    return move


def _recruit(draws: tuple[str, ...], returns: tuple[AnyCard | str, ...]) -> Recruit:
    """``Recruit(draws, returns)`` without the field checks (for generated moves)."""
    move = object.__new__(Recruit)
    object.__setattr__(move, "draws", draws)
    object.__setattr__(move, "returns", returns)
    return move


def _size(stone: Stone) -> int:
    """``stone.rule.size`` without the property's overhead."""
    return 3 if stone.style is None or stone.style.name != "mud_fight" else 4


def _put(stone: Stone, player: int, side: tuple[AnyCard, ...], ply: int) -> Stone:
    """``stone`` with ``player``'s side replaced; a side that becomes complete
    is stamped with ``ply``."""
    done = ply if len(side) == stone.rule.size else None
    return _evolve_stone(
        stone,
        sides=replaced(stone.sides, player, side),
        completed=replaced(stone.completed, player, done),
    )


def _take_from(stone: Stone, player: int, card: AnyCard, ply: int) -> Stone:
    side = list(stone.sides[player])
    side.remove(card)
    return _put(stone, player, tuple(side), ply)


def _restyle(stone: Stone, style: Tactic, ply: int) -> Stone:
    """``stone`` with a combat style on it; Mud Fight makes 3-card sides incomplete."""
    styled = _evolve_stone(stone, style=style)
    size = styled.rule.size
    completed = tuple(
        done if len(side) == size else None
        for side, done in zip(styled.sides, styled.completed, strict=True)
    )
    return _evolve_stone(styled, completed=completed)


#: ``dataclasses.replace`` without its overhead: the hot path of replays.
_evolve = copier(State)
_evolve_stone = copier(Stone)
# The two plies of nearly every turn, each with its own copier (see ``copier``).
_after_play = copier(State, "stones", "hands", "hand_sizes", "phase", "ply")
_after_draw = copier(
    State, "hands", "hand_sizes", "deck", "deck_size", "to_move", "phase", "ply", "blank_turns"
)
_new_sides = copier(Stone, "sides", "completed")
_tuple_new = tuple.__new__
_write_past = State.__dict__["past"].__set__  # the slot itself: no frozen check


def _outcome(stones: Sequence[Stone], player: int) -> Outcome | None:
    held = [stone.owner == player for stone in stones]
    for i in range(len(held) - 2):
        if held[i] and held[i + 1] and held[i + 2]:
            return Outcome(Termination.THREE_ADJACENT, player)
    if sum(held) >= 5:
        return Outcome(Termination.FIVE_STONES, player)
    return None


def _problems(state: State) -> list[str]:
    """Every reason ``state`` cannot arise from a deal by legal play (see :meth:`State.status`)."""
    problems = _card_problems(state)
    problems += _stone_problems(state)
    problems += _tactic_problems(state)
    problems += _under_pile_problems(state)
    if problems:
        # The counts below build on the cards, the stones and the tactic counts.
        return problems
    problems += _hand_problems(state)
    problems += _outcome_problems(state)
    problems += _phase_problems(state)
    if not problems:
        problems += _turn_problems(state)
    return problems


def _card_problems(state: State) -> list[str]:
    """Every card once, and the hidden cards add up."""
    problems: list[str] = []
    counts: Counter[AnyCard] = Counter(state.discards)
    for stone in state.stones:
        if stone.style is not None:
            counts[stone.style] += 1
        for side in stone.sides:
            counts.update(side)
    for hand in state.hands:
        counts.update(hand or ())
    counts.update(state.deck or ())
    counts.update(state.tactic_deck or ())
    for card, count in counts.items():
        if count > (copies(card) if type(card) is Tactic else 1):
            problems.append(f"card {card} is used {count} times")
    if not state.rules.tactics and any(type(c) is Tactic for c in counts):
        problems.append("tactic cards lie on the table but the rules play without tactics")
    for p in (0, 1):
        hand = state.hands[p]
        if hand is not None and len(hand) != state.hand_sizes[p]:
            problems.append(
                f"player {p + 1}'s hand holds {len(hand)} cards, hand_sizes says "
                f"{state.hand_sizes[p]}"
            )
        elif hand is None and not 0 <= state.hand_tactics[p] <= state.hand_sizes[p]:
            problems.append(f"player {p + 1} holds {state.hand_tactics[p]} tactic cards")
    for pile, size, name in (
        (state.deck, state.deck_size, "clan pile"),
        (state.tactic_deck, state.tactic_deck_size, "tactic pile"),
    ):
        if pile is not None and len(pile) != size:
            problems.append(f"the {name} holds {len(pile)} cards, its size says {size}")
    if problems:
        return problems
    seen_clans = len(state.visible_cards())
    clans = sum(state.clans_in_hand(p) for p in (0, 1))
    if seen_clans + clans + state.deck_size != len(CLAN_CARDS.cards):
        problems.append(
            f"the clan cards do not add up: {len(CLAN_CARDS.cards)} in the game, {seen_clans} "
            f"on the table or discarded, {clans} in the hands and {state.deck_size} in the pile"
        )
    seen_tactics = sum(state.visible_tactics().values())
    held = sum(state.tactics_in_hand(p) for p in (0, 1))
    total = len(TACTIC_CARDS) if state.rules.tactics else 0
    if seen_tactics + held + state.tactic_deck_size != total:
        problems.append(
            f"the tactic cards do not add up: {total} in the game, {seen_tactics} played, "
            f"{held} in the hands and {state.tactic_deck_size} in the tactic pile"
        )
    return problems


def _stone_problems(state: State) -> list[str]:
    """Sides within their size, completion times, owners with a provable claim."""
    problems: list[str] = []
    for number, stone in enumerate(state.stones, start=1):
        size = stone.rule.size
        for p in (0, 1):
            side = stone.sides[p]
            if len(side) > size:
                problems.append(f"stone {number}: player {p + 1} has more than {size} cards")
            if any(type(c) is Tactic and c.kind != "elite" for c in side):
                problems.append(f"stone {number}: only clan cards and elite troops lie on a side")
            done = stone.completed[p]
            if (done is None) == (len(side) == size):
                problems.append(
                    f"stone {number}: player {p + 1}'s side is "
                    f"{'complete' if len(side) == size else 'incomplete'} but its completion "
                    f"time is {done!r}"
                )
        if stone.style is not None and stone.style.kind != "style":
            problems.append(f"stone {number}: {stone.style} is not a combat style")
        first, second = stone.completed
        if first is not None and first == second:
            problems.append(
                f"stone {number}: both sides completed at ply {first}; one of them was first"
            )
        owner = stone.owner
        if owner is None:
            continue
        if len(stone.sides[owner]) != size:
            problems.append(
                f"stone {number}: player {owner + 1} holds it without a complete formation"
            )
        elif (
            len(stone.sides[1 - owner]) <= size
            and not state._verdict(stone, owner, "exact", None).holds
        ):
            # A claim proven earlier stays provable: since then the opposing side
            # of a claimed stone is frozen and only more cards became visible.
            problems.append(
                f"stone {number}: player {owner + 1}'s claim cannot be proven from this table"
            )
    return problems


def _tactic_problems(state: State) -> list[str]:
    """Tactic cards played against the table, the tactic limit and the jokers."""
    problems: list[str] = []
    played = state.tactics_played
    # every tactic card played lies on the table or the discard pile
    visible = sum(state.visible_tactics().values())
    if abs(played[0] - played[1]) > 1:
        problems.append(f"tactics played {list(played)}: one player is two ahead")
    if sum(played) != visible:
        problems.append(
            f"tactics played {list(played)} but {visible} tactic cards are on the table"
        )
    for p in (0, 1):
        elite = sum(1 for s in state.stones for c in s.sides[p] if type(c) is Tactic)
        # (the traitor takes clan cards only: every elite troop on a side is its player's)
        if played[p] < elite:
            problems.append(
                f"player {p + 1} has {elite} tactic cards on its side but played {played[p]}"
            )
        jokers = sum(s.sides[p].count(_JOKER) for s in state.stones)
        if jokers > 1:
            problems.append(f"player {p + 1} has two jokers on its side")
        if jokers and not state.jokers_played[p]:
            problems.append(f"player {p + 1} has a joker on its side but jokers_played says no")
        if state.jokers_played[p] and played[p] == 0:
            problems.append(f"player {p + 1} played a joker but no tactic card")
    # Only the banshee (always) and the strategist (when it does not move it)
    # discard a card from a side.
    taken = [c for c in state.discards if not isinstance(c, Tactic) or c.name in ELITE]
    throwers = [c for c in state.discards if c in (_BANSHEE, _STRATEGIST)]
    if len(taken) > len(throwers):
        problems.append(
            f"{' '.join(map(str, taken))} lie on the discard pile, but only the banshee and "
            "the strategist discard a card from a side"
        )
    elif _BANSHEE in state.discards and not taken:
        problems.append("the banshee has been played, but no card it discarded lies on the pile")
    jokers_seen = state.visible_tactics()[_JOKER]
    if sum(state.jokers_played) != jokers_seen:
        problems.append(
            f"{jokers_seen} jokers lie on the table but jokers_played says "
            f"{sum(state.jokers_played)} players have played one"
        )
    return problems


def _under_pile_problems(state: State) -> list[str]:
    """The recruiter's cards under the piles: at most its two, all of one player."""
    problems: list[str] = []
    piles = ((state.deck, state.deck_size), (state.tactic_deck, state.tactic_deck_size))
    for under, (pile, size), name in zip(state.under_piles, piles, _PILE_NAMES, strict=True):
        if under and not state.rules.tactics:
            problems.append("cards lie under a pile but the rules play without tactics")
        if len(under) > size:
            problems.append(f"{len(under)} cards lie under the {name} pile of {size} cards")
        for p, item in under:
            if p not in (0, 1) or not (item == name or _pile_of(item) == name):
                problems.append(f"under the {name} pile: {item!r} of player {p!r}")
        known = [c for _, c in under]
        if pile is not None and under and list(pile[len(pile) - len(under) :]) != known:
            problems.append(f"the {name} pile does not end with the cards put under it")
    returned = [p for pile in state.under_piles for p, _ in pile]
    if returned and not problems:
        # The game has one recruiter: it puts two cards back, once.
        if len(returned) > 2 or len(set(returned)) > 1:
            problems.append(
                f"{len(returned)} cards lie under the piles, put back by players "
                f"{sorted({p + 1 for p in returned})}: the one recruiter puts back two, once"
            )
        elif _RECRUITER not in state.discards or state.tactics_played[returned[0]] == 0:
            problems.append(
                f"player {returned[0] + 1} put cards under the piles but has not played "
                "the recruiter"
            )
    return problems


def _piles_ran_dry(state: State) -> bool:
    """Whether both piles may have run out at some point: every card left in
    them is one the recruiter put back (piles are never refilled otherwise)."""
    under = len(state.under_piles[0]) + len(state.under_piles[1])
    return state.deck_size + state.tactic_deck_size <= under


def _full_hand(state: State, player: int) -> int:
    """The size of ``player``'s hand at this point of the turn while the piles
    have never run out: full, one card fewer right after playing one, two more
    between the recruiter's draws and its returns."""
    full = state.rules.hand_size
    if player != state.to_move:
        return full
    if state.phase is Phase.AFTER_PLAY:
        return full - 1
    if state.phase is Phase.RECRUIT_RETURN:
        return full + 2
    return full


def _hand_problems(state: State) -> list[str]:
    """Hands hold their full size unless the piles have run out (RULINGS:
    positions): a card is drawn after every card played while a pile has one."""
    problems: list[str] = []
    dry = _piles_ran_dry(state)
    left = state.deck_size + state.tactic_deck_size
    for p in (0, 1):
        size, full = state.hand_sizes[p], _full_hand(state, p)
        if size > full:
            problems.append(f"player {p + 1} holds {size} cards: a hand holds at most {full} here")
        elif size < full and not dry:
            problems.append(
                f"player {p + 1} holds {size} cards but {left} cards are still to draw: "
                f"a hand is refilled to {state.rules.hand_size} after every card played "
                "while a pile has cards"
            )
    return problems


def _outcome_problems(state: State) -> list[str]:
    """The outcome against the stones, and a won game ended by the winner's claim."""
    problems: list[str] = []
    outcome = state.outcome
    winners = [o for o in (_outcome(state.stones, p) for p in (0, 1)) if o is not None]
    if len(winners) == 2:
        problems.append("both players hold three adjacent or five stones")
        return problems
    if winners and outcome != winners[0]:
        won = winners[0]
        problems.append(
            f"player {(won.winner or 0) + 1} has won ({won.reason}) but the game is not over"
        )
    elif winners:
        winner = winners[0].winner
        assert winner is not None
        # The winning claim ended the game at once, in the winner's own turn.
        if state.to_move != winner:
            problems.append(
                f"player {winner + 1} has won ({winners[0].reason}) by claiming in its own "
                "turn, so "
                f"player {state.to_move + 1} cannot be to move"
            )
        elif not state.claims_now():
            problems.append(
                f"player {winner + 1} has won by a claim, but no stone is claimed in the "
                f"{state.phase.value} phase"
            )
        elif state.blank_turns != -1:
            problems.append(
                f"player {winner + 1} has won by a claim this turn, so blank_turns is -1, "
                f"not {state.blank_turns}"
            )
    elif outcome is not None and outcome.reason in REFEREE_ENDS:
        pass  # a referee may end a game in play at any point
    elif outcome is not None and outcome.winner is not None:
        problems.append(f"the game is marked won by player {outcome.winner + 1}")
    blocked = outcome is not None and outcome.reason == Termination.BLOCKED
    if blocked != (state.blank_turns >= 2) and not winners:
        problems.append(
            f"blank_turns is {state.blank_turns} and the outcome {outcome}: a game ends "
            "blocked exactly after two turns in a row pass and claim nothing"
        )
    if not -1 <= state.blank_turns <= 2:
        problems.append(
            f"blank_turns is {state.blank_turns}: it counts 0, 1 or 2 turns (-1 after a claim)"
        )
    if blocked:
        if state.phase is not Phase.PLAY:
            problems.append(
                f"a blocked game ends at the end of a turn, not in its {state.phase.value} phase"
            )
        for p in (0, 1):
            # Nothing changed since either blank turn: both players passed then.
            if state.can_play_card(p):
                problems.append(f"the game is blocked, but player {p + 1} can lay a clan card")
            claims = _claimable(state, p)
            if claims:
                problems.append(
                    f"the game is blocked, but player {p + 1} can prove a claim at stone "
                    f"{claims[0]} (a turn with a pass claims what it can)"
                )
    return problems


def _claimable(state: State, player: int) -> list[int]:
    """The stones ``player`` could prove a claim to now."""
    return [
        number
        for number, stone in enumerate(state.stones, start=1)
        if stone.owner is None
        and stone.complete(player)
        and state._verdict(stone, player, "exact", None).holds
    ]


def _phase_problems(state: State) -> list[str]:
    """Where the turn stands: what its phase says has happened this turn."""
    problems: list[str] = []
    mover, other = state.to_move, 1 - state.to_move
    phase = state.phase
    claimed_now = state.blank_turns == -1
    if claimed_now and not state.stones_of(mover):
        problems.append(
            f"blank_turns -1 says player {mover + 1} has claimed a stone this turn, "
            "but it holds none"
        )
    if claimed_now and phase is Phase.PLAY and not state.claims_now():
        problems.append(
            "blank_turns -1 says a stone was claimed this turn, but the turn has not "
            "reached its claims (stones are claimed after playing)"
        )
    recruiting = phase in (Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT)
    if recruiting and (not state.discards or state.discards[-1] != _RECRUITER):
        problems.append(
            f"the {phase.value} phase comes right after the recruiter, but it is not the "
            "last card discarded"
        )
    if phase is Phase.RECRUIT_RETURN:
        if any(state.under_piles):
            problems.append(
                "the recruiter has not put its cards back yet, but cards lie under the piles"
            )
        if state.hand_sizes[mover] == 0:
            problems.append("the recruiter's hand is empty: it has nothing to put back")
    if phase is Phase.AFTER_RECRUIT and state.hand_sizes[mover] > 0:
        back = sum(1 for pile in state.under_piles for p, _ in pile if p == mover)
        if back < 2:
            problems.append(
                f"player {mover + 1} has cards left after the recruiter, so it put two cards "
                f"under the piles, but {back} lie there"
            )
    if phase is Phase.AFTER_PASS and state.can_play_card(mover):
        problems.append(
            f"player {mover + 1} has passed this turn, but it can lay a clan card "
            "(a player passes only when it cannot)"
        )
    if phase is Phase.AFTER_PASS and state.rules.early_bird:
        claims = _claimable(state, mover)
        if claims:
            problems.append(
                f"player {mover + 1} has passed this turn with Der frühe Vogel, but it can "
                f"still prove a claim at stone {claims[0]} (claims come before the pass)"
            )
    if state.blank_turns >= 1 and state.outcome is None:
        # The other player's last turn was a pass that claimed nothing.
        unchanged = phase in (Phase.PLAY, Phase.AFTER_PASS)
        if unchanged and state.can_play_card(other):
            problems.append(
                f"blank_turns {state.blank_turns} says player {other + 1} passed last turn, "
                "but it can lay a clan card"
            )
        elif not unchanged and not _may_have_passed(state, other)[0]:
            problems.append(
                f"blank_turns {state.blank_turns} says player {other + 1} passed last turn, "
                f"but {_may_have_passed(state, other)[1]}"
            )
        if unchanged:
            claims = _claimable(state, other)
            if claims:
                problems.append(
                    f"blank_turns {state.blank_turns} says player {other + 1} passed last turn "
                    f"and claimed nothing, but it can prove a claim at stone {claims[0]} "
                    "(a turn with a pass claims what it can)"
                )
    return problems


def _may_have_passed(state: State, player: int) -> tuple[bool, str]:
    """Whether ``player`` may have passed at some earlier turn, and if not, why.

    A player passes only when it cannot lay a clan card: its hand holds none,
    or every stone is claimed or full on its side. Without tactic cards both
    last: a claim is for good, cards never leave a side, and a hand that ran
    out of cards is never refilled; so a player who can lay a card now never
    passed. With them, ruses and Mud Fight may since have made room, and a
    hand may have held only tactic cards (or nothing once the piles ran out).
    """
    if not state.rules.tactics:
        if state.can_play_card(player):
            return False, (
                f"player {player + 1} never passed: it can lay a clan card now, and without "
                "tactic cards a player who once could not never can again"
            )
        return True, ""
    # Every open stone was claimed or full on its side when it passed; since
    # then a ruse took at most one card off a side and Mud Fight made one side bigger.
    gaps = sum(
        stone.rule.size - len(stone.sides[player]) for stone in state.stones if stone.owner is None
    )
    ruses = sum(1 for c in state.discards if c in _MOVERS)
    mud = any(s.owner is None and s.style == _MUD for s in state.stones)
    if gaps <= ruses + mud:
        return True, ""
    if _piles_ran_dry(state):
        return True, ""
    # Or its full hand held only tactic cards, each of them since played, still
    # held or put back by the recruiter.
    reach = (
        state.tactics_in_hand(player)
        + state.tactics_played[player]
        + 2 * (_RECRUITER in state.discards)
    )
    if reach >= state.rules.hand_size:
        return True, ""
    return False, (
        f"player {player + 1} never passed: its side has room for {gaps} cards, more than "
        f"the ruses played could have made, and it never held {state.rules.hand_size} "
        "tactic cards at once"
    )


def _turn_problems(state: State) -> list[str]:
    """The cards each player has played against alternating turns and the
    passes the rules allow (RULINGS: positions)."""
    problems: list[str] = []
    mover, other = state.to_move, 1 - state.to_move
    played = state.tactics_played
    # Every play puts one card from a hand on a side, on a stone (a combat
    # style) or on the discard pile (a ruse); a ruse moves or discards a card
    # of a side. So the plays are the cards on the table and discarded.
    plays = sum(len(side) for s in state.stones for side in s.sides)
    plays += sum(1 for s in state.stones if s.style is not None) + len(state.discards)
    clan_plays = plays - played[0] - played[1]
    traitor = int(_TRAITOR in state.discards)
    own = [
        max(0, sum(1 for s in state.stones for c in s.sides[p] if type(c) is Card) - traitor)
        for p in (0, 1)
    ]
    # The mover's plays lie between these (the rest are the other player's).
    low = played[mover] + own[mover]
    high = played[mover] + clan_plays - own[other]
    starting = state.phase is Phase.PLAY
    if state.phase in _PLAYED and high == 0:
        problems.append(
            f"the {state.phase.value} phase says player {mover + 1} has played a card this "
            "turn, but none of its cards is on the table"
        )
    if state.phase in (Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT) and played[mover] == 0:
        problems.append(f"player {mover + 1} has played the recruiter but no tactic card")
    problem = _alternation(state, plays, low, high, starting, "played")
    if problem is not None:
        problems.append(problem)
    # After the piles ran out no card is drawn, so the cards missing from each
    # hand are plays since then, and those alternate too (the two hands were
    # full then); the recruiter, putting cards back, breaks this count.
    recruited = _RECRUITER in state.discards
    if _piles_ran_dry(state) and not recruited and not problems:
        missing = [state.rules.hand_size - state.hand_sizes[p] for p in (0, 1)]
        problem = _alternation(
            state,
            missing[0] + missing[1],
            missing[mover],
            missing[mover],
            starting,
            "played since the piles ran out",
        )
        if problem is not None:
            problems.append(problem)
    return problems


def _alternation(
    state: State, total: int, low: int, high: int, starting: bool, what: str
) -> str | None:
    """Whether ``total`` plays, of which the mover made ``low`` to ``high``,
    fit alternating turns (either player may have started) with the passes
    the players may have made; the problem if they do not."""
    mover, other = state.to_move, 1 - state.to_move
    can_pass = {p: _may_have_passed(state, p) for p in (0, 1)}
    # turns taken = plays + passes; with the mover's turn under way counted,
    # the mover has taken as many turns as the other player, or one more.
    lead = int(starting)
    fits: bool
    if can_pass[0][0] and can_pass[1][0]:
        fits = True
    elif can_pass[other][0]:
        fits = 2 * high + lead - total >= 0
    elif can_pass[mover][0]:
        fits = 2 * low + lead - total <= 1
    else:
        need = -((lead - total) // 2)  # the fewest mover plays with 2x + lead - total >= 0
        fits = low <= need <= high
    if fits:
        return None
    mine = f"{low}" if low == high else f"{low} to {high}"
    theirs = f"{total - high}" if low == high else f"{total - high} to {total - low}"
    why = "; ".join(text for p, (ok, text) in sorted(can_pass.items()) if not ok)
    return (
        f"turns alternate, but player {mover + 1} (to move) has {what} {mine} cards and "
        f"player {other + 1} {theirs}; {why}"
    )


_PILE_NAMES = ("clan", "tactic")
#: Card kinds in a fixed order (clan cards, then tactic names): the order in
#: which listed moves name two cards whose order carries no information.
_KINDS: tuple[AnyCard, ...] = (*CLAN_CARDS.cards, *(Tactic(n) for n in TACTIC_NAMES))
_KIND_RANK: dict[object, int] = {card: i for i, card in enumerate(_KINDS)}


def _pile_of(card: object) -> str | None:
    return "clan" if type(card) is Card else "tactic" if type(card) is Tactic else None


def new_game(
    *,
    seed: int | None = None,
    deck: Iterable[Card] | None = None,
    tactic_deck: Iterable[Tactic] | None = None,
    first: int = 0,
    rules: Rules | None = None,
) -> State:
    """Set up a game from a seed (shuffled piles) or explicit pile orders.

    The deal: player 0 takes the first 6 clan cards (7 with tactics), player 1
    the next ones, and the rest is the draw pile, top first. ``first`` is the
    player who moves first.

    >>> game = new_game(deck=CLAN_CARDS.cards)
    >>> [str(c) for c in game.hands[0]], str(game.deck[0])
    (['R1', 'R2', 'R3', 'R4', 'R5', 'R6'], 'O4')
    """
    rules = _check_setup(first, rules)
    if seed is not None and (type(seed) is not int):
        raise InvalidDealError("field_type", f"seed must be an int or None, not {seed!r}")
    if seed is not None and (deck is not None or tactic_deck is not None):
        raise ValueError("give a seed or the piles, not both")
    rng = random.Random(seed)
    if deck is None:
        order = list(CLAN_CARDS.cards)
        rng.shuffle(order)
    else:
        order = _listed(deck, "deck")
        check_deck(order)
    tactics: list[Tactic] = []
    if rules.tactics:
        if tactic_deck is None:
            tactics = list(TACTIC_CARDS)
            rng.shuffle(tactics)
        else:
            tactics = _listed(tactic_deck, "tactic_deck")
            if any(type(t) is not Tactic for t in tactics) or sorted(tactics) != sorted(
                TACTIC_CARDS
            ):
                raise ValueError(
                    "the tactic pile must hold the 10 tactic cards: joker twice and one each of "
                    "the others"
                )
    elif tactic_deck is not None and _listed(tactic_deck, "tactic_deck"):
        raise ValueError("a tactic pile is given but the rules play without tactics")
    return State._dealt(rules, order, tactics, to_move=first)


def public_game(*, first: int = 0, rules: Rules | None = None) -> State:
    """The start of a game whose deal is unknown (for public records).

    Both hands and the piles are hidden; only their sizes are known.

    >>> start = public_game()
    >>> start.hands, start.hand_sizes, start.deck_size
    ((None, None), (6, 6), 42)
    """
    rules = _check_setup(first, rules)
    tactics = len(TACTIC_CARDS) if rules.tactics else 0
    return State._hidden_deal(rules, len(CLAN_CARDS.cards), tactics, to_move=first)


def _listed(items: Iterable[_T], name: str) -> list[_T]:
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ValueError(f"{name} must be a sequence of cards, not {items!r}")
    return list(items)


def _check_setup(first: object, rules: object) -> Rules:
    """The keywords every set-up takes, refused at once when they are wrong."""
    if type(first) is not int or first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, not {first!r}")
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a schotten_totten.Rules, not {rules!r}")
    return rules


def check_deck(order: Sequence[Card]) -> None:
    """Raise ``ValueError`` unless ``order`` holds each of the 54 clan cards once."""
    unknown = [c for c in order if type(c) is not Card or type(c.value) is not int]
    unknown += [c for c in order if c not in _CLAN_SET]
    if unknown:
        raise ValueError(f"the deck holds cards that are not clan cards: {unknown[0]}")
    if len(order) != len(CLAN_CARDS.cards) or len(set(order)) != len(order):
        missing = sorted(_CLAN_SET - set(order))
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
    variants = [
        name
        for flag, name in ((state.rules.tactics, "tactics"), (state.rules.early_bird, "early bird"))
        if flag
    ]
    title = f"Schotten Totten ({', '.join([state.rules.edition, *variants])})"
    outcome = state.outcome
    if outcome is not None and outcome.winner is not None:
        status = f"game over: player {outcome.winner + 1} wins ({outcome.reason})"
    elif outcome is not None:
        status = f"game over: no winner ({outcome.reason})"
    else:
        status = f"player {state.to_move + 1} to move ({state.phase.value})"
    lines = [f"{title} - ply {state.ply}, {status}", f"{'':>9}{'player 1':<24}stone  player 2"]
    for number, stone in enumerate(state.stones, start=1):
        left = " ".join(map(str, stone.sides[0]))
        right = " ".join(map(str, stone.sides[1]))
        mark = {None: f"  {number}  ", 0: f"<[{number}] ", 1: f" [{number}]>"}[stone.owner]
        style = f"  ({stone.style})" if stone.style is not None else ""
        lines.append(f"{'':>9}{left:<24}{mark:<7}{right:<24}{style}".rstrip())
    for player in (0, 1):
        hand = state.hands[player]
        shown = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        extra = f", tactics played {state.tactics_played[player]}" if state.rules.tactics else ""
        lines.append(f"player {player + 1} hand ({state.hand_sizes[player]}): {shown}{extra}")
    piles = f"deck: {state.deck_size} cards"
    if state.rules.tactics:
        piles += f", tactic pile: {state.tactic_deck_size} cards"
    lines.append(piles)
    if state.discards:
        lines.append("discards: " + " ".join(map(str, state.discards)))
    return "\n".join(lines)
