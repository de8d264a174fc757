"""The Schotten Totten 2 position: an immutable state, its fields and what it shows.

The rules of a turn are in :mod:`~referee.schotten_totten_2.rules` (the
tactic cards' in :mod:`~referee.schotten_totten_2.tactics`, the control's
proof in :mod:`~referee.schotten_totten_2.claims`), the legal moves in
:mod:`~referee.schotten_totten_2.legal`, the position checks in
:mod:`~referee.schotten_totten_2.status`, the deal in
:mod:`~referee.schotten_totten_2.start`; the state holds the position and
asks them.

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

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from referee.cards import Card
from referee.game import NO_HISTORY, History, Outcome, check_player
from referee.line import LineState, check_viewer
from referee.line.place import slot_writer
from referee.prover import ClaimVerdict, Engine
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
    ALL_SIEGE,
    ALL_TACTICS,
    INDEX,
    TILES,
    AnyCard,
    TacticCard,
    Tile,
)

# Names importable from here before the state was split (re-exported).
from referee.schotten_totten_2.wall import GATE as GATE
from referee.schotten_totten_2.wall import SIEGE_CARDS as SIEGE_CARDS
from referee.schotten_totten_2.wall import TACTIC_CARDS as TACTIC_CARDS
from referee.schotten_totten_2.wall import TACTIC_COUNT as TACTIC_COUNT
from referee.schotten_totten_2.wall import WALL as WALL

__all__ = [
    "DOING",
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
    "seen_of",
]

#: Cards in hand in the base game.
HAND_SIZE = 6
#: Cards in hand with the tactics variant.
TACTICS_HAND_SIZE = 7
#: Oil cauldrons the defender starts with.
OIL_CAULDRONS = 3
#: Damaged tiles that win the game for the attacker.
DAMAGED_TO_WIN = 4
#: Cards per side of an exchange.
EXCHANGED = 3

_EMPTY_TILES = tuple(Tile(n) for n in range(1, TILES + 1))


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
        return ALL_TACTICS if self.tactics else ALL_SIEGE


def as_seen_in_a_view(move: Move) -> Move:
    """``move`` as a view's history shows it: where the support's cards went into
    the deck is seen by nobody, so a shuffle is written without its places."""
    if type(move) is Shuffle and move.positions is not None:
        return Shuffle()
    return move


@dataclass(frozen=True, slots=True)
class State(LineState[Move]):
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
    #: The mask of the visible siege cards: on the tiles and discarded
    #: (derived; bit ``INDEX.ids[card]``).
    seen: int = field(default=0, init=False, compare=False, repr=False)

    # The game's parts of the shared scaffolding (plain class attributes, not fields).
    _NAME = "Schotten Totten 2"
    _PLACES = "tiles"
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
        problems = _status.field_problems(self)
        if not problems:
            _SEEN(self, seen_of(self.tiles, self.discards))
            _status.derive(self)
            problems = _status.problems(self, reachable=False)
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
        problems = _status.field_problems(self)
        return tuple(problems or _status.problems(self, reachable=True))

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
        return list(INDEX.cards_of(INDEX.everything & ~self.seen))

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
        return _claims.verdict(self, self.tile(number), engine)

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
        return _legal.chance_outcomes(self)

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move for the player to move, as a new list
        (:meth:`legal_moves` is the lazy view of it; see
        :mod:`~referee.schotten_totten_2.legal` for what is listed)."""
        return _legal.legal_moves(self)

    def _apply(self, move: Move, past: History[Move]) -> State:
        return _rules.apply(self, move, past)

    def _changed(self, **changes: Any) -> State:
        """A copy with the named fields changed, unchecked (views, ends: the
        rules made the values; see :func:`~referee.schotten_totten_2.made.evolve`)."""
        return evolve(self, **changes)

    # --- what other modules ask of a position -----------------------------------

    def _opening_variants(self) -> list[State]:
        """This position and what an opening action can make of it (see
        :func:`referee.schotten_totten_2.legal.opening_variants`)."""
        return _legal.opening_variants(self)

    def _tactic_plays(self, card: TacticCard, open_tiles: list[int]) -> list[Move]:
        """The plays of ``card`` by the player to move (see
        :func:`referee.schotten_totten_2.legal.tactic_plays`)."""
        return _legal.tactic_plays(self, card, open_tiles)

    def _as_turn_of(self, player: int) -> State:
        """This position at the start of a turn of ``player`` (for look-ahead only)."""
        return evolve(self, to_move=player, phase=Phase.OPENING, late_control=False, support=None)


def seen_of(tiles: Iterable[Tile], discards: Iterable[AnyCard]) -> int:
    """The mask of the siege cards on ``tiles`` and among ``discards``.

    >>> game = new_game(seed=1)
    >>> seen_of(game.tiles, game.discards)
    0
    """
    seen = INDEX.mask(c for c in discards if type(c) is Card)
    for tile in tiles:
        masks = tile.masks
        seen |= masks[0] | masks[1]
    return seen


#: The derived field written when a state is made (``__post_init__``).
_SEEN = slot_writer(State, "seen")


# The state's jobs, each in its own module (they import this one).
from referee.schotten_totten_2 import claims as _claims  # noqa: E402
from referee.schotten_totten_2 import legal as _legal  # noqa: E402
from referee.schotten_totten_2 import rules as _rules  # noqa: E402
from referee.schotten_totten_2 import status as _status  # noqa: E402
from referee.schotten_totten_2.made import evolve  # noqa: E402
from referee.schotten_totten_2.render import DOING, render  # noqa: E402
from referee.schotten_totten_2.start import new_game, public_game  # noqa: E402

#: ``dataclasses.replace`` without its checks (the name other modules import).
_evolve = evolve
