"""The Schotten Totten 2 position: an immutable state that plays moves.

>>> game = new_game(seed=1)
>>> game.to_move == game.attacker, len(game.hands[0]), game.deck_size, game.oil
(True, 6, 48, 3)
>>> after = game.play(game.legal_moves()[-1])
>>> after.phase, game.phase
(<Phase.AFTER_PLAY: 'after_play'>, <Phase.OPENING: 'opening'>)
>>> after.play("done")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'done': after playing a card you must draw while a pile has cards
>>> after.play("oil 1")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'oil 1': only the defender throws oil
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeVar, assert_never, cast

from referee.cards import Card
from referee.errors import ClaimRefusedError, InvalidDealError
from referee.game import (
    NO_HISTORY,
    REFEREE_ENDS,
    History,
    Outcome,
    Termination,
    check_player,
)
from referee.line import (
    LegacyLineState,
    check_viewer,
    copier,
    illegal,
    place_at,
    remember,
    replaced,
)
from referee.line.claims import (
    NO_POOL,
    PlainBest,
    Sight,
    card_bits,
    describe_refusal,
    mask_of,
    verdict_at,
)
from referee.prover import ClaimVerdict, Engine, Piece, Pool
from referee.schotten_totten_2.moves import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Oil,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    Treason,
    parse_move,
)
from referee.schotten_totten_2.wall import (
    GATE,
    SIEGE_CARDS,
    TACTIC_CARDS,
    TILES,
    WALL,
    AnyCard,
    TacticCard,
    Tile,
)

if TYPE_CHECKING:
    pass

__all__ = [
    "HAND_SIZE",
    "OIL_CAULDRONS",
    "TACTICS_HAND_SIZE",
    "Phase",
    "Reason",
    "Rules",
    "State",
    "as_seen_in_a_view",
    "new_game",
    "public_game",
    "render",
]

_T = TypeVar("_T")
_M = TypeVar("_M", bound=Move)

#: Cards in hand in the base game.
HAND_SIZE = 6
#: Cards in hand with the tactics variant.
TACTICS_HAND_SIZE = 7
#: Oil cauldrons the defender starts with.
OIL_CAULDRONS = 3
#: Damaged tiles that win the game for the attacker.
_DAMAGED_TO_WIN = 4

_SIEGE_SET = frozenset(SIEGE_CARDS.cards)
_PAIRS = {card: SIEGE_CARDS.as_pair(card) for card in SIEGE_CARDS.cards}
_COLOURS = len(SIEGE_CARDS.colours)
_EMPTY_TILES = tuple(Tile(n) for n in range(1, TILES + 1))
#: Cards per side of an exchange.
_EXCHANGED = 3


class _CardCount(Counter[AnyCard]):
    """A count of cards that cannot be changed (shared by every game).

    In-place arithmetic gives a new, ordinary ``Counter``, so the usual
    ``left = rules.all_cards; left -= seen`` works and leaves this one intact;
    every other change raises ``TypeError``.
    """

    def __init__(self, cards: Iterable[AnyCard] = ()) -> None:
        dict.__init__(self, Counter(cards))

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the cards of the game are fixed: copy them with Counter(...) first")

    __setitem__ = __delitem__ = _refuse
    update = subtract = clear = pop = popitem = setdefault = _refuse

    def __isub__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) - other
        return result

    def __iadd__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) + other
        return result

    def __iand__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) & other
        return result

    def __ior__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) | other
        return result

    def __reduce__(self) -> Any:
        return (type(self), (list(self.elements()),))


_ALL_SIEGE: Counter[AnyCard] = _CardCount(SIEGE_CARDS.cards)
_ALL_TACTICS: Counter[AnyCard] = _CardCount([*SIEGE_CARDS.cards, *TACTIC_CARDS])
_TACTIC_COUNT: Counter[AnyCard] = _CardCount(TACTIC_CARDS)


class Reason(StrEnum):
    """The stable reason codes of refused Schotten Totten 2 moves."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NO_SUCH_TILE = "no_such_tile"
    UNKNOWN_CARD = "unknown_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_ALREADY_PLAYED = "card_already_played"
    WRONG_ROLE = "wrong_role"
    OPENING_TOO_LATE = "opening_too_late"
    SECOND_OIL = "second_oil"
    SECOND_RETREAT = "second_retreat"
    NO_OIL_LEFT = "no_oil_left"
    NOTHING_TO_OIL = "nothing_to_oil"
    NOTHING_TO_RETREAT = "nothing_to_retreat"
    ALREADY_PLAYED = "already_played"
    SIDE_FULL = "side_full"
    FORMATION_INCOMPLETE = "formation_incomplete"
    CLAIM_NOT_PROVEN = "claim_not_proven"
    PASS_NOT_ALLOWED = "pass_not_allowed"
    MUST_PLAY_FIRST = "must_play_first"
    MUST_DRAW = "must_draw"
    NOTHING_TO_DRAW = "nothing_to_draw"
    PILE_EMPTY = "pile_empty"
    PASS_DRAWS_NOTHING = "pass_draws_nothing"
    TACTICS_NOT_IN_PLAY = "tactics_not_in_play"
    TACTIC_LIMIT = "tactic_limit"
    NOT_A_TROOP = "not_a_troop"
    NOT_A_SIEGE_CARD = "not_a_siege_card"
    CARD_NOT_THERE = "card_not_there"
    SAME_TILE = "same_tile"
    NOT_DISCARDED = "not_discarded"
    TOO_FEW_DISCARDS = "too_few_discards"
    NOTHING_TO_EXPLODE = "nothing_to_explode"
    SHUFFLE_PENDING = "shuffle_pending"
    NO_SHUFFLE_PENDING = "no_shuffle_pending"
    BAD_SHUFFLE = "bad_shuffle"
    SHUFFLE_UNRECORDED = "shuffle_unrecorded"
    EXCHANGE_PENDING = "exchange_pending"
    OFFER_HIDDEN = "offer_hidden"
    NO_EXCHANGE_PENDING = "no_exchange_pending"
    TOO_FEW_CARDS = "too_few_cards"


class Phase(Enum):
    """Where the player to move is within its turn."""

    #: Start of the turn: the opening action (retreat or oil) may come first.
    OPENING = "opening"
    #: The opening action was taken: play a card (or pass when none can be played).
    PLAY = "play"
    #: A card was played: the attacker may declare control, then draw.
    AFTER_PLAY = "after_play"
    #: The player passed: the attacker may declare control, then the turn ends.
    AFTER_PASS = "after_pass"
    #: A support card was played: the next ply says where its two cards went.
    SHUFFLE = "shuffle"
    #: An exchange was offered: the opponent (``to_move``) chooses its 3 cards.
    EXCHANGE = "exchange"


# The phases as module names: the hot paths test them at every ply.
_OPENING = Phase.OPENING
_PLAY = Phase.PLAY
_AFTER_PLAY = Phase.AFTER_PLAY
_AFTER_PASS = Phase.AFTER_PASS
_SHUFFLE = Phase.SHUFFLE
_EXCHANGE = Phase.EXCHANGE


@dataclass(frozen=True, slots=True)
class Rules:
    """Which Schotten Totten 2 is played: the base game or the tactics variant."""

    tactics: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.tactics, bool):
            raise ValueError(f"tactics must be True or False, not {self.tactics!r}")

    @property
    def hand_size(self) -> int:
        """Cards in a full hand (6, or 7 with tactics)."""
        return TACTICS_HAND_SIZE if self.tactics else HAND_SIZE

    @property
    def all_cards(self) -> Counter[AnyCard]:
        """Every card in the game, counted (the two jokers count twice).

        The count is fixed: in-place arithmetic gives a new ``Counter``.

        >>> Rules(tactics=True).all_cards[TacticCard.JOKER], sum(Rules().all_cards.values())
        (2, 60)
        >>> left = Rules().all_cards
        >>> left -= Counter([Card("R", 7)])
        >>> left[Card("R", 7)], Rules().all_cards[Card("R", 7)]
        (0, 1)
        """
        return _ALL_TACTICS if self.tactics else _ALL_SIEGE


def as_seen_in_a_view(move: Move) -> Move:
    """``move`` as a view's history shows it: where the support's cards went into
    the deck is seen by nobody, so a shuffle is written without its places."""
    if type(move) is Shuffle and move.positions is not None:
        return Shuffle()
    return move


@dataclass(frozen=True, slots=True)
class State(LegacyLineState[Move]):
    """A Schotten Totten 2 position. Immutable: :meth:`play` returns a new state.

    ``attacker`` is the attacking player's index (the other one defends).
    ``hands[p]`` is ``None`` when that hand is hidden (a player's view, or a
    replay of a public record); ``hand_sizes`` always holds the counts.
    ``deck`` (top card first) and ``tactic_deck`` are ``None`` when their order
    is unknown. ``discards`` is the face-up discard pile, oldest first;
    ``actions[p]`` the action cards ``p`` has played (they stay on its side).
    ``exhausted`` records that the last siege card has been drawn, and
    ``final_turn`` that the attacker's turn under way is its last.
    ``hand_tactics[p]`` counts the tactic cards in ``p``'s hand: hands are
    dealt siege cards only and every tactic draw is a visible move, so the
    count is known even when the hand is hidden (derived when not given).
    ``exchange`` holds the 3 cards offered by an exchange whose answer is
    pending; ``late_control`` is true right after the attacker's draw, when
    it may still declare control before the defender's first move.

    A state built from outside is checked like python-chess's ``status()``:
    every problem is reported at once in one ``ValueError``.

    >>> State()
    Traceback (most recent call last):
    ...
    ValueError: impossible Schotten Totten 2 position: the siege cards do not add up: 60 in the game, 0 on the table or discarded, 0 in the hands and 0 in the deck
    """

    rules: Rules = field(default_factory=Rules)
    attacker: int = 0
    tiles: tuple[Tile, ...] = _EMPTY_TILES
    hands: tuple[tuple[AnyCard, ...] | None, tuple[AnyCard, ...] | None] = ((), ())
    hand_sizes: tuple[int, int] = (0, 0)
    deck: tuple[Card, ...] | None = ()
    deck_size: int = 0
    tactic_deck: tuple[TacticCard, ...] | None = ()
    tactic_deck_size: int = 0
    discards: tuple[AnyCard, ...] = ()
    actions: tuple[tuple[TacticCard, ...], tuple[TacticCard, ...]] = ((), ())
    tactics_played: tuple[int, int] = (0, 0)
    oil: int = OIL_CAULDRONS
    to_move: int = 0
    phase: Phase = Phase.OPENING
    ply: int = 0
    exhausted: bool = False
    final_turn: bool = False
    support: tuple[Card, Card] | None = None
    outcome: Outcome | None = None
    hand_tactics: tuple[int, int] | None = None
    exchange: tuple[AnyCard, AnyCard, AnyCard] | None = None
    late_control: bool = False
    #: The moves played since the start (see :attr:`history`); never part of equality.
    past: History[Move] = field(default=NO_HISTORY, compare=False, repr=False)
    #: The deal's chance: where a support's two cards land in a known deck
    #: (see :meth:`chance_outcomes`); hidden in a view (0 there).
    chance_seed: int = 0
    #: A public record's say on the failed siege: the ply after which the record
    #: ends with that result (see :func:`public_game`). Without the hands, a
    #: pass may or may not leave both players unable to play; a record that
    #: stops right there with a failed siege shows it did. Never part of equality.
    siege_failed_at: int | None = field(default=None, compare=False, repr=False)

    # The game's parts of the shared scaffolding (plain class attributes, not fields).
    _NAME = "Schotten Totten 2"
    _MOVE_TYPES = frozenset(
        (
            PlayCard,
            Retreat,
            Oil,
            Control,
            Pass,
            Draw,
            EndTurn,
            Redeploy,
            Recruitment,
            Desertion,
            Treason,
            Explosion,
            Support,
            Shuffle,
            Exchange,
            ExchangeReply,
        )
    )
    _GAME_OVER = Reason.GAME_OVER
    _NOT_YOUR_TURN = Reason.NOT_YOUR_TURN
    _as_seen = staticmethod(as_seen_in_a_view)
    _parse = staticmethod(parse_move)

    def __post_init__(self) -> None:
        # One rule, one place: what cannot exist at all is refused here, through
        # the checks of status(); what no legal game reaches is status()'s to say.
        problems = _field_problems(self)
        if not problems:
            _derive(self)
            problems = _problems(self, reachable=False)
        if problems:
            raise ValueError("impossible Schotten Totten 2 position: " + "; ".join(problems))

    def status(self) -> tuple[str, ...]:
        """Every reason this position could not arise from a deal by legal play
        (empty when it can), like python-chess's ``Board.status()``.

        Besides what the constructor refuses (cards in two places, counts that
        do not add up, a side over its size ...), it checks the position against
        a game's history: hands full while a pile has cards, the cards each
        player has played against alternating turns and the passes the rules
        allow, the pending support or exchange against the card that started
        it, the outcome against the table, the oil thrown and the damage done
        against the discard pile. Loading a position refuses it when this is
        not empty.

        >>> new_game(seed=1).status()
        ()
        >>> from dataclasses import replace
        >>> replace(new_game(seed=1), hands=(None, None), hand_sizes=(3, 6), deck=None,
        ...         deck_size=51).status()[0]
        'player 1 holds 3 cards but the piles still hold 51: a hand is refilled to 6 after every card played while a pile has cards'
        """
        problems = _field_problems(self)
        return tuple(problems or _problems(self, reachable=True))

    # --- reading the position -------------------------------------------------

    @property
    def defender(self) -> int:
        """The defending player's index."""
        return 1 - self.attacker

    def tile(self, number: int) -> Tile:
        """The tile numbered ``number`` (1-7)."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= TILES:
            raise ValueError(f"no tile {number}: tiles are numbered 1-{TILES}")
        return self.tiles[number - 1]

    def damaged_tiles(self) -> list[int]:
        """The numbers of the tiles showing their damaged side."""
        return [t.number for t in self.tiles if t.damaged]

    def intact_tiles(self) -> int:
        """How many tiles are still intact."""
        return sum(not t.damaged for t in self.tiles)

    def tactics_in_hand(self, player: int) -> int:
        """How many tactic cards ``player``'s hand holds (known even if hidden)."""
        counts = self.hand_tactics
        assert counts is not None  # set by __post_init__
        return counts[player]

    def visible_cards(self) -> Counter[AnyCard]:
        """Every card both players see: on the tiles, discarded, played actions."""
        seen: Counter[AnyCard] = Counter(self.discards)
        for tile in self.tiles:
            seen.update(tile.sides[0])
            seen.update(tile.sides[1])
        seen.update(self.actions[0])
        seen.update(self.actions[1])
        return seen

    def unseen_siege_cards(self) -> list[Card]:
        """Siege cards neither on a tile nor discarded (the prover's pool), in card order."""
        seen = self.visible_cards()
        return [card for card in SIEGE_CARDS.cards if card not in seen]

    def view(self, player: int | None) -> State:
        """What ``player`` can see: the opponent's hand and the piles' order hidden.

        While an exchange waits for its answer, the answering player does not see
        the 3 cards offered: both players choose their cards without seeing the
        other's (``exchange`` is ``None`` in that view, its ``history`` ends
        before the offer, and the answer is played on the full state). ``None``
        is a spectator's view: both hands hidden.

        >>> new_game(seed=1).view(None).hands
        (None, None)
        """
        check_viewer(player)
        past = self.past
        if self._offer_hidden_from(player) and type(past[1]) is Exchange and past[0] is not None:
            # Nor does its history show the offer: it ends before it (the
            # phase says an offer waits), as a determinization samples it.
            past = past[0]
        return self._viewed(player, past)

    def _offer_hidden_from(self, player: int | None) -> bool:
        """Whether an exchange offer waits that ``player`` may not see (the
        answering player's, a spectator's)."""
        return self.phase is Phase.EXCHANGE and player in (self.to_move, None)

    def _view_changes(self, player: int | None) -> dict[str, Any]:
        """The offer hidden from whoever may not see it; the deal's chance from all."""
        hidden_offer = self._offer_hidden_from(player)
        return {"exchange": None if hidden_offer else self.exchange, "chance_seed": 0}

    def _render(self) -> str:
        return render(self)

    def claim_verdict(
        self, number: int, *, player: int | None = None, engine: Engine = "exact"
    ) -> ClaimVerdict:
        """The prover's verdict on the attacker declaring control of tile ``number``.

        ``player``, when given, must be the attacker (only it declares control).
        Raises ``ValueError`` if the attacker's formation there is not complete.
        """
        if player is not None and check_player(player, 2) != self.attacker:
            raise ValueError(
                f"only the attacker (player {self.attacker + 1}) declares control, "
                f"not player {player + 1}"
            )
        return self._verdict(self.tile(number), engine, None)

    # --- moves ------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move in the game's notation (see :mod:`referee.schotten_totten_2.moves`)."""
        return parse_move(text)

    def is_chance_node(self) -> bool:
        """Whether the next ply is chance: where support's two cards land.

        >>> new_game(seed=1).is_chance_node()
        False
        """
        return self.phase is Phase.SHUFFLE and self.outcome is None

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """The outcomes of a chance ply with their probabilities (OpenSpiel's
        convention): every ``shuffle N,M`` of support's two cards, uniform, on a
        known deck; the bare ``shuffle`` (certain) when the deck order is
        unknown; empty when the next ply is a player's decision.

        >>> new_game(seed=1).chance_outcomes()
        []
        """
        if not self.is_chance_node():
            return []
        if self.deck is None:
            return [(Shuffle(), 1.0)]
        shuffles = _shuffles(self.deck_size + 2)
        chance = 1.0 / len(shuffles)
        return [(move, chance) for move in shuffles]

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move for the player to move, as a new list
        (:meth:`legal_moves` is the lazy view of it).

        With a hidden hand, moves of every card that hand could hold are listed;
        exchanges are listed only when both hands are known.

        Only the decisions of the player to move are listed: a ``control N``
        written right after the attacker's draw (``late_control``) is accepted
        by :meth:`play` so that records in that order replay, but it is not
        listed, since the same control proves the same before the draw.
        Where support's two cards land is chance, not a choice: after a
        support exactly one move is listed, the ``shuffle N,M`` dealt by
        :attr:`chance_seed` on a known deck (the bare ``shuffle`` when the
        deck order is unknown); :meth:`play` still accepts any ``shuffle N,M``
        a record names (the record is the deal), and :meth:`chance_outcomes`
        lists every place with its probability.
        """
        if self.outcome is not None:
            return []
        player, phase = self.to_move, self.phase
        if phase is _SHUFFLE:
            # Chance, not a choice: the one dealt outcome (see chance_outcomes).
            if self.deck is None:
                return [Shuffle()]
            return [_dealt_shuffle(self.chance_seed, self.ply, self.deck_size + 2)]
        if phase is _EXCHANGE:
            return self._exchange_replies()
        moves: list[Move] = []
        if player == self.attacker:
            moves.extend(self._provable_controls())
        if phase is _OPENING or phase is _PLAY:
            if phase is _OPENING:
                moves.extend(self._openings())
            plays = self._plays()
            if moves:
                moves.extend(plays)
            else:
                moves = plays  # a new list: nobody else holds it
            # a known hand with a play never passes (see _may_pass)
            if not (plays and self.hands[player] is not None) and self._may_pass(plays):
                moves.append(_PASS)
            return moves
        if phase is _AFTER_PLAY:
            if self.deck_size > 0:
                moves.append(_DRAW)
            if self.rules.tactics and self.tactic_deck_size > 0:
                moves.append(_DRAW_TACTIC)
        if not moves or not isinstance(moves[-1], Draw):
            moves.append(_END_TURN)
        return moves

    def _play_untracked(self, move: Move | str, player: int | None = None) -> State:
        """:meth:`play` without extending :attr:`history`, for validation, which
        replays whole corpora and never reads it (the state's history is stale)."""
        move = checked = self._checked(move, player)
        # The common cases first, for playouts and replays: a siege card played
        # from a known hand to an open side, a draw from a known siege deck.
        if type(checked) is PlayCard:
            fast = _fast_card(self, checked)
            if fast is not None:
                return fast
        elif type(checked) is Draw:
            fast = _fast_draw(self, checked)
            if fast is not None:
                return fast
        if self.phase is Phase.SHUFFLE and not isinstance(move, Shuffle):
            raise illegal(
                move,
                Reason.SHUFFLE_PENDING,
                "record where the support cards went first ('shuffle N,M')",
            )
        if self.phase is Phase.EXCHANGE and not isinstance(move, ExchangeReply):
            raise illegal(
                move,
                Reason.EXCHANGE_PENDING,
                "an exchange waits for your answer: choose your 3 cards ('give R1,R2,R3')",
            )
        state = self
        if self.late_control and not isinstance(move, Control):
            # The defender's first move closes the attacker's turn for good.
            state = _evolve(self, late_control=False)
        # Every move type has its case: one left out fails ``mypy --strict``.
        match checked:
            case PlayCard():
                return state._play_card(checked)
            case Draw():
                return state._draw(checked)
            case EndTurn():
                return state._end_turn(checked)
            case Control():
                return state._control(checked)
            case Retreat():
                return state._retreat(checked)
            case Oil():
                return state._oil(checked)
            case Pass():
                return state._pass(checked)
            case Redeploy():
                return state._redeploy(checked)
            case Recruitment():
                return state._recruitment(checked)
            case Desertion():
                return state._desertion(checked)
            case Treason():
                return state._treason(checked)
            case Explosion():
                return state._explosion(checked)
            case Support():
                return state._support(checked)
            case Shuffle():
                return state._shuffle(checked)
            case Exchange():
                return state._exchange(checked)
            case ExchangeReply():
                return state._exchange_reply(checked)
            case _:
                assert_never(checked)

    # --- opening actions ----------------------------------------------------------

    def _retreat(self, move: Retreat) -> State:
        if self.to_move != self.attacker:
            raise illegal(move, Reason.WRONG_ROLE, "only the attacker retreats")
        self._check_opening(move, Reason.SECOND_RETREAT, "you have already retreated this turn")
        tiles = list(self.tiles)
        discarded: list[AnyCard] = []
        for number in move.tiles:
            tile = self._tile_for(move, number)
            if not tile.sides[self.attacker]:
                raise illegal(
                    move, Reason.NOTHING_TO_RETREAT, f"you have no cards at tile {number}"
                )
            discarded.extend(tile.sides[self.attacker])
            tiles[number - 1] = tile.with_side(self.attacker, (), self.ply)
        return _evolve(
            self,
            tiles=tuple(tiles),
            discards=(*self.discards, *discarded),
            phase=Phase.PLAY,
            ply=self.ply + 1,
        )

    def _oil(self, move: Oil) -> State:
        if self.to_move != self.defender:
            raise illegal(move, Reason.WRONG_ROLE, "only the defender throws oil")
        self._check_opening(move, Reason.SECOND_OIL, "only one oil cauldron per turn")
        if self.oil == 0:
            raise illegal(move, Reason.NO_OIL_LEFT, "all 3 oil cauldrons have been thrown")
        tile = self._tile_for(move, move.tile)
        side = tile.sides[self.attacker]
        if not side:
            raise illegal(
                move, Reason.NOTHING_TO_OIL, f"the attacker has no cards at tile {move.tile}"
            )
        tiles = replaced(
            self.tiles, move.tile - 1, tile.with_side(self.attacker, side[1:], self.ply)
        )
        return _evolve(
            self,
            tiles=tiles,
            discards=(*self.discards, side[0]),
            oil=self.oil - 1,
            phase=Phase.PLAY,
            ply=self.ply + 1,
        )

    def _check_opening(self, move: Move, again: str, why: str) -> None:
        if self.phase is Phase.PLAY:
            raise illegal(move, again, why)
        if self.phase is not Phase.OPENING:
            raise illegal(
                move, Reason.OPENING_TOO_LATE, "the opening action comes before playing a card"
            )

    # --- playing a card -------------------------------------------------------------

    def _play_card(self, move: PlayCard) -> State:
        player, card = self.to_move, move.card
        self._check_can_play(move)
        tile = self._tile_for(move, move.tile)
        if isinstance(card, TacticCard):
            self._check_tactic(move, card)
            if not card.is_elite:
                raise illegal(
                    move,
                    Reason.NOT_A_TROOP,
                    f"{card} is an action card, not a troop: play it with its own move",
                )
        elif card not in _SIEGE_SET:
            raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a Schotten Totten 2 card")
        hand = self._hand_without(move, player, [card])
        if not tile.room(player):
            raise illegal(
                move,
                Reason.SIDE_FULL,
                f"your side of tile {move.tile} already has {tile.rule.size} cards",
            )
        tiles = list(self.tiles)
        discarded = _place(tiles, move.tile, player, card, self.ply)
        is_tactic = isinstance(card, TacticCard)
        return _evolve(
            self,
            tiles=tuple(tiles),
            hands=replaced(self.hands, player, hand),
            hand_sizes=replaced(self.hand_sizes, player, self.hand_sizes[player] - 1),
            discards=(*self.discards, *discarded),
            tactics_played=replaced(
                self.tactics_played, player, self.tactics_played[player] + is_tactic
            ),
            hand_tactics=replaced(
                self._tactic_counts(), player, self.tactics_in_hand(player) - is_tactic
            ),
            phase=Phase.AFTER_PLAY,
            ply=self.ply + 1,
        )

    def _pass(self, move: Pass) -> State:
        self._check_can_play(move)
        if not self._may_pass(self._plays()):
            why = "you can still play a card, so you may not pass"
            if self.to_move == self.attacker and self.phase is Phase.OPENING:
                why += " (the attacker retreats to make room)"
            raise illegal(move, Reason.PASS_NOT_ALLOWED, why)
        return _evolve(self, phase=Phase.AFTER_PASS, ply=self.ply + 1)

    def _may_pass(self, plays: list[Move]) -> bool:
        """Whether the player to move may pass, given its possible plays.

        Only a player who truly cannot play a card passes: the attacker at the
        start of its turn must retreat to make room if that lets it play. A
        hidden hand may pass when some hand consistent with what is known
        (its known count of siege cards among them) has no play.
        """
        if plays and self.hands[self.to_move] is not None:
            return False
        return not self._play_chances()[1]

    def _opening_variants(self) -> list[State]:
        """This position and, at the start of a turn, what an opening action can
        make of it: the attacker retreating from every tile, each oil throw."""
        variants = [self]
        if self.phase is not Phase.OPENING:
            return variants
        player = self.to_move
        if player == self.attacker:
            dropped = [c for t in self.tiles for c in t.sides[player]]
            if dropped:
                tiles = tuple(t.with_side(player, (), self.ply) for t in self.tiles)
                variants.append(
                    _evolve(
                        self, tiles=tiles, discards=(*self.discards, *dropped), phase=Phase.PLAY
                    )
                )
        elif self.oil:
            variants.extend(self._oil(Oil(t.number)) for t in self.tiles if t.sides[self.attacker])
        return variants

    def _play_chances(self) -> tuple[bool, bool]:
        """``(may, must)``: whether the player to move can play a card (after an
        opening action, if it is the start of its turn) for some hand consistent
        with what is known, and for every such hand. Equal for a known hand."""
        player = self.to_move
        variants = self._opening_variants()
        if self.hands[player] is not None:
            can = any(v._plays() for v in variants)
            return can, can
        tactics = self.tactics_in_hand(player)
        siege = self.hand_sizes[player] - tactics
        if siege > 0 and any(t.room(player) for v in variants for t in v.tiles):
            return True, True
        if tactics == 0 or self.tactics_played[player] > self.tactics_played[1 - player]:
            return False, False
        unseen = self._possible_tactics(player)
        playable = sum(n for c, n in unseen.items() if any(v._tactic_playable(c) for v in variants))
        unplayable = sum(unseen.values()) - playable
        return playable > 0, unplayable < tactics

    def _possible_tactics(self, player: int) -> Counter[TacticCard]:
        """The tactic cards a hidden hand of ``player`` may hold, counted."""
        unseen = Counter(_TACTIC_COUNT) - self.visible_cards()
        other = self.hands[1 - player]
        if other is not None:
            unseen -= Counter(other)
        if self.tactic_deck is not None:
            unseen -= Counter(self.tactic_deck)
        return Counter({c: n for c, n in unseen.items() if isinstance(c, TacticCard)})

    def _tactic_playable(self, card: TacticCard) -> bool:
        player = self.to_move
        if card is TacticCard.EXCHANGE:
            return (
                self.hand_sizes[player] > _EXCHANGED and self.hand_sizes[1 - player] >= _EXCHANGED
            )
        open_tiles = [t.number for t in self.tiles if t.room(player)]
        return bool(self._tactic_plays(card, open_tiles))

    def _as_turn_of(self, player: int) -> State:
        """This position at the start of a turn of ``player`` (for look-ahead only)."""
        return _evolve(self, to_move=player, phase=Phase.OPENING, late_control=False, support=None)

    def _siege_failed(self, after_attacker: bool) -> bool:
        """Whether nobody can change anything any more: neither player can play
        a card (for every hand consistent with what is known), and, after the
        defender's turn, the attacker has no control to declare. (The attacker
        may declare control during its own turn; at its end it has declined.)

        A public record that ends here saying the siege failed only needs hands
        consistent with what is known that play nothing (the deal check of the
        record then asks for such hands: see ``referee.schotten_totten_2.deals``).
        """
        chance = 1 if self.ply == self.siege_failed_at else 0  # may play / must play
        for player in (self.attacker, self.defender):
            if self._as_turn_of(player)._play_chances()[chance]:
                return False
        return after_attacker or not self._provable_controls()

    def _check_can_play(self, move: Move) -> None:
        if self.phase not in (Phase.OPENING, Phase.PLAY):
            raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")

    def _check_tactic(self, move: Move, card: TacticCard) -> None:
        if not self.rules.tactics:
            raise illegal(
                move, Reason.TACTICS_NOT_IN_PLAY, f"{card} is a tactic card: not in the base game"
            )
        player = self.to_move
        mine, theirs = self.tactics_played[player], self.tactics_played[1 - player]
        if mine > theirs:
            raise illegal(
                move,
                Reason.TACTIC_LIMIT,
                f"tactic cards played: you {mine}, your opponent {theirs}; "
                "you may not get two ahead",
            )

    def _hand_without(
        self,
        move: Move,
        player: int,
        cards: Sequence[AnyCard],
        reserved: Sequence[AnyCard] = (),
    ) -> tuple[AnyCard, ...] | None:
        """``player``'s hand less ``cards`` (``None`` if hidden), or a refusal."""
        whose = "your" if player == self.to_move else "the opponent's"
        hand = self.hands[player]
        if hand is not None:
            rest = list(hand)
            for card in cards:
                if card not in rest:
                    raise illegal(move, Reason.CARD_NOT_IN_HAND, f"{card} is not in {whose} hand")
                rest.remove(card)
            return tuple(rest)
        if self.hand_sizes[player] < len(cards):
            raise illegal(
                move,
                Reason.CARD_NOT_IN_HAND,
                f"{whose} hand holds only {self.hand_sizes[player]} cards",
            )
        tactics = self.tactics_in_hand(player)
        wanted = sum(isinstance(c, TacticCard) for c in cards)
        if wanted > tactics:
            raise illegal(
                move,
                Reason.CARD_NOT_IN_HAND,
                f"{whose} hand holds {tactics} tactic cards (every tactic card drawn is seen)",
            )
        if len(cards) - wanted > self.hand_sizes[player] - tactics:
            raise illegal(
                move,
                Reason.CARD_NOT_IN_HAND,
                f"{whose} hand holds {self.hand_sizes[player] - tactics} siege cards "
                "(every tactic card drawn is seen)",
            )
        available = self.rules.all_cards - self.visible_cards() - Counter(reserved)
        other = self.hands[1 - player]
        if other is not None:
            available -= Counter(other)
        for card, count in Counter(cards).items():
            if card not in self.rules.all_cards:
                raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a card of this game")
            if available[card] < count:
                raise illegal(
                    move,
                    Reason.CARD_ALREADY_PLAYED,
                    f"{card} cannot be in {whose} hand: it is seen",
                )
        return None

    # --- declaring control ------------------------------------------------------------

    def _control(self, move: Control) -> State:
        if self.to_move != self.attacker and not self.late_control:
            raise illegal(move, Reason.WRONG_ROLE, "only the attacker declares control")
        tile = self._tile_for(move, move.tile)
        mine, size = tile.sides[self.attacker], tile.rule.size
        if len(mine) < size:
            raise illegal(
                move,
                Reason.FORMATION_INCOMPLETE,
                f"your formation at tile {move.tile} is not complete ({len(mine)} of {size} cards)",
            )
        if not _control_holds(self, tile, self._seen_mask()):
            # refused: the prover's own verdict, asked afresh, is the evidence
            verdict = self._verdict(tile, "exact", None)
            if not verdict.holds:
                why = describe_refusal(
                    verdict, SIEGE_CARDS.from_pair, opponent="defender", wild="cards"
                )
                raise ClaimRefusedError(
                    Reason.CLAIM_NOT_PROVEN, f"illegal move {str(move)!r}: {why}", verdict
                )
        discarded = (*tile.sides[self.attacker], *tile.sides[self.defender])
        tiles = replaced(self.tiles, move.tile - 1, Tile(move.tile, damaged=True))
        outcome = None
        if tile.damaged:
            outcome = Outcome(Termination.CONTROLLED_DAMAGED_TILE, self.attacker)
        elif sum(t.damaged for t in tiles) >= _DAMAGED_TO_WIN:
            outcome = Outcome(Termination.FOURTH_TILE_DAMAGED, self.attacker)
        return _evolve(
            self,
            tiles=tiles,
            discards=(*self.discards, *discarded),
            ply=self.ply + 1,
            outcome=outcome,
        )

    # --- drawing and ending the turn --------------------------------------------------

    def _draw(self, move: Draw) -> State:
        player = self.to_move
        if self.phase in (Phase.OPENING, Phase.PLAY):
            if self.late_control:
                raise illegal(move, Reason.WRONG_ROLE, "the attacker has already drawn")
            raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before drawing")
        if self.phase is Phase.AFTER_PASS:
            raise illegal(move, Reason.PASS_DRAWS_NOTHING, "a turn with a pass draws no card")
        hand = self.hands[player]
        if move.pile == "tactic":
            if not self.rules.tactics:
                raise illegal(
                    move, Reason.TACTICS_NOT_IN_PLAY, "there is no tactic pile in the base game"
                )
            if self.tactic_deck_size == 0:
                empty = Reason.PILE_EMPTY if self.deck_size else Reason.NOTHING_TO_DRAW
                raise illegal(move, empty, "the tactic pile is empty")
            tactic_deck = self.tactic_deck
            new_hand = None
            if tactic_deck is not None:
                new_hand = None if hand is None else (*hand, tactic_deck[0])
                tactic_deck = tactic_deck[1:]
            return self._next_turn(
                hands=replaced(self.hands, player, new_hand),
                hand_sizes=replaced(self.hand_sizes, player, self.hand_sizes[player] + 1),
                hand_tactics=replaced(
                    self._tactic_counts(), player, self.tactics_in_hand(player) + 1
                ),
                tactic_deck=tactic_deck,
                tactic_deck_size=self.tactic_deck_size - 1,
                late_control=player == self.attacker,
            )
        if self.deck_size == 0:
            other = self.rules.tactics and self.tactic_deck_size > 0
            empty = Reason.PILE_EMPTY if other else Reason.NOTHING_TO_DRAW
            raise illegal(move, empty, "the siege deck is empty")
        deck = self.deck
        siege_hand = None
        if deck is not None:
            siege_hand = None if hand is None else (*hand, deck[0])
            deck = deck[1:]
        return self._next_turn(
            hands=replaced(self.hands, player, siege_hand),
            hand_sizes=replaced(self.hand_sizes, player, self.hand_sizes[player] + 1),
            deck=deck,
            deck_size=self.deck_size - 1,
            exhausted=self.exhausted or self.deck_size == 1,
            late_control=player == self.attacker,
        )

    def _end_turn(self, move: EndTurn) -> State:
        if self.phase in (Phase.OPENING, Phase.PLAY):
            raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before ending")
        if self.phase is Phase.AFTER_PLAY and (
            self.deck_size > 0 or (self.rules.tactics and self.tactic_deck_size > 0)
        ):
            raise illegal(
                move, Reason.MUST_DRAW, "after playing a card you must draw while a pile has cards"
            )
        return self._next_turn()

    def _next_turn(self, **changes: Any) -> State:
        """End the mover's turn; the attacker's last turn ends the game, and so
        does a pass that leaves nobody able to change anything (siege failed)."""
        if self.to_move == self.attacker and self.final_turn:
            changes["outcome"] = Outcome(Termination.SIEGE_HELD, self.defender)
            changes["late_control"] = False
        following = 1 - self.to_move
        exhausted = changes.get("exhausted", self.exhausted)
        after = _evolve(
            self,
            **{"late_control": False, **changes},
            to_move=following,
            phase=Phase.OPENING,
            ply=self.ply + 1,
            final_turn=following == self.attacker and exhausted,
        )
        if (
            after.outcome is None
            and self.phase is Phase.AFTER_PASS
            and after._siege_failed(self.to_move == self.attacker)
        ):
            after = _evolve(after, outcome=Outcome(Termination.SIEGE_FAILED, self.defender))
        return after

    def _tactic_counts(self) -> tuple[int, int]:
        counts = self.hand_tactics
        assert counts is not None  # set by __post_init__
        return counts

    # --- tactic actions ------------------------------------------------------------------

    def _action(self, move: Move, card: TacticCard) -> tuple[AnyCard, ...] | None:
        """Checks common to action cards; the mover's hand without ``card``."""
        self._check_can_play(move)
        self._check_tactic(move, card)
        return self._hand_without(move, self.to_move, [card])

    def _after_action(
        self,
        card: TacticCard,
        hand: tuple[AnyCard, ...] | None,
        phase: Phase = Phase.AFTER_PLAY,
        **changes: Any,
    ) -> State:
        player = self.to_move
        return _evolve(
            self,
            hands=replaced(self.hands, player, hand),
            hand_sizes=replaced(self.hand_sizes, player, self.hand_sizes[player] - 1),
            actions=replaced(self.actions, player, (*self.actions[player], card)),
            tactics_played=replaced(self.tactics_played, player, self.tactics_played[player] + 1),
            hand_tactics=replaced(self._tactic_counts(), player, self.tactics_in_hand(player) - 1),
            phase=phase,
            ply=self.ply + 1,
            **changes,
        )

    def _redeploy(self, move: Redeploy) -> State:
        player = self.to_move
        hand = self._action(move, TacticCard.REDEPLOY)
        source = self._tile_for(move, move.source)
        if move.card not in source.sides[player]:
            raise illegal(
                move,
                Reason.CARD_NOT_THERE,
                f"{move.card} is not on your side of tile {move.source}",
            )
        tiles = list(self.tiles)
        _remove(tiles, move.source, player, move.card, self.ply)
        discarded: list[AnyCard] = []
        if move.target is None:
            discarded.append(move.card)
        else:
            if move.target == move.source:
                raise illegal(move, Reason.SAME_TILE, "redeploy moves a card to another tile")
            target = self._tile_for(move, move.target)
            if not target.room(player):
                raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.target} is full")
            discarded = _place(tiles, move.target, player, move.card, self.ply)
        return self._after_action(
            TacticCard.REDEPLOY,
            hand,
            tiles=tuple(tiles),
            discards=(*self.discards, *discarded),
        )

    def _recruitment(self, move: Recruitment) -> State:
        player = self.to_move
        hand = self._action(move, TacticCard.RECRUITMENT)
        if not isinstance(move.card, Card):
            raise illegal(
                move, Reason.NOT_A_SIEGE_CARD, f"recruitment takes a siege card, not {move.card}"
            )
        if move.card not in self.discards:
            raise illegal(move, Reason.NOT_DISCARDED, f"{move.card} is not in the discard pile")
        tile = self._tile_for(move, move.tile)
        if not tile.room(player):
            raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.tile} is full")
        discards = list(self.discards)
        discards.remove(move.card)
        tiles = list(self.tiles)
        discards += _place(tiles, move.tile, player, move.card, self.ply)
        return self._after_action(
            TacticCard.RECRUITMENT, hand, tiles=tuple(tiles), discards=tuple(discards)
        )

    def _desertion(self, move: Desertion) -> State:
        opponent = 1 - self.to_move
        hand = self._action(move, TacticCard.DESERTION)
        tile = self._tile_for(move, move.tile)
        if move.card not in tile.sides[opponent]:
            raise illegal(
                move,
                Reason.CARD_NOT_THERE,
                f"{move.card} is not on your opponent's side of tile {move.tile}",
            )
        tiles = list(self.tiles)
        _remove(tiles, move.tile, opponent, move.card, self.ply)
        return self._after_action(
            TacticCard.DESERTION,
            hand,
            tiles=tuple(tiles),
            discards=(*self.discards, move.card),
        )

    def _treason(self, move: Treason) -> State:
        player, opponent = self.to_move, 1 - self.to_move
        hand = self._action(move, TacticCard.TREASON)
        source = self._tile_for(move, move.source)
        if move.card not in source.sides[opponent]:
            raise illegal(
                move,
                Reason.CARD_NOT_THERE,
                f"{move.card} is not on your opponent's side of tile {move.source}",
            )
        target = self._tile_for(move, move.target)
        if not target.room(player):
            raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.target} is full")
        tiles = list(self.tiles)
        _remove(tiles, move.source, opponent, move.card, self.ply)
        discarded = _place(tiles, move.target, player, move.card, self.ply)
        return self._after_action(
            TacticCard.TREASON,
            hand,
            tiles=tuple(tiles),
            discards=(*self.discards, *discarded),
        )

    def _explosion(self, move: Explosion) -> State:
        hand = self._action(move, TacticCard.EXPLOSION)
        tile = self._tile_for(move, move.tile)
        if not tile.sides[0] and not tile.sides[1]:
            raise illegal(move, Reason.NOTHING_TO_EXPLODE, f"tile {move.tile} has no cards")
        emptied = tile.with_side(0, (), self.ply).with_side(1, (), self.ply)
        return self._after_action(
            TacticCard.EXPLOSION,
            hand,
            tiles=replaced(self.tiles, move.tile - 1, emptied),
            discards=(*self.discards, *tile.sides[self.attacker], *tile.sides[self.defender]),
        )

    def _support(self, move: Support) -> State:
        hand = self._action(move, TacticCard.SUPPORT)
        siege = [c for c in self.discards if isinstance(c, Card)]
        if len(siege) < 2:
            raise illegal(
                move,
                Reason.TOO_FEW_DISCARDS,
                f"support needs 2 discarded siege cards; the pile holds {len(siege)}",
            )
        discards = list(self.discards)
        chosen: list[Card] = []
        for card in move.cards:
            if not isinstance(card, Card):
                raise illegal(
                    move, Reason.NOT_A_SIEGE_CARD, f"support takes siege cards, not {card}"
                )
            if card not in discards:
                raise illegal(move, Reason.NOT_DISCARDED, f"{card} is not in the discard pile")
            discards.remove(card)
            chosen.append(card)
        return self._after_action(
            TacticCard.SUPPORT,
            hand,
            Phase.SHUFFLE,
            discards=tuple(discards),
            support=(chosen[0], chosen[1]),
        )

    def _shuffle(self, move: Shuffle) -> State:
        if self.phase is not Phase.SHUFFLE or self.support is None:
            raise illegal(move, Reason.NO_SHUFFLE_PENDING, "no support card is waiting")
        size = self.deck_size + 2
        deck: tuple[Card, ...] | None = None
        if move.positions is None:
            if self.deck is not None:
                raise illegal(
                    move,
                    Reason.SHUFFLE_UNRECORDED,
                    "the deck is known, so say where both cards went ('shuffle N,M')",
                )
        else:
            first, second = move.positions
            if not (1 <= first <= size and 1 <= second <= size) or first == second:
                raise illegal(
                    move,
                    Reason.BAD_SHUFFLE,
                    f"the deck will hold {size} cards: give two different places 1-{size}",
                )
            if self.deck is not None:
                rest = iter(self.deck)
                placed = {first: self.support[0], second: self.support[1]}
                deck = tuple(placed[i] if i in placed else next(rest) for i in range(1, size + 1))
        return _evolve(
            self,
            deck=deck,
            deck_size=size,
            support=None,
            phase=Phase.AFTER_PLAY,
            ply=self.ply + 1,
        )

    def _exchange(self, move: Exchange) -> State:
        player, opponent = self.to_move, 1 - self.to_move
        self._action(move, TacticCard.EXCHANGE)
        # The exchange card leaves the hand first; the 3 offered cards are others.
        self._hand_without(move, player, [TacticCard.EXCHANGE, *move.give])
        if self.hand_sizes[opponent] < _EXCHANGED:
            raise illegal(
                move,
                Reason.TOO_FEW_CARDS,
                f"your opponent holds {self.hand_sizes[opponent]} cards: an exchange takes 3 each",
            )
        hand = self._hand_without(move, player, [TacticCard.EXCHANGE])
        return self._after_action(
            TacticCard.EXCHANGE, hand, Phase.EXCHANGE, to_move=opponent, exchange=move.give
        )

    def _exchange_reply(self, move: ExchangeReply) -> State:
        offer = self.exchange
        if self.phase is not Phase.EXCHANGE:
            raise illegal(move, Reason.NO_EXCHANGE_PENDING, "no exchange waits for an answer")
        if offer is None:
            raise illegal(
                move,
                Reason.OFFER_HIDDEN,
                "the cards offered are hidden in this view: answer on the full state",
            )
        chooser, mover = self.to_move, 1 - self.to_move
        # Cards named in the offer are seen, so a hidden hand cannot hold them.
        kept = self._hand_without(move, mover, offer, move.give)
        given = self._hand_without(move, chooser, move.give, offer)
        counts = self._tactic_counts()
        offered = sum(isinstance(c, TacticCard) for c in offer)
        back = sum(isinstance(c, TacticCard) for c in move.give)
        hands = replaced(self.hands, mover, None if kept is None else (*kept, *move.give))
        hands = replaced(hands, chooser, None if given is None else (*given, *offer))
        tactic_counts = replaced(counts, mover, counts[mover] - offered + back)
        return _evolve(
            self,
            hands=hands,
            hand_tactics=replaced(tactic_counts, chooser, counts[chooser] - back + offered),
            to_move=mover,
            phase=Phase.AFTER_PLAY,
            exchange=None,
            ply=self.ply + 1,
        )

    # --- helpers ------------------------------------------------------------------

    def _tile_for(self, move: Move, number: int) -> Tile:
        return place_at(move, number, self.tiles, Reason.NO_SUCH_TILE, "tile")

    def _verdict(self, tile: Tile, engine: Engine, pool: Pool | None) -> ClaimVerdict:
        return verdict_at(
            tile,
            self.attacker,
            pieces=_pieces,
            pool=self._pool if pool is None else pool,
            colours=_COLOURS,
            engine=engine,
            who="attacker",
        )

    def _pool(self) -> Pool:
        """The prover's pool: every siege card neither on a tile nor discarded."""
        return Sight(self._siege_seen, _PAIRS).pool

    def _siege_seen(self) -> frozenset[Card]:
        """The siege cards on the tiles and discarded."""
        seen = [c for c in self.discards if type(c) is Card]
        for tile in self.tiles:
            for side in tile.sides:
                seen.extend(c for c in side if type(c) is Card)
        return frozenset(seen)

    def _seen_mask(self) -> int:
        """:meth:`_siege_seen` as a bit mask (see ``_BIT``), kept from ply to
        ply when a card play made this state from the last one asked (see
        ``_LAST_SEEN``)."""
        global _LAST_SEEN
        tiles, discards, mask = _LAST_SEEN
        if tiles is self.tiles and discards is self.discards:
            return mask
        mask, bit = 0, _BIT
        for card in self.discards:
            if type(card) is Card:
                mask |= bit[card]
        for tile in self.tiles:
            for side in tile.sides:
                for card in side:
                    if type(card) is Card:
                        mask |= bit[card]
        _LAST_SEEN = (self.tiles, self.discards, mask)
        return mask

    def _provable_controls(self) -> list[Control]:
        attacker = self.attacker
        controls: list[Control] = []
        seen = -1
        for tile in self.tiles:
            # Cheap bounds first: only a complete attacker side is asked about
            # (a side is complete exactly when it has a completion time: every
            # state is checked for it).
            if tile.completed[attacker] is None:
                continue
            if seen < 0:
                seen = self._seen_mask()
            if _control_holds(self, tile, seen):
                controls.append(_CONTROLS[tile.number - 1])
        return controls

    def _openings(self) -> Sequence[Move]:
        attacker = self.attacker
        if self.to_move == attacker:
            mine = tuple([t.number for t in self.tiles if t.sides[attacker]])
            retreats = _RETREATS.get(mine)
            if retreats is None:
                retreats = tuple(
                    Retreat(tiles)
                    for k in range(1, len(mine) + 1)
                    for tiles in combinations(mine, k)
                )
                remember(_RETREATS, mine, retreats)
            return retreats
        if self.oil == 0:
            return ()
        return [_OILS[t.number - 1] for t in self.tiles if t.sides[attacker]]

    def _hand_choices(self, player: int) -> list[AnyCard]:
        """The distinct cards ``player`` may hold (every unseen one if hidden)."""
        if self.hand_sizes[player] == 0:
            return []
        hand = self.hands[player]
        if hand is not None:
            return list(dict.fromkeys(hand))
        available = self.rules.all_cards - self.visible_cards() - Counter(self.exchange or ())
        other = self.hands[1 - player]
        if other is not None:
            available -= Counter(other)
        tactics = self.tactics_in_hand(player)
        siege = self.hand_sizes[player] - tactics
        return [c for c in available if (tactics if isinstance(c, TacticCard) else siege) > 0]

    def _plays(self) -> list[Move]:
        """Every legal card play (siege card, troop or action) of the player to move."""
        player, opponent = self.to_move, 1 - self.to_move
        # a side is open exactly while it has no completion time (every state is checked for it)
        open_tiles = [t.number for t in self.tiles if t.completed[player] is None]
        if not self.rules.tactics:
            # The base game: siege cards only, each a ready-made row of plays.
            hand = self.hands[player]
            cards: Iterable[AnyCard] = (
                self._hand_choices(player) if hand is None else dict.fromkeys(hand)
            )
            rows = [_PLAYS_AT.get(c) or _plays_at(c) for c in cards if type(c) is Card]
            return [row[n] for row in rows for n in open_tiles]
        cards = self._hand_choices(player)
        moves: list[Move] = []
        tactic_ok = self.tactics_played[player] <= self.tactics_played[opponent]
        for card in cards:
            if isinstance(card, Card):
                row = _PLAYS_AT.get(card) or _plays_at(card)
                moves.extend([row[n] for n in open_tiles])
            elif self.rules.tactics and tactic_ok:
                moves.extend(self._tactic_plays(card, open_tiles))
        return moves

    def _tactic_plays(self, card: TacticCard, open_tiles: list[int]) -> list[Move]:
        player, opponent = self.to_move, 1 - self.to_move
        if card.is_elite:
            row = _PLAYS_AT.get(card) or _plays_at(card)
            return [row[n] for n in open_tiles]
        if card is TacticCard.REDEPLOY:
            mine = [(c, t.number) for t in self.tiles for c in dict.fromkeys(t.sides[player])]
            return [
                _built(Redeploy, c, n, target)
                for c, n in mine
                for target in [*(m for m in open_tiles if m != n), None]
            ]
        siege = list(dict.fromkeys(c for c in self.discards if isinstance(c, Card)))
        if card is TacticCard.RECRUITMENT:
            return [_built(Recruitment, c, n) for c in siege for n in open_tiles]
        if card is TacticCard.DESERTION or card is TacticCard.TREASON:
            theirs = [(c, t.number) for t in self.tiles for c in dict.fromkeys(t.sides[opponent])]
            if card is TacticCard.DESERTION:
                return [_built(Desertion, c, n) for c, n in theirs]
            return [_built(Treason, c, n, m) for c, n in theirs for m in open_tiles]
        if card is TacticCard.EXPLOSION:
            return [_EXPLOSIONS[t.number - 1] for t in self.tiles if t.sides[0] or t.sides[1]]
        if card is TacticCard.SUPPORT:
            all_siege = [c for c in self.discards if isinstance(c, Card)]
            if len(all_siege) < 2:
                return []
            return [_built(Support, (a, b)) for a, b in combinations(siege, 2)]
        assert card is TacticCard.EXCHANGE
        hand = self.hands[player]
        if hand is None or self.hand_sizes[opponent] < _EXCHANGED:
            return []
        rest = list(hand)
        rest.remove(TacticCard.EXCHANGE)
        gives = dict.fromkeys(tuple(g) for g in combinations(rest, _EXCHANGED))
        return [_built(Exchange, (g[0], g[1], g[2])) for g in gives]

    def _exchange_replies(self) -> list[Move]:
        """The chooser's answers to a pending exchange: any 3 cards of its hand."""
        chooser = self.to_move
        hand = self.hands[chooser]
        if hand is not None:
            # every 3 cards of a known hand fit its counts; its few answers are
            # built once (a hidden hand's many are not kept)
            return [
                _built(ExchangeReply, (trio[0], trio[1], trio[2]))
                for trio in dict.fromkeys(combinations(hand, _EXCHANGED))
            ]
        available = self.rules.all_cards - self.visible_cards() - Counter(self.exchange or ())
        other = self.hands[1 - chooser]
        if other is not None:
            available -= Counter(other)
        pool = list(available.elements())
        tactics = self.tactics_in_hand(chooser)
        siege = self.hand_sizes[chooser] - tactics
        replies: list[Move] = []
        for trio in dict.fromkeys(combinations(pool, _EXCHANGED)):
            wanted = sum(isinstance(c, TacticCard) for c in trio)
            if wanted <= tactics and _EXCHANGED - wanted <= siege:
                replies.append(ExchangeReply((trio[0], trio[1], trio[2])))
        return replies


# --- moves and controls: answers remembered from ply to ply ---------------------------
#
# Moves are immutable values, so the common ones are built once and shared: the
# plays of a card at a set of open tiles, the retreats from a set of tiles.
#
# The prover's verdict on a control (``decide_claim``) depends on the tile's rule,
# both sides and, when the defender's side is incomplete, on the pool: every siege
# card that is not visible. What it found stays usable, whatever the table:
#
# * against a complete side the pool plays no part: the answer is remembered;
# * a completion that beat the attacker is still reachable while none of its cards
#   is visible: the control is refused again;
# * a proof found with some cards visible holds wherever at least those cards are
#   visible (the defender can only reach less from a smaller pool).
#
# The prover runs only when none of these decides. The memos are bounded and keyed
# by immutable values (the tile's number and side up, both sides); states carry
# nothing of them.

_TileKey = tuple[int, bool, tuple[AnyCard, ...], tuple[AnyCard, ...]]
#: (tile, side up, attacker's side, defender's complete side, attacker first) -> holds
_SETTLED: dict[tuple[int, bool, tuple[AnyCard, ...], tuple[AnyCard, ...], bool], bool] = {}
#: (tile, side up, both sides) -> the visible siege cards of tables where it held (masks)
_PROVED: dict[_TileKey, tuple[int, ...]] = {}
#: (tile, side up, both sides) -> the cards of completions that beat the attacker (masks)
_REFUTED: dict[_TileKey, tuple[int, ...]] = {}
#: card -> its play at each tile (index = tile number; index 0 unused)
_PLAYS_AT: dict[AnyCard, tuple[PlayCard, ...]] = {}
#: tiles holding attacker cards -> every retreat from them
_RETREATS: dict[tuple[int, ...], tuple[Retreat, ...]] = {}
#: deck size after a support -> every shuffle of its two cards
_SHUFFLES: dict[int, tuple[Shuffle, ...]] = {}
#: (move class, its fields) -> the move
_BUILT: dict[tuple[Any, ...], Any] = {}
_KEPT = 4  # proofs and refutations kept per question, newest first
_CONTROLS = tuple(Control(n) for n in range(1, TILES + 1))
#: tile number -> (cards per side intact, damaged) (index 0 unused)
_SIZES = ((0, 0), *((intact.size, damaged.size) for intact, damaged in WALL))
_OILS = tuple(Oil(n) for n in range(1, TILES + 1))
_EXPLOSIONS = tuple(Explosion(n) for n in range(1, TILES + 1))
_PASS, _DRAW, _DRAW_TACTIC, _END_TURN = Pass(), Draw(), Draw("tactic"), EndTurn()
_CARD_OF_PAIR = {pair: card for card, pair in _PAIRS.items()}
_PLAIN_BEST = PlainBest(SIEGE_CARDS.cards)


def _plays_at(card: AnyCard) -> tuple[PlayCard, ...]:
    """``card`` played at each tile (index = tile number), built once."""
    row = (PlayCard(card, 1), *(PlayCard(card, n) for n in range(1, TILES + 1)))
    remember(_PLAYS_AT, card, row)
    return row


def _built(cls: type[_M], *args: Any) -> _M:
    """The move ``cls(*args)``, built once (moves are immutable values)."""
    key = (cls, *args)
    move: _M | None = _BUILT.get(key)
    if move is None:
        move = cls(*args)
        remember(_BUILT, key, move)
    return move


def _dealt_shuffle(chance_seed: int, ply: int, size: int) -> Shuffle:
    """Where the deal (``chance_seed``) puts support's two cards at ``ply`` in a
    deck of ``size`` cards: uniform over every pair of places, the same in every
    run (a string seed is hashed the same way in every process)."""
    first, second = random.Random(f"{chance_seed}:{ply}").sample(range(1, size + 1), 2)
    return _shuffles(size)[(first - 1) * (size - 1) + second - 1 - (second > first)]


def _shuffles(size: int) -> tuple[Shuffle, ...]:
    """Every place the two support cards may take in a deck of ``size`` cards."""
    shuffles = _SHUFFLES.get(size)
    if shuffles is None:
        shuffles = tuple(
            Shuffle((a, b)) for a in range(1, size + 1) for b in range(1, size + 1) if a != b
        )
        remember(_SHUFFLES, size, shuffles)
    return shuffles


def _control_holds(state: State, tile: Tile, seen: int) -> bool:
    """Whether the attacker's complete side at ``tile`` can be declared in control,
    ``seen`` being the mask of the visible siege cards: the exact prover's
    answer (``decide_claim``), from what is remembered when it decides."""
    attacker = state.attacker
    # This very tile's last answer first: a settled duel, or cards that beat
    # the control and are still unseen (they still do: the tile is unchanged).
    at = id(tile) * 2 + attacker
    kept = _BY_TILE.get(at)
    if kept is not None and kept[0] is tile:
        if kept[1] is not None:
            return kept[1]
        if not kept[2] & seen:
            return False
    mine, theirs = tile.sides[attacker], tile.sides[1 - attacker]
    plain = all(type(c) is Card for c in (*mine, *theirs))
    if len(theirs) == len(mine):
        mine_at, theirs_at = tile.completed[attacker], tile.completed[1 - attacker]
        first = mine_at is not None and theirs_at is not None and mine_at < theirs_at
        settled_key = (tile.number, tile.damaged, mine, theirs, first)
        settled = _SETTLED.get(settled_key)
        if settled is None:
            if plain:
                # decide_claim between two complete sides of siege cards
                rule = tile.rule
                mine_key = rule.key(rule.classify([_PAIRS[cast(Card, c)] for c in mine]))
                their_key = rule.key(rule.classify([_PAIRS[cast(Card, c)] for c in theirs]))
                settled = mine_key > their_key or (mine_key == their_key and first)
            else:
                settled = state._verdict(tile, "exact", NO_POOL).holds
            remember(_SETTLED, settled_key, settled)
        remember(_BY_TILE, at, (tile, settled, 0))
        return settled
    key = (tile.number, tile.damaged, mine, theirs)
    refuted = _REFUTED.get(key, ())
    for cards in refuted:
        if not cards & seen:
            remember(_BY_TILE, at, (tile, None, cards))
            return False
    proved = _PROVED.get(key, ())
    for then in proved:
        if not then & ~seen:
            return True
    sight = Sight(state._siege_seen, _PAIRS)
    if plain:
        # Siege cards only: the best completion found directly, no prover search
        # (the opposing side is incomplete: a tie goes to the attacker).
        rule = tile.rule
        best = _PLAIN_BEST.best(cast(tuple[Card, ...], theirs), sight.seen, rule)
        mine_key = rule.key(rule.classify([_PAIRS[cast(Card, c)] for c in mine]))
        if best is None or best[0] <= mine_key:
            remember(_PROVED, key, (seen, *proved[: _KEPT - 1]))
            return True
        beating = _mask_of(best[1])
        remember(_REFUTED, key, (beating, *refuted[: _KEPT - 1]))
        remember(_BY_TILE, at, (tile, None, beating))
        return False
    verdict = state._verdict(tile, "exact", sight.pool)
    if verdict.holds:
        remember(_PROVED, key, (seen, *proved[: _KEPT - 1]))
        return True
    witness = verdict.witness
    if witness is not None:
        found = _mask_of(_CARD_OF_PAIR[pair] for pair in witness.cards)
        remember(_REFUTED, key, (found, *refuted[: _KEPT - 1]))
        remember(_BY_TILE, at, (tile, None, found))
    return False


#: id(tile) * 2 + attacker -> (the tile, its verdict when both sides are
#: complete, else None and the mask of cards that beat the control). Each
#: entry holds its tile, so an id is never a stranger's. Only what holds in
#: every game through this tile is kept (a control that holds now may not in a
#: position that shows fewer cards: that is for ``_PROVED`` to say).
_BY_TILE: dict[int, tuple[Tile, bool | None, int]] = {}
#: siege card -> its bit in a mask of siege cards (card order)
_BIT = card_bits(SIEGE_CARDS.cards)


def _mask_of(cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (siege cards; see ``_BIT``)."""
    return mask_of(_BIT, cards)


# What the last position asked showed, kept for the next ply (a playout asks
# position after position): replaced whole, by one assignment, and holding the
# objects it is about, so an identity test never meets a stranger. The visible
# siege cards are a function of the tiles and the discard pile, both immutable
# tuples: (tiles, discards, the visible cards' mask).
_LAST_SEEN: tuple[Any, Any, int] = (None, None, 0)


# --- checking a state built from outside ---------------------------------------------


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_player(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in (0, 1)


def _is_cards(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(c, (Card, TacticCard)) for c in value)


def _is_pair(value: object, check: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(check(v) for v in value)


def _field_problems(state: State) -> list[str]:
    """Fields of the wrong type or out of range (nothing else is checked then)."""
    problems = []
    checks: list[tuple[str, bool, str]] = [
        ("rules", isinstance(state.rules, Rules), "a Rules value"),
        ("attacker", _is_player(state.attacker), "0 or 1"),
        ("to_move", _is_player(state.to_move), "0 or 1"),
        (
            "tiles",
            isinstance(state.tiles, tuple)
            and len(state.tiles) == TILES
            and all(
                isinstance(t, Tile)
                and t.number == n
                and isinstance(t.damaged, bool)
                and _is_pair(t.sides, _is_cards)
                and _is_pair(t.completed, lambda c: c is None or _is_count(c))
                for n, t in enumerate(state.tiles, start=1)
            ),
            f"{TILES} Tile values numbered 1-{TILES}",
        ),
        ("hands", _is_pair(state.hands, lambda h: h is None or _is_cards(h)), "2 hands"),
        ("hand_sizes", _is_pair(state.hand_sizes, _is_count), "2 counts"),
        (
            "deck",
            state.deck is None
            or (isinstance(state.deck, tuple) and all(isinstance(c, Card) for c in state.deck)),
            "None or a tuple of siege cards",
        ),
        ("deck_size", _is_count(state.deck_size), "a count"),
        (
            "tactic_deck",
            state.tactic_deck is None
            or (
                isinstance(state.tactic_deck, tuple)
                and all(isinstance(c, TacticCard) for c in state.tactic_deck)
            ),
            "None or a tuple of tactic cards",
        ),
        ("tactic_deck_size", _is_count(state.tactic_deck_size), "a count"),
        ("discards", _is_cards(state.discards), "a tuple of cards"),
        (
            "actions",
            _is_pair(
                state.actions,
                lambda a: (
                    isinstance(a, tuple)
                    and all(isinstance(c, TacticCard) and not c.is_elite for c in a)
                ),
            ),
            "2 tuples of action cards",
        ),
        ("tactics_played", _is_pair(state.tactics_played, _is_count), "2 counts"),
        (
            "oil",
            _is_count(state.oil) and state.oil <= OIL_CAULDRONS,
            f"a count 0-{OIL_CAULDRONS}",
        ),
        ("phase", isinstance(state.phase, Phase), "a Phase"),
        ("ply", _is_count(state.ply), "a count"),
        ("exhausted", isinstance(state.exhausted, bool), "True or False"),
        ("final_turn", isinstance(state.final_turn, bool), "True or False"),
        ("late_control", isinstance(state.late_control, bool), "True or False"),
        ("chance_seed", _is_count(state.chance_seed), "a whole number >= 0"),
        (
            "support",
            state.support is None or (_is_pair(state.support, lambda c: isinstance(c, Card))),
            "None or 2 siege cards",
        ),
        (
            "exchange",
            state.exchange is None
            or (_is_cards(state.exchange) and len(state.exchange) == _EXCHANGED),
            "None or 3 cards",
        ),
        ("outcome", state.outcome is None or isinstance(state.outcome, Outcome), "an Outcome"),
        (
            "hand_tactics",
            state.hand_tactics is None or _is_pair(state.hand_tactics, _is_count),
            "None or 2 counts",
        ),
    ]
    for name, ok, what in checks:
        if not ok:
            problems.append(f"{name} must be {what}, not {getattr(state, name)!r}")
    return problems


def _turn_holder(state: State) -> int:
    """Whose turn it is: ``to_move``, except while the opponent answers an exchange."""
    return 1 - state.to_move if state.phase is Phase.EXCHANGE else state.to_move


def _visible_tactics(state: State) -> int:
    return sum(n for c, n in state.visible_cards().items() if isinstance(c, TacticCard))


def _derive(state: State) -> None:
    """Fill in what the position says implicitly: tactic cards in hand, the outcome."""
    if state.hand_tactics is None:
        known = [
            None if hand is None else sum(isinstance(c, TacticCard) for c in hand)
            for hand in state.hands
        ]
        total = (len(TACTIC_CARDS) if state.rules.tactics else 0) - _visible_tactics(state)
        in_hands = total - state.tactic_deck_size
        if known[0] is None and known[1] is None:
            if in_hands == 0:
                known = [0, 0]
        elif known[0] is None:
            known[0] = in_hands - (known[1] or 0)
        elif known[1] is None:
            known[1] = in_hands - known[0]
        first, second = known
        if first is not None and second is not None and min(first, second) >= 0:
            _set(state, "hand_tactics", (first, second))
    if state.exhausted and _turn_holder(state) == state.attacker:
        _set(state, "final_turn", True)
    damaged = sum(t.damaged for t in state.tiles)
    if state.outcome is None and damaged == _DAMAGED_TO_WIN:
        _set(state, "outcome", Outcome(Termination.FOURTH_TILE_DAMAGED, state.attacker))


def _problems(state: State, *, reachable: bool) -> list[str]:
    """Every way ``state`` contradicts the rules: what cannot exist at all and,
    when ``reachable``, what no legal game from a deal passes through."""
    problems = _position_problems(state)
    if reachable and not problems:
        problems = _reachable_problems(state)
    return problems


def _position_problems(state: State) -> list[str]:
    """Every way the position contradicts the rules (an empty list: well formed)."""
    problems: list[str] = _tile_problems(state)
    every = state.rules.all_cards
    names = ("player 1", "player 2")
    # Every card exists, and no card is in more places than it has copies.
    places: Counter[AnyCard] = state.visible_cards()
    for extra in (state.hands[0], state.hands[1], state.deck, state.tactic_deck, state.support):
        places.update(extra or ())
    offer = state.exchange
    if offer is not None and state.hands[1 - state.to_move] is None:
        # The offered cards are in the hidden offering hand: they count there.
        places.update(offer)
    for card, count in sorted(places.items(), key=lambda item: str(item[0])):
        if card not in every:
            where = "a tactic card in the base game" if isinstance(card, TacticCard) else ""
            problems.append(f"{card} is not a card of this game" + (f" ({where})" if where else ""))
        elif count > every[card]:
            problems.append(f"{card} is in {count} places (the game has {every[card]})")
    # Counts agree with what is known.
    for p, hand in enumerate(state.hands):
        if hand is not None and len(hand) != state.hand_sizes[p]:
            problems.append(
                f"{names[p]}'s hand holds {len(hand)} cards, hand_sizes says {state.hand_sizes[p]}"
            )
        if state.hand_sizes[p] > state.rules.hand_size:
            problems.append(
                f"{names[p]} holds {state.hand_sizes[p]} cards; a hand holds at most "
                f"{state.rules.hand_size}"
            )
    if state.deck is not None and len(state.deck) != state.deck_size:
        problems.append(f"the deck holds {len(state.deck)} cards, deck_size says {state.deck_size}")
    if state.tactic_deck is not None and len(state.tactic_deck) != state.tactic_deck_size:
        problems.append(
            f"the tactic pile holds {len(state.tactic_deck)} cards, tactic_deck_size "
            f"says {state.tactic_deck_size}"
        )
    if not state.rules.tactics and state.tactic_deck_size:
        problems.append("the base game has no tactic pile")
    # The hidden cards add up: siege cards and tactic cards separately.
    counts = state.hand_tactics
    visible = state.visible_cards()
    seen_siege = sum(n for c, n in visible.items() if isinstance(c, Card))
    seen_tactics = sum(visible.values()) - seen_siege
    if counts is None:
        problems.append("say how many tactic cards each hidden hand holds (hand_tactics)")
    else:
        for p in (0, 1):
            hand = state.hands[p]
            if hand is not None and sum(isinstance(c, TacticCard) for c in hand) != counts[p]:
                problems.append(
                    f"hand_tactics says {names[p]} holds {counts[p]} tactic cards, "
                    "its hand says otherwise"
                )
            if counts[p] > state.hand_sizes[p]:
                problems.append(
                    f"{names[p]} cannot hold {counts[p]} tactic cards in a hand of "
                    f"{state.hand_sizes[p]}"
                )
        in_hands = sum(state.hand_sizes) - sum(counts)
        support = len(state.support or ())
        if seen_siege + in_hands + state.deck_size + support != len(SIEGE_CARDS.cards):
            problems.append(
                f"the siege cards do not add up: {len(SIEGE_CARDS.cards)} in the game, "
                f"{seen_siege} on the table or discarded, {in_hands} in the hands and "
                f"{state.deck_size} in the deck"
                + (f", {support} being shuffled" if support else "")
            )
        tactics_total = len(TACTIC_CARDS) if state.rules.tactics else 0
        if seen_tactics + sum(counts) + state.tactic_deck_size != tactics_total:
            problems.append(
                f"the tactic cards do not add up: {tactics_total} in the game, {seen_tactics} "
                f"played, {sum(counts)} in the hands and {state.tactic_deck_size} in the pile"
            )
    if seen_tactics > sum(state.tactics_played):
        problems.append(
            f"tactics_played {state.tactics_played} counts fewer than the "
            f"{seen_tactics} tactic cards on the table and discarded"
        )
    if abs(state.tactics_played[0] - state.tactics_played[1]) > 1:
        problems.append(
            f"tactics_played {state.tactics_played}: nobody gets two tactic cards ahead"
        )
    for p in (0, 1):
        if len(state.actions[p]) > state.tactics_played[p]:
            problems.append(
                f"{names[p]} has {len(state.actions[p])} action cards on its side but "
                f"tactics_played says {state.tactics_played[p]}"
            )
    problems.extend(_turn_problems(state))
    return problems


def _tile_problems(state: State) -> list[str]:
    problems = []
    names = ("player 1", "player 2")
    for tile in state.tiles:
        size = tile.rule.size
        for p, side in enumerate(tile.sides):
            if len(side) > size:
                problems.append(
                    f"tile {tile.number}: {names[p]}'s side holds {len(side)} cards, "
                    f"the tile takes {size}"
                )
            if any(isinstance(c, TacticCard) and not c.is_elite for c in side):
                problems.append(f"tile {tile.number}: action cards never lie at a tile")
            done = tile.completed[p]
            if (done is not None) != (len(side) == size):
                state_of = "complete" if len(side) == size else "incomplete"
                problems.append(
                    f"tile {tile.number}: {names[p]}'s side is {state_of} but its "
                    f"completion time is {done!r}"
                )
        for card in tile.sides[0]:
            rival = Card(card.colour, 11 - card.value) if isinstance(card, Card) else None
            if rival is not None and card.value in (0, 11) and rival in tile.sides[1]:
                problems.append(f"tile {tile.number}: {card} faces {rival} (both are discarded)")
        done0, done1 = tile.completed
        if done0 is not None and done0 == done1:
            problems.append(
                f"tile {tile.number}: both sides completed at ply {done0}; one of them was first"
            )
    damaged = sum(t.damaged for t in state.tiles)
    if damaged > _DAMAGED_TO_WIN:
        problems.append(f"{damaged} damaged tiles: the attacker wins on the fourth")
    outcome = state.outcome
    if damaged == _DAMAGED_TO_WIN and outcome is not None and outcome.winner != state.attacker:
        problems.append("four damaged tiles: the attacker has won")
    return problems


def _turn_problems(state: State) -> list[str]:
    problems = []
    if (state.phase is Phase.SHUFFLE) != (state.support is not None):
        problems.append("a support waits for its shuffle exactly in the shuffle phase")
    if state.exchange is not None and state.phase is not Phase.EXCHANGE:
        problems.append("an exchange waits for its answer exactly in the exchange phase")
    if (
        state.phase is Phase.EXCHANGE
        and state.exchange is None
        and state.hands[1 - state.to_move] is not None
    ):
        # only the answering player's view hides the offer (the offering hand is hidden there)
        problems.append("an exchange waits for its answer exactly in the exchange phase")
    if state.late_control and (state.to_move != state.defender or state.phase is not Phase.OPENING):
        problems.append("late_control: only right after the attacker's draw")
    if state.final_turn and not state.exhausted:
        problems.append("final_turn: only once the last siege card has been drawn")
    elif state.final_turn and _turn_holder(state) != state.attacker:
        problems.append("final_turn: only in the attacker's turn")
    offer, mover = state.exchange, 1 - state.to_move
    hand = state.hands[mover]
    if offer is not None and hand is not None and Counter(offer) - Counter(hand):
        problems.append("the cards offered in the exchange are not in the offering hand")
    elif offer is not None and state.hand_tactics is not None:
        tactics = sum(isinstance(c, TacticCard) for c in offer)
        held = state.hand_tactics[mover]
        if tactics > held or _EXCHANGED - tactics > state.hand_sizes[mover] - held:
            problems.append(
                f"the offer {' '.join(map(str, offer))} does not fit player {mover + 1}'s hand "
                f"of {state.hand_sizes[mover] - held} siege and {held} tactic cards"
            )
    return problems


# --- reachable by legal play from a deal (status() only) ------------------------------

_NAMES = ("player 1", "player 2")
#: tile number -> how many cards the attacker's side held when it damaged the tile
#: (its complete formation on the intact side; index 0 unused)
_INTACT_SIZES = (0, *(intact.size for intact, _ in WALL))


def _played(state: State, card: TacticCard) -> int:
    """How many ``card`` action cards lie on the players' sides."""
    return state.actions[0].count(card) + state.actions[1].count(card)


def _piles_ran_dry(state: State) -> bool:
    """Whether both piles may have been empty at a draw: the last siege card
    has been drawn, the tactic pile is empty, and the deck holds no more than
    a support put back (the one way a pile is refilled)."""
    in_deck = state.deck_size + (2 if state.phase is Phase.SHUFFLE else 0)
    return (
        state.exhausted
        and state.tactic_deck_size == 0
        and in_deck <= 2 * _played(state, TacticCard.SUPPORT)
    )


def _full_hands(state: State) -> tuple[int, int]:
    """Each hand's size while the piles have never run out: full, and one
    card fewer for the player whose turn it is once it has played a card."""
    full = [state.rules.hand_size] * 2
    if state.phase in (Phase.AFTER_PLAY, Phase.SHUFFLE, Phase.EXCHANGE):
        full[_turn_holder(state)] -= 1
    return full[0], full[1]


def _reachable_problems(state: State) -> list[str]:
    """What no game from a deal passes through (RULINGS: positions)."""
    problems = _pile_problems(state)
    problems += _pending_problems(state)
    problems += _outcome_problems(state)
    if not problems:
        problems += _history_problems(state)
    return problems


def _pile_problems(state: State) -> list[str]:
    """Hands hold their full size unless the piles ran out; the exhausted flag."""
    problems: list[str] = []
    in_deck = state.deck_size + (2 if state.phase is Phase.SHUFFLE else 0)
    supports = _played(state, TacticCard.SUPPORT)
    if in_deck == 0 and not state.exhausted:
        problems.append(
            "the siege deck is empty, so its last card has been drawn: exhausted must be true"
        )
    if state.exhausted and in_deck > 2 * supports:
        problems.append(
            f"the last siege card has been drawn (exhausted), but the deck holds {in_deck} "
            f"cards: only a support puts cards back{' (two)' if supports else ''}"
        )
    if problems:
        return problems
    full = _full_hands(state)
    dry = _piles_ran_dry(state)
    size = state.rules.hand_size
    for p in (0, 1):
        held = state.hand_sizes[p]
        if held > full[p]:
            problems.append(f"{_NAMES[p]} holds {held} cards: a hand holds at most {full[p]} here")
        elif held < full[p] and not dry:
            problems.append(
                f"{_NAMES[p]} holds {held} cards but the piles still hold "
                f"{state.deck_size + state.tactic_deck_size}: a hand is refilled to {size} after "
                "every card played while a pile has cards"
            )
        elif held < size - 1 and not supports:
            problems.append(
                f"{_NAMES[p]} holds {held} cards, but hands were full when the last siege card "
                "was drawn, and each player lays at most one more card (the attacker's next "
                "turn is its last)"
            )
    return problems


def _pending_problems(state: State) -> list[str]:
    """The phase against the card that started it, and what it has pending."""
    problems: list[str] = []
    holder = _turn_holder(state)
    if state.phase is Phase.SHUFFLE and state.actions[holder][-1:] != (TacticCard.SUPPORT,):
        problems.append(
            f"the shuffle phase follows {_NAMES[holder]}'s support, but it is not the last "
            "action card it played"
        )
    if state.phase is Phase.EXCHANGE:
        if state.actions[holder][-1:] != (TacticCard.EXCHANGE,):
            problems.append(
                f"the exchange phase follows an exchange card played by {_NAMES[holder]} (the "
                f"player not to move), but it is not the last action card it played: "
                f"{_NAMES[state.to_move]} cannot answer its own offer"
            )
        if state.hand_sizes[state.to_move] < _EXCHANGED:
            problems.append(
                f"{_NAMES[state.to_move]} holds {state.hand_sizes[state.to_move]} cards: an "
                "exchange takes 3 from each hand"
            )
        if state.hand_sizes[holder] < _EXCHANGED:
            problems.append(
                f"{_NAMES[holder]} holds {state.hand_sizes[holder]} cards: it cannot have offered 3"
            )
    if state.phase is Phase.AFTER_PASS and state.outcome is None:
        # Nothing that gives the passer a play has happened since its pass: the
        # attacker had no siege card (it could retreat), the defender no play at
        # all (controls come in the attacker's turn).
        mover = state.to_move
        siege = state.hand_sizes[mover] - (state.hand_tactics or (0, 0))[mover]
        if mover == state.attacker and siege > 0:
            problems.append(
                f"the attacker ({_NAMES[mover]}) has passed this turn, but it holds {siege} "
                "siege cards and can always retreat to make room for one"
            )
        elif mover == state.defender and _evolve(state, phase=Phase.PLAY)._play_chances()[1]:
            problems.append(
                f"the defender ({_NAMES[mover]}) has passed this turn, but it can play a card "
                "(a player passes only when it truly cannot)"
            )
    seen = sum(n for c, n in state.visible_cards().items() if isinstance(c, TacticCard))
    if sum(state.tactics_played) != seen:
        problems.append(
            f"tactics_played {state.tactics_played} but {seen} tactic cards are in sight: "
            "every tactic card played stays on the table, on a side or on the discard pile"
        )
    return problems


def _outcome_problems(state: State) -> list[str]:
    """The outcome against the table and the point of the turn where it came."""
    problems: list[str] = []
    outcome, attacker, defender = state.outcome, state.attacker, state.defender
    damaged = [t for t in state.tiles if t.damaged]
    opening = state.phase is Phase.OPENING
    in_turn = state.to_move == attacker or state.late_control
    if outcome is None:
        if state.exhausted and state.to_move == defender and opening and not state.late_control:
            problems.append(
                "the last siege card has been drawn, and the defender's turn begins without "
                "the attacker's draw before it: the attacker's last turn is over, so the "
                "siege has held"
            )
        return problems
    reason = outcome.reason
    if reason in REFEREE_ENDS:
        return problems
    winner = attacker if reason in _ATTACKER_WINS else defender
    if outcome.winner != winner:
        problems.append(f"a game ended by {reason} is won by the {_role(state, winner)}")
    if reason in _ATTACKER_WINS and not in_turn:
        problems.append(
            f"the attacker won by declaring control ({reason}), which it does in its own turn "
            f"(or right after its draw), but {_NAMES[state.to_move]} is to move"
        )
    if reason == Termination.CONTROLLED_DAMAGED_TILE and (
        len(damaged) > _DAMAGED_TO_WIN - 1
        or not any(not t.sides[0] and not t.sides[1] for t in damaged)
    ):
        problems.append(
            "the attacker controlled a damaged tile: it lies empty, one of at most three "
            "damaged tiles"
        )
    if reason in (Termination.SIEGE_HELD, Termination.SIEGE_FAILED) and (
        state.to_move != (defender if reason == Termination.SIEGE_HELD else state.to_move)
        or not opening
        or state.late_control
    ):
        problems.append(f"the siege ends ({reason}) at the end of a turn, not mid-turn")
    if reason == Termination.SIEGE_HELD and not state.exhausted:
        problems.append("the siege held: the last siege card must have been drawn (exhausted)")
    if reason == Termination.SIEGE_FAILED:
        for p in (attacker, defender):
            if state._as_turn_of(p)._play_chances()[1]:
                problems.append(
                    f"the siege failed, but {_NAMES[p]} can play a card (nobody could any more)"
                )
        if state.to_move == attacker and state._provable_controls():
            problems.append(
                "the siege failed after the defender's pass, but the attacker can still "
                "declare control"
            )
    return problems


def _role(state: State, player: int) -> str:
    return f"{'attacker' if player == state.attacker else 'defender'} ({_NAMES[player]})"


def _may_have_passed(state: State, player: int) -> tuple[bool, str]:
    """Whether ``player`` may have passed at some earlier turn, and if not, why.

    A player passes only when it truly cannot play a card. The attacker can
    always retreat to make room, so it passed only without a siege card in
    hand; the defender, also when its sides were full. A hand without a siege
    card is an empty one once the piles ran out, or (with tactics) a full hand
    of tactic cards, each since played, still held or given in an exchange.
    Cards leave an intact tile's side only for the discard pile (or, by
    treason, the attacker's side).
    """
    who = _role(state, player)
    tactics = state.rules.tactics
    if state.hand_sizes[player] == 0 or (tactics and _piles_ran_dry(state)):
        return True, ""
    held = state.hand_tactics[player] if state.hand_tactics is not None else 0
    reach = held + state.tactics_played[player] + _EXCHANGED * _played(state, TacticCard.EXCHANGE)
    if tactics and reach >= state.rules.hand_size:
        return True, ""
    never = (
        f"the {who} never passed: it always held a siege card"
        if tactics
        else f"the {who} never passed: it holds siege cards, and a hand that runs out is never "
        "refilled"
    )
    if player == state.attacker:
        return False, never + ", and the attacker can always retreat to make room for one"
    gaps = sum(t.rule.size - len(t.sides[player]) for t in state.tiles if not t.damaged)
    if tactics:
        freed = len(state.discards) + 2 * _played(state, TacticCard.SUPPORT)
        freed += _played(state, TacticCard.RECRUITMENT) + _played(state, TacticCard.TREASON)
    else:
        # without tactic cards, only a 0 meeting the 11 of its colour leaves an intact tile
        freed = sum(
            1
            for c in state.discards
            if isinstance(c, Card) and c.value == 0 and Card(c.colour, 11) in state.discards
        )
    if gaps <= freed:
        return True, ""
    return False, (
        f"{never}, and its sides at intact tiles have room for {gaps} cards, more than have "
        "left them since"
    )


def _history_problems(state: State) -> list[str]:
    """The cards played against alternating turns (the attacker moves first)
    and the passes the rules allow; the oil thrown and the damage done."""
    problems: list[str] = []
    attacker, defender = state.attacker, state.defender
    holder = _turn_holder(state)
    done = state.phase not in (Phase.OPENING, Phase.PLAY)
    # turns the attacker has taken more than the defender (its card or pass counted)
    lead = int(holder == attacker and done) + int(holder == defender and not done)
    # Every play puts a card from a hand on a tile, on the discard pile (0 meets
    # 11) or on its player's side (an action); only a support takes cards
    # back out of sight (two, into the deck).
    pending = len(state.support or ())
    plays = sum(len(side) for t in state.tiles for side in t.sides)
    plays += len(state.discards) + len(state.actions[0]) + len(state.actions[1]) + pending
    plays += 2 * (_played(state, TacticCard.SUPPORT) - (state.phase is Phase.SHUFFLE))
    played = state.tactics_played
    siege_plays = plays - played[0] - played[1]
    own = [
        max(
            0,
            sum(1 for t in state.tiles for c in t.sides[p] if isinstance(c, Card))
            - state.actions[p].count(TacticCard.RECRUITMENT)
            - state.actions[p].count(TacticCard.TREASON),
        )
        for p in (0, 1)
    ]
    low = played[attacker] + own[attacker]
    high = played[attacker] + siege_plays - own[defender]
    can_pass = {p: _may_have_passed(state, p) for p in (attacker, defender)}
    if can_pass[attacker][0] and can_pass[defender][0]:
        fits = True
    elif can_pass[defender][0]:
        fits = 2 * high - plays >= lead
    elif can_pass[attacker][0]:
        fits = 2 * low - plays <= lead
    else:
        fits = (plays + lead) % 2 == 0 and low <= (plays + lead) // 2 <= high
    if not fits:
        mine = f"{low}" if low == high else f"{low} to {high}"
        theirs = f"{plays - high}" if low == high else f"{plays - high} to {plays - low}"
        why = "; ".join(text for ok, text in can_pass.values() if not ok)
        problems.append(
            f"turns alternate from the attacker's first, but the attacker ({_NAMES[attacker]}) "
            f"has played {mine} cards and the defender {theirs}; {why}"
        )
    # Each cauldron discards one attacker card, in a defender's turn.
    thrown = OIL_CAULDRONS - state.oil
    back = 2 * _played(state, TacticCard.SUPPORT) + _played(state, TacticCard.RECRUITMENT)
    if thrown > len(state.discards) + back:
        problems.append(
            f"{thrown} oil cauldrons thrown, each discarding an attacker's card, but "
            f"{len(state.discards)} cards lie on the discard pile"
        )
    elif not can_pass[defender][0]:
        turns = plays - low + int(holder == defender)
        if thrown > turns:
            problems.append(
                f"{thrown} oil cauldrons thrown, one at most in each of the defender's "
                f"{turns} turns"
            )
    # Damaging a tile discarded the attacker's complete formation on its intact side.
    damaged = [str(t.number) for t in state.tiles if t.damaged]
    needed = sum(_INTACT_SIZES[t.number] for t in state.tiles if t.damaged)
    if needed > len(state.discards) + back:
        which = f"tiles {', '.join(damaged)} are" if len(damaged) > 1 else f"tile {damaged[0]} is"
        problems.append(
            f"{which} damaged, each by a control discarding the attacker's formation there "
            f"({needed} cards), but {len(state.discards)} cards lie on the discard pile"
        )
    return problems


_ATTACKER_WINS = frozenset({Termination.CONTROLLED_DAMAGED_TILE, Termination.FOURTH_TILE_DAMAGED})


#: ``dataclasses.replace`` without its overhead (no checks: the rules made the
#: values): the hot path of replays and playouts. A misspelled field is an error.
_evolve = copier(State)
_set = object.__setattr__


_after_card = copier(State, "tiles", "hands", "hand_sizes", "phase", "ply", "late_control")
_after_draw = copier(
    State,
    "hands",
    "hand_sizes",
    "deck",
    "deck_size",
    "exhausted",
    "late_control",
    "to_move",
    "phase",
    "ply",
    "final_turn",
)
_tile_sides = copier(Tile, "sides", "completed")


def _fast_card(state: State, move: PlayCard) -> State | None:
    """The state after ``move`` when it is a siege card from a known hand to an
    open side with no chicken or cook to meet (what ``_play_card`` makes of
    it, without its checks); ``None`` for every other case."""
    card = move.card
    phase = state.phase
    if (
        type(card) is not Card
        or (phase is not _OPENING and phase is not _PLAY)
        or card.value == 0
        or card.value == 11
        or state.hand_tactics is None
    ):
        return None
    player = state.to_move
    hand = state.hands[player]
    number = move.tile
    if hand is None or not 1 <= number <= TILES:
        return None
    try:
        at = hand.index(card)  # a card in a hand is a siege card: the state was checked
    except ValueError:
        return None
    tile = state.tiles[number - 1]
    side = tile.sides[player]
    size = _SIZES[tile.number][tile.damaged]
    if len(side) >= size:
        return None
    new_side = (*side, card)
    done = state.ply if len(new_side) == size else None
    if player == 0:
        placed = _tile_sides(tile, (new_side, tile.sides[1]), (done, tile.completed[1]))
    else:
        placed = _tile_sides(tile, (tile.sides[0], new_side), (tile.completed[0], done))
    global _LAST_SEEN
    tiles = state.tiles
    new_tiles = (*tiles[: number - 1], placed, *tiles[number:])
    last, discards, mask = _LAST_SEEN
    if last is tiles and discards is state.discards:
        _LAST_SEEN = (new_tiles, discards, mask | _BIT[card])
    return _after_card(
        state,
        new_tiles,
        replaced(state.hands, player, hand[:at] + hand[at + 1 :]),
        replaced(state.hand_sizes, player, state.hand_sizes[player] - 1),
        _AFTER_PLAY,
        state.ply + 1,
        False,
    )


def _fast_draw(state: State, move: Draw) -> State | None:
    """The state after a draw from a known siege deck into a known hand that
    does not end the game (what ``_draw`` and ``_next_turn`` make of it);
    ``None`` for every other case."""
    player = state.to_move
    hand, deck = state.hands[player], state.deck
    if (
        state.phase is not _AFTER_PLAY
        or move.pile != "siege"
        or not state.deck_size
        or not deck
        or hand is None
        or (player == state.attacker and state.final_turn)
    ):
        return None
    following = 1 - player
    exhausted = state.exhausted or state.deck_size == 1
    return _after_draw(
        state,
        replaced(state.hands, player, (*hand, deck[0])),
        replaced(state.hand_sizes, player, state.hand_sizes[player] + 1),
        deck[1:],
        state.deck_size - 1,
        exhausted,
        player == state.attacker,
        following,
        _OPENING,
        state.ply + 1,
        following == state.attacker and exhausted,
    )


def _piece(card: AnyCard) -> Piece:
    return card.wildcard if isinstance(card, TacticCard) else _PAIRS[card]


def _pieces(side: Iterable[AnyCard]) -> list[Piece]:
    return [_piece(c) for c in side]


def _place(tiles: list[Tile], number: int, player: int, card: AnyCard, ply: int) -> list[AnyCard]:
    """Put ``card`` on ``player``'s side of tile ``number`` (room already checked).

    Chicken against cook: a 0 arriving opposite the 11 of its colour (or an 11
    opposite the 0) is discarded together with it. Returns the discarded cards.
    """
    tile = tiles[number - 1]
    other = tile.sides[1 - player]
    if isinstance(card, Card) and card.value in (0, 11):
        rival = Card(card.colour, 11 - card.value)
        if rival in other:
            left = list(other)
            left.remove(rival)
            tiles[number - 1] = tile.with_side(1 - player, left, ply)
            return [card, rival]
    tiles[number - 1] = tile.with_side(player, (*tile.sides[player], card), ply)
    return []


def _remove(tiles: list[Tile], number: int, player: int, card: AnyCard, ply: int) -> None:
    """Take the earliest-placed ``card`` off ``player``'s side of tile ``number``."""
    tile = tiles[number - 1]
    side = list(tile.sides[player])
    side.remove(card)
    tiles[number - 1] = tile.with_side(player, side, ply)


def new_game(
    *,
    seed: int | None = None,
    deck: Iterable[Card] | None = None,
    tactic_deck: Iterable[TacticCard] | None = None,
    attacker: int = 0,
    rules: Rules | None = None,
) -> State:
    """Set up a game from a seed (shuffled piles) or explicit pile orders.

    The deal: player 0 takes the first 6 siege cards (7 with tactics), player 1
    the next 6 (7), and the rest is the siege deck, top first. The attacker
    moves first and the defender holds the 3 oil cauldrons.

    >>> game = new_game(deck=SIEGE_CARDS.cards, attacker=1)
    >>> [str(c) for c in game.hands[0]], str(game.deck[0]), game.to_move
    (['R0', 'R1', 'R2', 'R3', 'R4', 'R5'], 'Y0', 1)
    >>> new_game(attacker=1.0)
    Traceback (most recent call last):
    ...
    ValueError: attacker must be 0 or 1, not 1.0
    """
    rules = _check_rules(rules)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidDealError("field_type", f"seed must be a whole number or None, not {seed!r}")
    if seed is not None and (deck is not None or tactic_deck is not None):
        raise ValueError("give a seed or the pile orders, not both")
    _check_attacker(attacker)
    for name, pile in (("deck", deck), ("tactic_deck", tactic_deck)):
        if pile is not None and (isinstance(pile, (str, bytes)) or not isinstance(pile, Iterable)):
            raise ValueError(f"{name} must be a sequence of cards, not {pile!r}")
    rng = random.Random(seed)
    if deck is None:
        order = list(SIEGE_CARDS.cards)
        rng.shuffle(order)
    else:
        order = list(deck)
        _check_pile(order, Counter(SIEGE_CARDS.cards), "the siege deck", "60 siege cards")
    tactics: list[TacticCard] = []
    if rules.tactics:
        if tactic_deck is None:
            tactics = list(TACTIC_CARDS)
            rng.shuffle(tactics)
        else:
            tactics = list(tactic_deck)
            _check_pile(tactics, Counter(TACTIC_CARDS), "the tactic pile", "11 tactic cards")
    elif tactic_deck is not None and list(tactic_deck):
        raise ValueError("the base game has no tactic pile")
    # the deal's chance comes from the rng that dealt (0 when the piles are given)
    chance_seed = rng.getrandbits(32) if deck is None else 0
    return _trusted_deal(rules, order, tactics, attacker, chance_seed)


#: (rules, attacker) -> a game dealt from the piles in card order, checked
_DEALT: dict[tuple[Rules, int], State] = {}
_redealt = copier(State, "hands", "deck", "tactic_deck", "chance_seed", "past")
_with_past = copier(State, "past")


def _trusted_deal(
    rules: Rules, order: list[Card], tactics: list[TacticCard], attacker: int, chance_seed: int
) -> State:
    """The start of a game dealt from piles that hold every card once (checked
    by :func:`new_game`): what ``State._dealt`` builds, without checking the
    position again. Every such deal is well formed and differs from the deal
    of the piles in card order (built and checked once) only in the order of
    the hands and piles, so it is that deal with them replaced."""
    model = _DEALT.get((rules, attacker))
    if model is None:
        model = State._dealt(
            rules,
            list(SIEGE_CARDS.cards),
            list(TACTIC_CARDS) if rules.tactics else [],
            attacker=attacker,
            to_move=attacker,
            chance_seed=0,
        )
        remember(_DEALT, (rules, attacker), model)
    size = rules.hand_size
    hands = (tuple(order[:size]), tuple(order[size : 2 * size]))
    state = _redealt(
        model, hands, tuple(order[2 * size :]), tuple(tactics), chance_seed, NO_HISTORY
    )
    return _with_past(state, History.begin(state))


def public_game(
    *, attacker: int = 0, rules: Rules | None = None, siege_failed_at: int | None = None
) -> State:
    """The start of a game whose deal is unknown (for public records).

    ``siege_failed_at``: the record ends after that many plies saying the
    siege failed. A pass that ends the record there ends the game as a failed
    siege when some hands consistent with what is known play nothing (a replay
    that sees no hand cannot tell otherwise; the record's deal check then asks
    for such hands), not only when no hand could play.

    >>> start = public_game(rules=Rules(tactics=True))
    >>> start.hands, start.hand_sizes, start.deck_size, start.tactic_deck_size
    ((None, None), (7, 7), 46, 11)
    """
    rules = _check_rules(rules)
    _check_attacker(attacker)
    if siege_failed_at is not None and (
        isinstance(siege_failed_at, bool) or not isinstance(siege_failed_at, int)
    ):
        raise ValueError(f"siege_failed_at must be a ply number or None, not {siege_failed_at!r}")
    tactics = len(TACTIC_CARDS) if rules.tactics else 0
    return State._hidden_deal(
        rules,
        len(SIEGE_CARDS.cards),
        tactics,
        attacker=attacker,
        to_move=attacker,
        siege_failed_at=siege_failed_at,
    )


def _check_rules(rules: object) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules) or not isinstance(rules.tactics, bool):
        raise ValueError(f"rules must be a Rules value, not {rules!r}")
    return rules


def _check_attacker(attacker: object) -> None:
    if isinstance(attacker, bool) or not isinstance(attacker, int) or attacker not in (0, 1):
        raise ValueError(f"attacker must be 0 or 1, not {attacker!r}")


def _check_pile(order: Sequence[Any], expected: Counter[Any], name: str, what: str) -> None:
    unknown = [c for c in order if not isinstance(c, (Card, TacticCard)) or c not in expected]
    if unknown:
        raise ValueError(f"{name} holds a card that does not belong there: {unknown[0]}")
    have = Counter(order)
    if have != expected:
        missing = sorted(map(str, (expected - have).elements()))
        repeated = sorted(map(str, (have - expected).elements()))
        problems = []
        if missing:
            problems.append("missing " + " ".join(missing[:5]))
        if repeated:
            problems.append("repeated " + " ".join(repeated[:5]))
        raise ValueError(f"{name} must hold the {what} once each: " + "; ".join(problems))


#: What the player to move is doing, in each phase of a turn, in words: (the
#: attacker's, the defender's). The text picture and the SVG picture both say it.
DOING = {
    "opening": ("to retreat or play a card", "to pour oil or play a card"),
    "play": ("to play a card", "to play a card"),
    "after_play": ("to take control of a tile or draw", "to draw"),
    "after_pass": ("to take control of a tile or end the turn", "to end the turn"),
    "shuffle": ("", ""),
    "exchange": ("to answer the exchange", "to answer the exchange"),
}


def render(state: State) -> str:
    """The terminal picture of a position (also ``str(state)``)."""
    roles = {state.attacker: "attacker", state.defender: "defender"}
    variant = "tactics" if state.rules.tactics else "base game"
    if state.outcome is not None and state.outcome.winner is not None:
        who = state.outcome.winner
        status = f"game over: player {who + 1} ({roles[who]}) wins ({state.outcome.reason})"
    else:
        doing = DOING[state.phase.value][0 if state.to_move == state.attacker else 1]
        status = f"player {state.to_move + 1} ({roles[state.to_move]}) to move" + (
            f": {doing}" if doing else ""
        )
        if state.final_turn:
            status += ", the attacker's last turn"
    att, dfd = state.attacker, state.defender
    lines = [
        f"Schotten Totten 2 ({variant}) - ply {state.ply}, {status}",
        f"{'tile':<7}{'side':<9}{'rule':<36}{f'attacker (player {att + 1})':<24}"
        f"defender (player {dfd + 1})",
    ]
    for tile in state.tiles:
        name = f"{tile.number}" + (" gate" if tile.number == GATE else "")
        side = "damaged" if tile.damaged else "intact"
        left = " ".join(map(str, tile.sides[att])) or "-"
        right = " ".join(map(str, tile.sides[dfd])) or "-"
        lines.append(f"{name:<7}{side:<9}{tile.rule.describe():<36}{left:<24}{right}".rstrip())
    lines.append(f"oil cauldrons left: {state.oil}")
    shown = " ".join(map(str, state.discards)) or "none"
    lines.append(f"discards ({len(state.discards)}): {shown}")
    if state.rules.tactics:
        played = "; ".join(
            f"player {p + 1}: {state.tactics_played[p]} played"
            + (f" (actions {' '.join(map(str, state.actions[p]))})" if state.actions[p] else "")
            for p in (0, 1)
        )
        lines.append(f"tactic cards: {played}")
    for player in (0, 1):
        hand = state.hands[player]
        text = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        lines.append(f"player {player + 1} hand ({state.hand_sizes[player]}): {text}")
    piles = f"deck: {state.deck_size} cards"
    if state.rules.tactics:
        piles += f"; tactic pile: {state.tactic_deck_size} cards"
    if state.exhausted:
        piles += " (the last siege card has been drawn)"
    lines.append(piles)
    return "\n".join(lines)
