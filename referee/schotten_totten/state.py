"""The Schotten Totten position: an immutable state, its fields and what it shows.

The rules of a turn are in :mod:`~referee.schotten_totten.rules` (the tactic
cards' in :mod:`~referee.schotten_totten.tactics`, the claim's in
:mod:`~referee.schotten_totten.claims`), the legal moves in
:mod:`~referee.schotten_totten.legal`, the position checks in
:mod:`~referee.schotten_totten.status`; the state holds the position and asks
them.

>>> from referee.schotten_totten import new_game
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

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Literal

from referee.cards import Card
from referee.formations import FormationRule
from referee.game import NO_HISTORY, History, LegalMoves, Outcome, check_player
from referee.line import LineState
from referee.line import tactics as line_tactics
from referee.line.place import Place, slot_writer
from referee.prover import ClaimVerdict, Engine
from referee.schotten_totten.cards import (
    BLIND_FORMATION,
    CLAN_CARDS,
    FORMATION,
    HAND_SIZE,
    INDEX,
    MUD_FORMATION,
    STONES,
    AnyCard,
    Tactic,
)
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
from referee.schotten_totten.render import render

__all__ = [
    "BLIND_FORMATION",
    "CLAN_CARDS",
    "FORMATION",
    "HAND_SIZE",
    "MUD_FORMATION",
    "STONES",
    "Phase",
    "Reason",
    "Rules",
    "State",
    "Stone",
    "as_seen_in_a_view",
]


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
class Stone(Place):
    """One stone: both sides' cards in play order, completion times, owner, and
    the combat style lying on it (Blind Man's Bluff or Mud Fight), if any.

    ``completed`` holds, per side, the ply at which that side's formation was
    completed (``None`` while incomplete); ties go to the earlier one. A stone
    also keeps (see :class:`~referee.line.place.Place`) each side's clan cards
    as a mask, the size of a complete side here and the verdicts last proved
    here (:class:`~referee.line.claims.Kept`).
    """

    owner: int | None = None
    style: Tactic | None = None

    _INDEX = INDEX

    @property
    def rule(self) -> FormationRule:
        """How formations form and compare at this stone."""
        if self.style is None:
            return FORMATION
        return MUD_FORMATION if self.style.name == "mud_fight" else BLIND_FORMATION

    def room(self, player: int) -> bool:
        """Whether ``player`` may still add a card here."""
        return self.owner is None and len(self.sides[player]) < self.size

    def _remade(
        self,
        sides: tuple[tuple[AnyCard, ...], ...],
        completed: tuple[int | None, ...],
        masks: tuple[int, int],
    ) -> Stone:
        return made_stone(sides, completed, masks, self.size, self.owner, self.style)


_EMPTY_STONES = tuple(Stone() for _ in range(STONES))


def as_seen_in_a_view(move: Move) -> Move:
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
    ``jokers_played`` whether each player has played a joker. ``seen`` is the
    mask of the visible clan cards (on the stones and discarded), derived;
    ``open_sides`` and ``complete_sides`` the sides of the unclaimed stones
    with room and complete, as masks (bit ``9 * player + stone index``),
    derived (see :func:`sides_of`).
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
    #: The mask of the visible clan cards (derived from the stones and the discards).
    seen: int = field(default=0, init=False, compare=False, repr=False)
    #: The sides of the unclaimed stones with room, as a mask (derived: see :func:`sides_of`).
    open_sides: int = field(default=0, init=False, compare=False, repr=False)
    #: The complete sides of the unclaimed stones, as a mask (derived: see :func:`sides_of`).
    complete_sides: int = field(default=0, init=False, compare=False, repr=False)

    # The game's parts of the shared scaffolding (plain class attributes, not fields).
    _NAME = "Schotten Totten"
    _MOVE_TYPES = frozenset(
        (PlayCard, Draw, Claim, EndTurn, Pass, Recruit, PutBack, Strategist, Banshee, Traitor)
    )
    _GAME_OVER = Reason.GAME_OVER
    _NOT_YOUR_TURN = Reason.NOT_YOUR_TURN
    _as_seen = staticmethod(as_seen_in_a_view)
    _parse = staticmethod(parse_move)

    def __post_init__(self) -> None:
        # The one place where a made state's derived fields are written.
        _SEEN(self, seen_of(self.stones, self.discards))
        open_sides, complete_sides = sides_of(self.stones)
        _OPEN_SIDES(self, open_sides)
        _COMPLETE_SIDES(self, complete_sides)

    # --- reading the position -------------------------------------------------

    def visible_cards(self) -> Counter[Card]:
        """Every clan card both players can see: on the stones and discarded,
        counted (once each: the clan cards are all different), as in every game."""
        return Counter(INDEX.cards_of(self.seen))

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
        return list(INDEX.cards_of(INDEX.everything & ~self.seen))

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

        >>> from referee.schotten_totten import public_game
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
        return self.clans_in_hand(p) > 0 and self.open_sides >> 9 * p & ALL_STONES != 0

    def claims_now(self) -> bool:
        """Whether the player to move may claim stones at this point of its turn.

        2024: after playing (or passing), before the draw; with Der frühe Vogel
        only at the start of the turn. 1999: at any time before the draw, so
        also before playing a card.
        """
        return claims_now(self.rules, self.phase)

    def may_play_tactic(self, player: int | None = None) -> bool:
        """Whether the tactic limit lets ``player`` (default: to move) play one now."""
        p = self.to_move if player is None else player
        return self.rules.tactics and line_tactics.may_play_tactic(self.tactics_played, p)

    def status(self) -> tuple[str, ...]:
        """Every reason this position could not arise from a deal by legal play
        (empty when it can), like python-chess's ``Board.status()``; each
        problem names where (``"stone 3: ..."``, ``"player 2 ..."``). See
        :mod:`~referee.schotten_totten.status` for what is checked. Loading a
        position refuses it when this is not empty.

        >>> from referee.schotten_totten import new_game
        >>> new_game(seed=1).status()
        ()
        >>> from dataclasses import replace
        >>> spectator = new_game(seed=1).view(None)
        >>> replace(spectator, hand_sizes=(3, 6), deck_size=45).status()
        ('player 1 holds 3 cards but 45 cards are still to draw: a hand is refilled to 6 after every card played while a pile has cards',)
        """
        return tuple(_status.problems(self))

    def view(self, player: int | None) -> State:
        """What ``player`` can see: the opponent's hand and the piles' order hidden.

        ``None`` is a spectator's view: both hands hidden.

        >>> from referee.schotten_totten import new_game
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
                for pile, name in zip(under, PILE_NAMES, strict=True)
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
        return _claims.verdict(self, self.stone(number), claimant, engine)

    # --- moves ------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move in the game's notation (see :mod:`referee.schotten_totten.moves`)."""
        return parse_move(text)

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move for the player to move, as a new list (see
        :mod:`~referee.schotten_totten.legal` for their order)."""
        return _legal.legal_moves(self)

    def legal_moves(self) -> LegalMoves[Move]:
        """Every legal move for the player to move, as a lazy view (see
        :class:`~referee.game.LegalMoves`; the order is
        :mod:`~referee.schotten_totten.legal`'s)."""
        return _legal.legal_view(self)

    def _legal_sequence(self) -> Sequence[Move]:
        return _legal.legal_sequence(self)

    def _apply(self, move: Move, past: History[Move]) -> State:
        return _rules.apply(self, move, past)


def seen_of(stones: Iterable[Stone], discards: Iterable[AnyCard]) -> int:
    """The mask of the clan cards on ``stones`` and among ``discards``."""
    seen = INDEX.mask(c for c in discards if type(c) is Card)
    for stone in stones:
        masks = stone.masks
        seen |= masks[0] | masks[1]
    return seen


def sides_of(stones: Sequence[Stone]) -> tuple[int, int]:
    """The sides of the unclaimed ``stones`` with room and those complete, as
    masks: bit ``9 * player + i`` stands for ``player``'s side of ``stones[i]``
    (``STONES_IN`` lists a player's stones from its nine bits).

    >>> from referee.schotten_totten import new_game
    >>> open_sides, complete_sides = sides_of(new_game(seed=1).stones)
    >>> STONES_IN[open_sides >> 9 & ALL_STONES], complete_sides
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), 0)
    """
    open_sides = complete_sides = 0
    for i, stone in enumerate(stones):
        if stone.owner is None:
            size = stone.size
            first, second = stone.sides[0], stone.sides[1]
            if len(first) < size:
                open_sides |= 1 << i
            elif len(first) == size:
                complete_sides |= 1 << i
            if len(second) < size:
                open_sides |= 1 << 9 + i
            elif len(second) == size:
                complete_sides |= 1 << 9 + i
    return open_sides, complete_sides


#: The nine bits of one player's sides in :func:`sides_of`'s masks.
ALL_STONES = (1 << STONES) - 1
#: The stone indexes of each nine-bit mask (data, made at import).
STONES_IN = tuple(tuple(i for i in range(STONES) if mask >> i & 1) for mask in range(1 << STONES))


def claims_now(rules: Rules, phase: Phase) -> bool:
    """Whether claims may be made in ``phase`` under ``rules`` (see :meth:`State.claims_now`)."""
    if rules.early_bird:
        return phase is Phase.PLAY
    if phase is Phase.RECRUIT_RETURN:
        return False
    return rules.edition == "1999" or phase is not Phase.PLAY


#: The derived field written when a state is made (``__post_init__``).
_SEEN = slot_writer(State, "seen")
_OPEN_SIDES = slot_writer(State, "open_sides")
_COMPLETE_SIDES = slot_writer(State, "complete_sides")

#: The piles' names, clan pile first.
PILE_NAMES = ("clan", "tactic")


# The state's jobs, each in its own module (they import this one).
from referee.schotten_totten import claims as _claims  # noqa: E402
from referee.schotten_totten import legal as _legal  # noqa: E402
from referee.schotten_totten import rules as _rules  # noqa: E402
from referee.schotten_totten import status as _status  # noqa: E402
from referee.schotten_totten.made import made_stone  # noqa: E402
