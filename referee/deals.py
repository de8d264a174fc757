"""Deals that fit a public record: could anyone have held the cards they played?

A public record shows every move but not the deal. It is legal only if *some*
deal makes every visible move possible. This module decides that question for
any card game described as a :class:`DealProblem`: piles of cards in an unknown
order, and the visible events that move cards between piles and hands.

The events, in record order (``ply`` 0 is the set-up):

* :class:`Draw`: a player takes the top card of a pile (dealing is drawing);
* :class:`Spend`: a named card leaves a player's hand (played, given away);
* :class:`PutBack`: a card goes from a hand under a pile, named or hidden;
* :class:`Receive`: a named card enters a player's hand;
* :class:`Insert`: named cards go into a pile at given (or unknown) places;
* :class:`Lacks`: a hand holds none of some cards (a player who passed holds
  no card it could have played).

The solver is exact. Cards never change pile, so each pile is solved on its
own. Within a pile, a place of the deal stays anonymous until a move pins it
down: every card that leaves a hand needs a place its player drew earlier, each
place holding one card. That is a bipartite matching between the named cards
and the places, grown by augmenting paths as the record goes on, so the first
event no deal fits is found at once. Cards shuffled in at unrecorded places are
not given places either: the stretch of the pile they join is again a multiset
in unknown order, and the matching only asks that a place drawn from it take a
card it can hold (a flow over the places settles the cards no move pins down).
What a hidden put-back put back is tried one choice at a time, one place per
group that no later event can tell apart (see ``_Sim.put_back_options``); so are
the stretch of the pile between put-back cards an unrecorded insert joins, and,
for a card both dealt and shuffled in, which copy a move used. The record fits
if one combination does.

The work is bounded: a problem with more than :data:`MAX_CASES` combinations of
hidden choices is refused at once with :class:`DealSearchLimitError` (a game's
record never comes near: Schotten Totten has at most two hidden returns, and
Schotten Totten 2 shuffles into a pile that holds no put-back card). A
malformed problem raises :class:`DealProblemError`. ``tests/deals/test_solver.py``
checks all of it against brute force.

    >>> problem = DealProblem(
    ...     piles={"deck": ("A", "B", "C", "D")},
    ...     events=(Draw(0, 0, "deck"), Draw(0, 1, "deck"), Spend(1, 0, "B"), Spend(2, 1, "B")),
    ...     players=2,
    ... )
    >>> answer = solve(problem)
    >>> answer.fits, answer.ply, answer.reason
    (False, 2, 'card_never_held')
    >>> print(answer.message)
    no deal fits: player 2 plays B, but B was played by player 1
    >>> solve(DealProblem({"deck": ("A", "B")}, (Draw(0, 0, "deck"), Spend(1, 0, "B")), 2)).deal
    {'deck': ('B', 'A')}
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.games import DealModel
    from referee.records import Match, Record

__all__ = [
    "MAX_CASES",
    "DealAnswer",
    "DealProblem",
    "DealProblemError",
    "DealSearchLimitError",
    "Draw",
    "Event",
    "Insert",
    "Lacks",
    "PutBack",
    "Receive",
    "Spend",
    "check_record",
    "solve",
    "witness",
    "witness_json",
]

#: The most combinations of hidden choices :func:`solve` tries for one pile: what
#: each hidden put-back put back (one card per group of cards no later event can
#: tell apart), which stretch between put-back cards each unrecorded insert joins,
#: and which copy of a card both dealt and shuffled in each later move used.
MAX_CASES = 256


class DealProblemError(ValueError):
    """A malformed :class:`DealProblem`; the message quotes the bad input.

    >>> solve(DealProblem({"deck": ("A",)}, (Draw(0, -1, "deck"),)))
    Traceback (most recent call last):
    ...
    referee.deals.DealProblemError: event 0 Draw(ply=0, player=-1, pile='deck'): player -1 is not one of the 2 players (0-1)
    """


class DealSearchLimitError(ValueError):
    """A problem with more than :data:`MAX_CASES` combinations of hidden choices
    in one pile, refused before any is tried; the message says how many hidden
    put-backs and unrecorded inserts it has."""


@dataclass(frozen=True)
class Draw:
    """``player`` takes the top card of ``pile``."""

    ply: int
    player: int
    pile: str


@dataclass(frozen=True)
class Spend:
    """The named ``card`` leaves ``player``'s hand (played or given away)."""

    ply: int
    player: int
    card: str


@dataclass(frozen=True)
class PutBack:
    """``player`` puts ``card`` (``None``: a hidden card of ``pile``) under ``pile``;
    a hidden card is none of ``excluded`` (cards the rules forbid to put back)."""

    ply: int
    player: int
    pile: str
    card: str | None = None
    excluded: tuple[str, ...] = ()


@dataclass(frozen=True)
class Receive:
    """The named ``card`` enters ``player``'s hand (it was seen leaving elsewhere)."""

    ply: int
    player: int
    card: str


@dataclass(frozen=True)
class Insert:
    """Named ``cards`` go into ``pile`` at ``positions`` (1 = top), in that order;
    ``None``: the places are not recorded."""

    ply: int
    pile: str
    cards: tuple[str, ...]
    positions: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Lacks:
    """``player``'s hand holds none of ``cards`` now (say, it passed, so it holds
    no card it could have played); ``doing`` names the move, for messages."""

    ply: int
    player: int
    cards: frozenset[str]
    doing: str = "passes"


#: Any visible event.
Event = Draw | Spend | PutBack | Receive | Insert | Lacks


@dataclass(frozen=True)
class DealProblem:
    """The piles as dealt (each a multiset of card names; its order is the unknown)
    and the visible events in record order."""

    piles: Mapping[str, tuple[str, ...]]
    events: tuple[Event, ...]
    players: int = 2


@dataclass(frozen=True)
class DealAnswer:
    """Whether a deal fits, and if so one that does.

    ``ply`` is the first ply that no deal fits (``None`` when one fits all),
    with a stable ``reason`` code (``card_never_held``: that card cannot be in
    that hand then, whatever the deal; ``no_consistent_deal``: each card could
    be, but not all of them at once) and a ``message`` for people. ``deal``
    gives each pile's order, top first; ``hidden`` the card chosen for each
    hidden :class:`PutBack` and ``positions`` the places chosen for each
    :class:`Insert` without recorded places (both by event index).
    """

    fits: bool
    ply: int | None = None
    reason: str | None = None
    message: str | None = None
    deal: dict[str, tuple[str, ...]] | None = None
    hidden: dict[int, str] = field(default_factory=dict)
    positions: dict[int, tuple[int, ...]] = field(default_factory=dict)


# --- checking a problem ------------------------------------------------------------------

_EVENTS = (Draw, Spend, PutBack, Receive, Insert, Lacks)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value: object, what: Callable[[], str]) -> tuple[str, ...]:
    """``value`` as a tuple of card names, or a :class:`DealProblemError` that
    says ``what()`` it is."""
    if isinstance(value, str) or not isinstance(value, tuple | list | set | frozenset):
        raise DealProblemError(f"{what()}: expected a collection of card names, not {value!r}")
    for card in value:
        if type(card) is not str or not card:
            if isinstance(card, str) and card:
                continue
            raise DealProblemError(f"{what()}: card {card!r} is not a non-empty string")
    if isinstance(value, tuple):
        return value
    return tuple(sorted(value)) if isinstance(value, set | frozenset) else tuple(value)


def _checked(problem: object) -> DealProblem:
    """``problem`` with its collections as tuples and frozensets, or a
    :class:`DealProblemError` naming the first malformed part."""
    if not isinstance(problem, DealProblem):
        raise DealProblemError(f"expected a DealProblem, not {problem!r}")
    players = problem.players
    if not _whole(players) or players < 1:
        raise DealProblemError(f"players must be a whole number >= 1, not {players!r}")
    if not isinstance(problem.piles, Mapping):
        raise DealProblemError(f"piles must map pile names to cards, not {problem.piles!r}")
    piles: dict[str, tuple[str, ...]] = {}
    home: dict[str, str] = {}
    for name, cards in problem.piles.items():
        if not isinstance(name, str) or not name:
            raise DealProblemError(f"pile name {name!r} is not a non-empty string")
        if isinstance(cards, set | frozenset):
            raise DealProblemError(f"pile {name!r}: expected a tuple of card names, not {cards!r}")
        piles[name] = _names(cards, lambda name=name: f"pile {name!r}")  # type: ignore[misc]
        for card in piles[name]:
            if home.setdefault(card, name) != name:
                raise DealProblemError(
                    f"card {card!r} is in two piles: {home[card]!r} and {name!r}"
                )
    events = problem.events
    if isinstance(events, str) or not isinstance(events, tuple | list):
        raise DealProblemError(f"events must be a tuple of events, not {events!r}")
    sizes = {name: len(cards) for name, cards in piles.items()}
    checked = [
        _checked_event(index, event, piles, home, sizes, players)
        for index, event in enumerate(events)
    ]
    last = 0
    for index, event in enumerate(checked):
        if event.ply < last:
            raise DealProblemError(
                f"event {index} {event!r}: ply {event.ply} comes after ply {last}"
            )
        last = event.ply
    return DealProblem(piles, tuple(checked), players)


def _checked_event(
    index: int,
    event: object,
    piles: Mapping[str, tuple[str, ...]],
    home: Mapping[str, str],
    sizes: dict[str, int],
    players: int,
) -> Event:
    """One event, checked (and its collections made tuples), with ``sizes``
    (each pile's size) moved on past it."""
    kind = type(event)
    if kind not in _EVENTS and not isinstance(event, _EVENTS):
        raise DealProblemError(
            f"event {index}: expected a Draw, Spend, PutBack, Receive, Insert or Lacks, "
            f"not {event!r}"
        )
    assert isinstance(event, _EVENTS)

    def where() -> str:
        return f"event {index} {event!r}"

    ply = event.ply
    if not _whole(ply) or ply < 0:
        raise DealProblemError(f"{where()}: ply must be a whole number >= 0, not {ply!r}")
    if kind is not Insert:
        assert not isinstance(event, Insert)
        player = event.player
        if not _whole(player) or not 0 <= player < players:
            raise DealProblemError(
                f"{where()}: player {player!r} is not one of the {players} players "
                f"(0-{players - 1})"
            )
    if isinstance(event, Draw | PutBack | Insert) and (
        not isinstance(event.pile, str) or event.pile not in piles
    ):
        known = ", ".join(repr(name) for name in piles) or "none"
        raise DealProblemError(f"{where()}: unknown pile {event.pile!r} (piles: {known})")
    if isinstance(event, Spend | Receive):
        if not isinstance(event.card, str) or not event.card:
            raise DealProblemError(f"{where()}: card {event.card!r} is not a non-empty string")
        if kind is Receive and event.card not in home:
            raise DealProblemError(f"{where()}: {event.card!r} is a card of no pile")
        return event
    if isinstance(event, Draw):
        sizes[event.pile] = max(0, sizes[event.pile] - 1)  # an empty pile fails later
        return event
    if isinstance(event, PutBack):
        if event.card is not None and (
            not isinstance(event.card, str) or home.get(event.card) != event.pile
        ):
            raise DealProblemError(
                f"{where()}: {event.card!r} is not a card of the {event.pile!r} pile"
            )
        excluded = _names(event.excluded, lambda: f"{where()}: excluded")
        sizes[event.pile] += 1
        return event if excluded is event.excluded else replace(event, excluded=excluded)
    if isinstance(event, Insert):
        if isinstance(event.cards, set | frozenset):
            raise DealProblemError(f"{where()}: expected a tuple of cards, not {event.cards!r}")
        cards = _names(event.cards, lambda: f"{where()}: cards")
        if not cards:
            raise DealProblemError(
                f"{where()}: expected a non-empty tuple of cards, not {event.cards!r}"
            )
        for card in cards:
            if home.get(card) != event.pile:
                raise DealProblemError(
                    f"{where()}: {card!r} is not a card of the {event.pile!r} pile"
                )
        size = sizes[event.pile] + len(cards)
        positions = event.positions
        if positions is not None:
            if (
                not isinstance(positions, tuple | list)
                or len(positions) != len(cards)
                or not all(_whole(p) and 1 <= p <= size for p in positions)
                or len(set(positions)) != len(cards)
            ):
                raise DealProblemError(
                    f"{where()}: insert places {positions!r} do not fit {len(cards)} cards "
                    f"into a pile of {size} (distinct places 1-{size}, one per card)"
                )
            positions = tuple(positions)
        sizes[event.pile] = size
        if cards is not event.cards or positions is not event.positions:
            return replace(event, cards=cards, positions=positions)
        return event
    assert isinstance(event, Lacks)
    lacked = _names(event.cards, lambda: f"{where()}: cards")
    if not isinstance(event.doing, str):
        raise DealProblemError(f"{where()}: doing must be a string, not {event.doing!r}")
    if not isinstance(event.cards, frozenset):
        return replace(event, cards=frozenset(lacked))
    return event


# --- one pile: simulating the record with its hidden choices made -------------------------

# A place of the deal (or of a shuffled-in card): the segment of the pile it was
# drawn from, the event index of its first draw, who holds it last and since
# when, whether it is still held (a hidden put-back ends the stay), and the
# cards it cannot be (what its earlier stays forbid).
_Place = tuple[int, int, int, int, bool, frozenset[str]]
# A unit type: ``count`` copies of ``card`` that may lie on places of segment
# ``seg`` and below, since event ``made`` (-1: the deal).
_Type = tuple[str, int, int, int]
# Items in the pile: ("P", seg, -1) an anonymous place of a segment; ("K", card,
# made) a known card put there at event ``made``; ("Q", place, made) a place
# put back hidden at event ``made``.
_Item = tuple[str, int | str, int]
_Choice = tuple[str, int] | tuple[str, str] | tuple[int, ...]


@dataclass
class _Failure:
    ply: int
    reason: str
    message: str


class _Sim:
    """A pile played through its events with every hidden choice made.

    Segments are stretches of the pile whose order is unknown: the deal (0),
    and each stretch an unrecorded insert joined (a child of the stretch it
    joined) or opened between put-back cards (a new root).
    """

    __slots__ = (
        "demands",
        "failure",
        "known",
        "parent",
        "picks",
        "places",
        "queue",
        "taken",
        "types",
        "where",
    )

    def __init__(self, cards: Sequence[str], players: int) -> None:
        self.queue: list[_Item] = [("P", 0, -1)] * len(cards)
        self.places: list[_Place] = []
        self.known: list[Counter[str]] = [Counter() for _ in range(players)]
        self.parent: list[int] = [-1]
        self.types: list[_Type] = [(c, 0, -1, n) for c, n in Counter(cards).items()]
        self.demands: list[tuple[int, int, str]] = []  # (event index, player, card)
        self.taken: dict[int, _Item] = {}  # draw index -> item; ("P", place, -1) for a new place
        self.picks: dict[int, _Choice] = {}  # hidden put-back or open insert -> choice
        self.failure: tuple[int, str, str] | None = None  # (event index, reason, message)
        self.where: int = 0  # events done

    def copy(self) -> _Sim:
        other = _Sim.__new__(_Sim)
        other.queue = list(self.queue)
        other.places = list(self.places)
        other.known = [Counter(k) for k in self.known]
        other.parent = list(self.parent)
        other.types = list(self.types)
        other.demands = list(self.demands)
        other.taken = dict(self.taken)
        other.picks = dict(self.picks)
        other.failure = self.failure
        other.where = self.where
        return other

    # -- the choices -------------------------------------------------------------------

    def put_back_options(self, event: PutBack, lacks: _Lacking) -> list[_Choice]:
        """What a hidden put-back may put back: a place its player holds, or a
        known card it holds.

        Of two places the player holds that came from the same segment, that it
        has held through the same moments it lacked cards and that their earlier
        stays forbid the same cards, putting back the one it took last is never
        worse: any card the other could be, it could be too, so exchanging the
        two places' cards turns any fitting deal into one that puts back the
        later place. So one place per such group.
        """
        player = event.player
        latest: dict[tuple[int, int, frozenset[str]], tuple[int, int]] = {}
        for index, (seg, _, holder, start, held, cannot) in enumerate(self.places):
            if held and holder == player:
                key = (seg, lacks.before(player, start), cannot)
                latest[key] = max(latest.get(key, (start, index)), (start, index))
        options: list[_Choice] = [("q", index) for _, index in sorted(latest.values())]
        options += [
            ("c", card)
            for card, count in sorted(self.known[player].items())
            if count > 0 and card not in event.excluded
        ]
        return options

    def insert_options(self, event: Insert) -> list[_Choice]:
        """Where an insert without places may put its cards: which gap between
        the known cards in the pile each goes to (in a gap, only the stretch
        matters, not the place). One gap when the pile holds no known card."""
        gaps = 1 + sum(item[0] != "P" for item in self.queue)
        if gaps == 1:
            return [(0,) * len(event.cards)]
        found: dict[tuple[tuple[str, int], ...], tuple[int, ...]] = {}
        for choice in itertools.product(range(gaps), repeat=len(event.cards)):
            found.setdefault(tuple(sorted(zip(event.cards, choice, strict=True))), choice)
        return list(found.values())

    # -- the events --------------------------------------------------------------------

    def fail(self, index: int, reason: str, message: str) -> None:
        self.failure = (index, reason, message)

    def step(self, index: int, event: Event, choice: _Choice | None, lacks: _Lacking) -> None:
        self.where = index + 1
        if isinstance(event, Draw):
            self._draw(index, event.player)
        elif isinstance(event, Spend):
            self._leave(index, event.player, event.card)
        elif isinstance(event, Receive):
            self.known[event.player][event.card] += 1
        elif isinstance(event, PutBack):
            if event.card is not None:
                self._leave(index, event.player, event.card)
                self.queue.append(("K", event.card, index))
                return
            assert choice is not None
            self.picks[index] = choice
            if choice[0] == "c":
                card = str(choice[1])
                self.known[event.player][card] -= 1
                self.queue.append(("K", card, index))
                return
            place = int(choice[1])
            seg, first, holder, start, _, cannot = self.places[place]
            ended = set(cannot)
            ended.update(event.excluded)
            ended.update(lacks.during(holder, start, index))
            self.places[place] = (seg, first, holder, start, False, frozenset(ended))
            self.queue.append(("Q", place, index))
        elif isinstance(event, Insert):
            if event.positions is not None:
                size = len(self.queue) + len(event.cards)
                placed = dict(zip(event.positions, event.cards, strict=True))
                rest = iter(self.queue)
                self.queue = [
                    ("K", placed[i], index) if i in placed else next(rest)
                    for i in range(1, size + 1)
                ]
                return
            assert choice is not None
            self.picks[index] = choice
            self._join(index, event.cards, tuple(int(g) for g in choice))
        else:  # Lacks
            assert isinstance(event, Lacks)
            held = sorted(c for c in event.cards if self.known[event.player][c] > 0)
            if held:
                self.fail(
                    index,
                    "no_consistent_deal",
                    f"no deal fits: player {event.player + 1} {event.doing}, but holds {held[0]}",
                )

    def _draw(self, index: int, player: int) -> None:
        item = self.queue.pop(0)
        if item[0] == "P":
            place = len(self.places)
            self.places.append((int(item[1]), index, player, index, True, frozenset()))
            self.taken[index] = ("P", place, -1)
        elif item[0] == "K":
            self.known[player][str(item[1])] += 1
            self.taken[index] = item
        else:
            place = int(item[1])
            seg, first, _, _, _, cannot = self.places[place]
            self.places[place] = (seg, first, player, index, True, cannot)
            self.taken[index] = item

    def _leave(self, index: int, player: int, card: str) -> None:
        # A known copy in hand goes first: the places it spares fit anything it fits.
        if self.known[player][card] > 0:
            self.known[player][card] -= 1
        else:
            self.demands.append((index, player, card))

    def _join(self, index: int, cards: tuple[str, ...], gaps: tuple[int, ...]) -> None:
        """Shuffle ``cards`` into the stretches of the pile ``gaps`` names."""
        bounds = [-1, *(i for i, item in enumerate(self.queue) if item[0] != "P"), len(self.queue)]
        by_gap: dict[int, list[str]] = {}
        for card, gap in zip(cards, gaps, strict=True):
            by_gap.setdefault(gap, []).append(card)
        for gap in sorted(by_gap, reverse=True):  # from the bottom: earlier bounds stay put
            low, high = bounds[gap] + 1, bounds[gap + 1]
            stretch = self.queue[low:high]
            seg = len(self.parent)
            self.parent.append(int(stretch[0][1]) if stretch else -1)
            joined = by_gap[gap]
            self.queue[low:high] = [("P", seg, -1)] * (len(stretch) + len(joined))
            for card, count in sorted(Counter(joined).items()):
                self.types.append((card, seg, index, count))


class _Lacking:
    """The moments each player lacked cards (event indices, in order)."""

    def __init__(self, events: Sequence[Event], players: int) -> None:
        self.at: list[list[int]] = [[] for _ in range(players)]
        self.cards: list[list[frozenset[str]]] = [[] for _ in range(players)]
        self.by_card: list[dict[str, list[int]]] = [{} for _ in range(players)]
        for index, event in enumerate(events):
            if isinstance(event, Lacks):
                self.at[event.player].append(index)
                self.cards[event.player].append(event.cards)
                for card in event.cards:
                    self.by_card[event.player].setdefault(card, []).append(index)

    def before(self, player: int, index: int) -> int:
        """How many times ``player`` lacked cards before event ``index``."""
        return bisect.bisect_left(self.at[player], index)

    def during(self, player: int, start: int, end: int | None = None) -> set[str]:
        """The cards ``player`` lacked strictly between events ``start`` and ``end``."""
        at = self.at[player]
        low = bisect.bisect_right(at, start)
        high = len(at) if end is None else bisect.bisect_left(at, end)
        found: set[str] = set()
        for k in range(low, high):
            found.update(self.cards[player][k])
        return found

    def blocks(self, player: int, start: int, end: int, card: str) -> bool:
        """Whether ``player`` lacked ``card`` strictly between ``start`` and ``end``."""
        at = self.by_card[player].get(card)
        if not at:
            return False
        k = bisect.bisect_right(at, start)
        return k < len(at) and at[k] < end


def _cases(problem: DealProblem, pile: str, lacks: _Lacking) -> list[_Sim]:
    """Every combination of hidden choices worth trying (what each hidden
    put-back put back, which gaps each insert without places joined), each
    played through; one that fails on the way stops there. More than
    :data:`MAX_CASES` raise :class:`DealSearchLimitError`."""
    events = problem.events
    leaves: list[_Sim] = []
    stack: list[_Sim] = [_Sim(problem.piles[pile], problem.players)]
    while stack:
        sim = stack.pop()
        while sim.where < len(events) and sim.failure is None:
            index = sim.where
            event = events[index]
            if isinstance(event, PutBack) and event.card is None:
                options = sim.put_back_options(event, lacks)
                if not options:
                    sim.fail(
                        index,
                        "card_never_held",
                        f"no deal fits: player {event.player + 1} has no {pile} card to put back",
                    )
                    break
            elif isinstance(event, Insert) and event.positions is None:
                options = sim.insert_options(event)
            else:
                sim.step(index, event, None, lacks)
                continue
            for option in reversed(options[1:]):
                child = sim.copy()
                child.step(index, event, option, lacks)
                stack.append(child)
            sim.step(index, event, options[0], lacks)
        leaves.append(sim)
        if len(leaves) > MAX_CASES:
            _too_many(problem, pile)
    return leaves


def _too_many(problem: DealProblem, pile: str) -> None:
    hidden = sum(isinstance(e, PutBack) and e.card is None for e in problem.events)
    open_inserts = sum(isinstance(e, Insert) and e.positions is None for e in problem.events)
    raise DealSearchLimitError(
        f"the {pile!r} pile has more than {MAX_CASES} combinations of hidden choices "
        f"({hidden} hidden put-backs, {open_inserts} inserts without places): "
        "too many to try"
    )


# --- one case: matching the named cards to places -----------------------------------------


def _spread(options: Sequence[Sequence[int]], copies: Sequence[int]) -> list[tuple[int, ...]]:
    """Every choice of one option per demand, in order, using no option more
    often than its ``copies`` (at most ``MAX_CASES + 1`` of them); where no
    option is left, the first is taken anyway."""
    found: list[tuple[int, ...]] = []
    left = list(copies)
    picked: list[int] = []

    def walk(k: int) -> None:
        if len(found) > MAX_CASES:
            return
        if k == len(options):
            found.append(tuple(picked))
            return
        usable = [t for t in options[k] if left[t] > 0] or [options[k][0]]
        for t in usable:
            left[t] -= 1
            picked.append(t)
            walk(k + 1)
            picked.pop()
            left[t] += 1

    walk(0)
    return found


class _Flow:
    """A small max-flow (Dinic), for placing every card of a pile at once."""

    def __init__(self, size: int) -> None:
        self.edges: list[list[int]] = []  # [to, capacity left, original capacity]
        self.out: list[list[int]] = [[] for _ in range(size)]

    def add(self, source: int, target: int, capacity: int) -> int:
        """Add an edge; its id (the reverse edge is ``id ^ 1``)."""
        edge = len(self.edges)
        self.out[source].append(edge)
        self.edges.append([target, capacity, capacity])
        self.out[target].append(edge + 1)
        self.edges.append([source, 0, 0])
        return edge

    def run(self, source: int, sink: int) -> int:
        """Push as much more as fits from ``source`` to ``sink``; how much."""
        total = 0
        edges, out = self.edges, self.out
        while True:
            level = [-1] * len(out)
            level[source] = 0
            queue = [source]
            for node in queue:
                for e in out[node]:
                    target, left, _ = edges[e]
                    if left > 0 and level[target] < 0:
                        level[target] = level[node] + 1
                        queue.append(target)
            if level[sink] < 0:
                return total
            cursor = [0] * len(out)
            while True:
                sent = self._push(source, sink, 1 << 30, level, cursor)
                if not sent:
                    break
                total += sent

    def _push(self, node: int, sink: int, amount: int, level: list[int], cursor: list[int]) -> int:
        if node == sink:
            return amount
        edges, links = self.edges, self.out[node]
        while cursor[node] < len(links):
            e = links[cursor[node]]
            target, left, _ = edges[e]
            if left > 0 and level[target] == level[node] + 1:
                sent = self._push(target, sink, min(amount, left), level, cursor)
                if sent:
                    edges[e][1] -= sent
                    edges[e ^ 1][1] += sent
                    return sent
            cursor[node] += 1
        return 0

    def flow(self, e: int) -> int:
        return self.edges[e][2] - self.edges[e][1]


@dataclass
class _Fit:
    """A case that fits: each place's unit type, and the types of the places no
    one drew, by segment."""

    sim: _Sim
    labels: dict[int, int]
    undrawn: dict[int, list[int]]


class _Matcher:
    """Matches the named cards of one case to the places their players drew."""

    def __init__(self, problem: DealProblem, pile: str, sim: _Sim, lacks: _Lacking) -> None:
        self.problem, self.pile, self.sim, self.lacks = problem, pile, sim, lacks
        self.below: list[frozenset[int]] = []  # each segment with the segments above it
        for seg, up in enumerate(sim.parent):
            self.below.append(frozenset({seg}) | (self.below[up] if up >= 0 else frozenset()))
        # player -> [(start, place, segment, cannot)] of the places it holds
        self.held: dict[int, list[tuple[int, int, int, frozenset[str]]]] = {}
        for place, (seg, _, holder, start, held, cannot) in enumerate(sim.places):
            if held:
                self.held.setdefault(holder, []).append((start, place, seg, cannot))
        for found in self.held.values():
            found.sort()
        self.types_of: dict[str, list[int]] = {}
        for t, (card, _, _, _) in enumerate(sim.types):
            self.types_of.setdefault(card, []).append(t)

    def assignments(self) -> list[list[int | None]]:
        """Each way the demands may have used the copies of their cards: which
        unit type each demand took. Only a card both dealt and shuffled in has a
        choice: a type put into the pile before the demand, that may lie on a
        place the demand could use, no type more often than it has copies (when
        no choice keeps to that, the first is taken: the matching then fails
        where it must)."""
        sim = self.sim
        chosen: list[int | None] = []
        open_cards: dict[str, list[int]] = {}
        for d, (_, _, card) in enumerate(sim.demands):
            found = self.types_of.get(card, [])
            chosen.append(found[0] if len(found) == 1 else None)
            if len(found) > 1:
                open_cards.setdefault(card, []).append(d)
        ways: list[list[tuple[int, ...]]] = []
        for card, demands in open_cards.items():
            options: list[list[int]] = []
            for d in demands:
                index, player, _ = sim.demands[d]
                segs = {self.sim.places[q][0] for q in self.candidates(index, player, card, None)}
                options.append(
                    [
                        t
                        for t in self.types_of[card]
                        if sim.types[t][2] < index
                        and any(sim.types[t][1] in self.below[seg] for seg in segs)
                    ]
                    or [self.types_of[card][0]]
                )
            ways.append(_spread(options, [sim.types[t][3] for t in range(len(sim.types))]))
        found_all: list[list[int | None]] = []
        for combo in itertools.product(*ways):
            each = list(chosen)
            for demands, picked in zip(open_cards.values(), combo, strict=True):
                for d, t in zip(demands, picked, strict=True):
                    each[d] = t
            found_all.append(each)
            if len(found_all) > MAX_CASES:
                break
        return found_all

    def candidates(self, index: int, player: int, card: str, t: int | None) -> list[int]:
        """The places demand ``(index, player, card)`` may have used, with a
        copy of unit type ``t``: drawn by ``player`` before, still held, able to
        hold the card (no earlier stay forbids it, the player did not lack it
        since, the type may lie there)."""
        seg_of_type = -1 if t is None else self.sim.types[t][1]
        below = self.below if len(self.below) > 1 and t is not None else None
        lacked = self.lacks.by_card[player].get(card)
        found = []
        for start, place, seg, cannot in self.held.get(player, ()):
            if start >= index:
                break
            if cannot and card in cannot:
                continue
            if below is not None and seg_of_type not in below[seg]:
                continue
            if lacked:
                k = bisect.bisect_right(lacked, start)
                if k < len(lacked) and lacked[k] < index:
                    continue
            found.append(place)
        return found

    def match(self, types: Sequence[int | None]) -> _Failure | _Fit:
        """Match every demand in order (the first that cannot be matched fails),
        then place the other cards."""
        sim, problem = self.sim, self.problem
        demand_at: dict[int, int] = {}
        used = [0] * len(sim.types)
        candidates: list[list[int]] = []

        def augment(d: int, seen: set[int], visited: list[int]) -> bool:
            visited.append(d)
            for place in candidates[d]:  # a free place first: no path to follow
                if place not in seen and place not in demand_at:
                    seen.add(place)
                    demand_at[place] = d
                    return True
            for place in candidates[d]:
                if place in seen:
                    continue
                seen.add(place)
                if augment(demand_at[place], seen, visited):
                    demand_at[place] = d
                    return True
            return False

        for d, ((index, player, card), t) in enumerate(zip(sim.demands, types, strict=True)):
            event = problem.events[index]
            assert isinstance(event, Spend | PutBack)
            who = f"player {player + 1}"
            verb = "plays" if isinstance(event, Spend) else "puts back"
            if t is None:
                return _Failure(
                    event.ply, "card_never_held", f"no deal fits: {card} is not in the game"
                )
            if used[t] >= sim.types[t][3]:
                where = self._where(card, index)
                return _Failure(
                    event.ply,
                    "card_never_held",
                    f"no deal fits: {who} {verb} {card}, but {card} {where}",
                )
            candidates.append(self.candidates(index, player, card, t))
            seen: set[int] = set()
            visited: list[int] = []
            if not augment(d, seen, visited):
                cards = sorted(sim.demands[v][2] for v in visited)
                if not seen:
                    return _Failure(
                        event.ply,
                        "card_never_held",
                        f"no deal fits: {who} {verb} {card} but has drawn no {self.pile} card "
                        "that could be it",
                    )
                return _Failure(
                    event.ply,
                    "no_consistent_deal",
                    f"no deal fits: {who} {verb} {card}, but its cards {' '.join(cards)} would "
                    f"need {len(cards)} of the {len(seen)} {self.pile} cards it can have drawn "
                    "for them",
                )
            used[t] += 1
        if sim.failure is not None:
            index, reason, message = sim.failure
            return _Failure(problem.events[index].ply, reason, message)
        fit = self._complete(types, used, candidates, demand_at)
        if fit is not None:
            return fit
        last = problem.events[-1]
        why = (
            f"player {last.player + 1} {last.doing}, but would hold a card it could play"
            if isinstance(last, Lacks)
            else "some card would have to be where it cannot be"
        )
        return _Failure(last.ply, "no_consistent_deal", f"no deal fits: {why}")

    def _where(self, card: str, upto: int) -> str:
        """Where ``card`` was last seen before event ``upto``, for messages."""
        seen = "already used"
        for index, event in enumerate(self.problem.events[:upto]):
            if isinstance(event, Draw):
                item = self.sim.taken.get(index)
                if item is not None and item[0] == "K" and item[1] == card:
                    seen = f"is in player {event.player + 1}'s hand"
            elif isinstance(event, Receive) and event.card == card:
                seen = f"is in player {event.player + 1}'s hand"
            elif isinstance(event, Insert) and card in event.cards:
                seen = f"was shuffled into the {event.pile} pile"
            elif isinstance(event, Spend) and event.card == card:
                seen = f"was played by player {event.player + 1}"
            elif isinstance(event, PutBack):
                named = event.card
                pick = self.sim.picks.get(index)
                if named is None and pick is not None and pick[0] == "c":
                    named = str(pick[1])
                if named == card:
                    seen = f"was put under the {event.pile} pile by player {event.player + 1}"
        return seen

    def _restricted(self) -> set[int]:
        """The places whose card something besides a demand constrains: an earlier
        stay forbids cards, or the holder lacked cards since it took it."""
        last = [at[-1] if at else -1 for at in self.lacks.at]
        return {
            place
            for place, (_, _, holder, start, held, cannot) in enumerate(self.sim.places)
            if cannot or (held and last[holder] > start)
        }

    def _complete(
        self,
        types: Sequence[int | None],
        used: Sequence[int],
        candidates: Sequence[Sequence[int]],
        demand_at: Mapping[int, int],
    ) -> _Fit | None:
        """Place every card at once (the named ones may move to make room), or
        ``None`` when it cannot be done.

        When nothing but the demands constrains the places, the spare copies go
        anywhere. Otherwise it is a max-flow from the demands and the spare
        copies of each unit type to the places drawn and the places no one drew
        (by segment), started from the demands' matching and a greedy placing.
        """
        sim = self.sim
        places, kinds = sim.places, sim.types
        segs = len(sim.parent)
        undrawn = Counter(int(item[1]) for item in sim.queue if item[0] == "P")
        spare = [count - used[t] for t, (_, _, _, count) in enumerate(kinds)]
        restricted = self._restricted()
        labels: dict[int, int] = {}
        for place, d in demand_at.items():
            t = types[d]
            assert t is not None
            labels[place] = t
        if not restricted and segs == 1:
            rest = iter([t for t, n in enumerate(spare) for _ in range(n)])
            for place in range(len(places)):
                if place not in labels:
                    labels[place] = next(rest)
            return _Fit(sim, labels, {0: list(rest)})
        if not restricted:
            fit = self._laminar(labels, spare, undrawn)
            if fit is not None:
                return fit
        demands = len(sim.demands)
        # nodes: 0 source, 1 sink, demands, unit types, segment hubs, places, undrawn by segment
        first_type = 2 + demands
        first_hub = first_type + len(kinds)
        first_place = first_hub + segs
        first_undrawn = first_place + len(places)
        flow = _Flow(first_undrawn + segs)
        edges = flow.edges
        demand_edges: dict[tuple[int, int], int] = {}
        source_edges: dict[int, int] = {}
        for d, found in enumerate(candidates):
            source_edges[2 + d] = flow.add(0, 2 + d, 1)
            for place in found:
                demand_edges[d, place] = flow.add(2 + d, first_place + place, 1)
        down: dict[int, int] = {}  # segment -> the hub edge from its parent
        for seg, up in enumerate(sim.parent):
            if up >= 0:
                down[seg] = flow.add(first_hub + up, first_hub + seg, 1 << 20)
        to_undrawn: dict[int, int] = {}
        undrawn_sink: dict[int, int] = {}
        for seg in range(segs):
            if undrawn[seg]:
                to_undrawn[seg] = flow.add(first_hub + seg, first_undrawn + seg, 1 << 20)
                undrawn_sink[seg] = flow.add(first_undrawn + seg, 1, undrawn[seg])
        to_place: dict[int, int] = {}
        place_sink: dict[int, int] = {}
        for place, (seg, _, _, _, _, _) in enumerate(places):
            if place not in restricted:
                to_place[place] = flow.add(first_hub + seg, first_place + place, 1)
            place_sink[place] = flow.add(first_place + place, 1, 1)
        type_hub: dict[int, int] = {}
        direct: dict[tuple[int, int], int] = {}
        for t, (card, seg, _, _) in enumerate(kinds):
            if spare[t] <= 0:
                continue
            source_edges[first_type + t] = flow.add(0, first_type + t, spare[t])
            type_hub[t] = flow.add(first_type + t, first_hub + seg, spare[t])
            for place in restricted:
                pseg, _, holder, start, held, cannot = places[place]
                if card in cannot or seg not in self.below[pseg]:
                    continue
                if held and self.lacks.blocks(holder, start, len(self.problem.events), card):
                    continue
                direct[t, place] = flow.add(first_type + t, first_place + place, 1)

        def push(path: Iterable[int]) -> None:
            for e in path:
                edges[e][1] -= 1
                edges[e ^ 1][1] += 1

        # warm start: the demands' matching, then each free place greedily
        total = 0
        for place, d in demand_at.items():
            push((source_edges[2 + d], demand_edges[d, place], place_sink[place]))
            total += 1
        left = list(spare)
        for place in sorted(restricted):
            if place in demand_at:
                continue
            for t in range(len(kinds)):
                if left[t] > 0 and (t, place) in direct:
                    push((source_edges[first_type + t], direct[t, place], place_sink[place]))
                    left[t] -= 1
                    total += 1
                    break
        by_seg: dict[int, list[int]] = {}
        for t, (_, seg, _, _) in enumerate(kinds):
            if left[t] > 0:
                by_seg.setdefault(seg, []).append(t)

        def take(seg: int) -> list[int] | None:
            """A path from a type with spare copies down to ``seg``'s hub."""
            chain: list[int] = []
            at = seg
            while at >= 0:
                found = by_seg.get(at)
                while found and left[found[-1]] == 0:
                    found.pop()
                if found:
                    t = found[-1]
                    left[t] -= 1
                    return [source_edges[first_type + t], type_hub[t], *reversed(chain)]
                if at in down:
                    chain.append(down[at])
                at = sim.parent[at]
            return None

        targets = [
            (seg, (to_place[place], place_sink[place]))
            for place, (seg, _, _, _, _, _) in enumerate(places)
            if place not in restricted and place not in demand_at
        ]
        targets += [
            (seg, (to_undrawn[seg], undrawn_sink[seg]))
            for seg in range(segs)
            for _ in range(undrawn[seg])
        ]
        for seg, tail in targets:
            path = take(seg)
            if path is not None:
                push((*path, *tail))
                total += 1
        needed = len(places) + sum(undrawn.values())
        total += flow.run(0, 1)
        if total != needed:
            return None
        # read the flow back: each place's unit type, each segment's undrawn types
        labels = {}
        for (d, place), e in demand_edges.items():
            if flow.flow(e):
                t = types[d]
                assert t is not None
                labels[place] = t
        for (t, place), e in direct.items():
            if flow.flow(e):
                labels[place] = t
        carried = [[target, flow.flow(e)] for e, (target, _, _) in enumerate(edges)]
        unplaced: dict[int, list[int]] = {}
        for t, feed in type_hub.items():
            while carried[feed][1] > 0:
                carried[feed][1] -= 1
                path = self._path(flow, carried, first_hub + kinds[t][1], first_place)
                assert path is not None
                end = path[-1]
                for step in path[:-1]:
                    carried[step][1] -= 1
                if end < first_undrawn:
                    labels[end - first_place] = t
                else:
                    unplaced.setdefault(end - first_undrawn, []).append(t)
        return _Fit(sim, labels, unplaced)

    def _laminar(
        self, labels: dict[int, int], spare: Sequence[int], undrawn: Mapping[int, int]
    ) -> _Fit | None:
        """Place the spare copies when only segments constrain them: the places
        of the deepest segments first, each taking a copy of the nearest
        segment above it that has one (for nested segments, never worse).
        ``None`` if that leaves a place empty (the flow then decides)."""
        sim = self.sim
        parent = sim.parent
        depth = [0] * len(parent)
        for seg, up in enumerate(parent):
            depth[seg] = depth[up] + 1 if up >= 0 else 0
        left = list(spare)
        by_seg: dict[int, list[int]] = {}
        for t, (_, seg, _, _) in enumerate(sim.types):
            if left[t] > 0:
                by_seg.setdefault(seg, []).append(t)
        targets = [
            (seg, place) for place, (seg, *_) in enumerate(sim.places) if place not in labels
        ]
        targets += [(seg, -1) for seg, count in undrawn.items() for _ in range(count)]
        targets.sort(key=lambda target: -depth[target[0]])
        labels = dict(labels)
        unplaced: dict[int, list[int]] = {}
        for seg, place in targets:
            at = seg
            while at >= 0:
                found = by_seg.get(at)
                while found and left[found[-1]] == 0:
                    found.pop()
                if found:
                    break
                at = parent[at]
            else:
                return None
            t = found[-1]
            left[t] -= 1
            if place >= 0:
                labels[place] = t
            else:
                unplaced.setdefault(seg, []).append(t)
        return _Fit(sim, labels, unplaced)

    @staticmethod
    def _path(
        flow: _Flow, carried: list[list[int]], start: int, first_place: int
    ) -> list[int] | None:
        """Edges still carrying flow from the hub ``start`` down to a place or an
        undrawn segment (the path's last element is that node)."""
        path: list[int] = []
        node = start
        while node < first_place:
            for e in flow.out[node]:
                if e % 2 == 0 and carried[e][1] > 0:
                    path.append(e)
                    node = carried[e][0]
                    break
            else:
                return None
        path.append(node)
        return path


def _answer(problem: DealProblem, pile: str, fit: _Fit) -> DealAnswer:
    """The deal, the hidden cards and the insert places of a fitting case."""
    sim, labels = fit.sim, fit.labels
    kinds = sim.types
    undrawn = {seg: list(found) for seg, found in fit.undrawn.items()}
    # everything that ever lay in the pile, in the order it leaves it (undrawn last):
    # (card, made: the event that put it there; -1 for the deal)
    things: list[tuple[int, str, int, bool]] = []  # (left at, card, made, is a unit)
    for index in sorted(sim.taken):
        item = sim.taken[index]
        if item[0] == "P":
            t = labels[int(item[1])]
            things.append((index, kinds[t][0], kinds[t][2], True))
        elif item[0] == "K":
            things.append((index, str(item[1]), int(item[2]), False))
        else:
            t = labels[int(item[1])]
            things.append((index, kinds[t][0], int(item[2]), False))
    end = len(problem.events)
    for item in sim.queue:
        if item[0] == "P":
            t = undrawn[int(item[1])].pop(0)
            things.append((end, kinds[t][0], kinds[t][2], True))
        elif item[0] == "K":
            things.append((end, str(item[1]), int(item[2]), False))
        else:
            t = labels[int(item[1])]
            things.append((end, kinds[t][0], int(item[2]), False))

    def present(at: int) -> list[tuple[str, int, bool]]:
        """The pile right after event ``at``, top first: (card, made, is a unit)."""
        return [(card, made, unit) for left, card, made, unit in things if left > at and made <= at]

    deal = tuple(card for card, made, unit in present(-1))
    assert len(deal) == len(problem.piles[pile])
    hidden: dict[int, str] = {}
    positions: dict[int, tuple[int, ...]] = {}
    for index, choice in sim.picks.items():
        event = problem.events[index]
        if isinstance(event, PutBack):
            if choice[0] == "c":
                hidden[index] = str(choice[1])
            else:
                hidden[index] = kinds[labels[int(choice[1])]][0]
        else:
            assert isinstance(event, Insert)
            free: dict[str, list[int]] = {}
            for rank, (card, made, unit) in enumerate(present(index), start=1):
                if unit and made == index:
                    free.setdefault(card, []).append(rank)
            positions[index] = tuple(free[card].pop(0) for card in event.cards)
    return DealAnswer(True, deal={pile: deal}, hidden=hidden, positions=positions)


# --- the answer --------------------------------------------------------------------------


def solve(problem: DealProblem) -> DealAnswer:
    """Decide whether some deal fits every event of ``problem`` (exactly).

    When none does, the answer names the first ply no deal fits; otherwise it
    gives one deal that does. Raises :class:`DealProblemError` for a malformed
    problem and :class:`DealSearchLimitError` for one with more than
    :data:`MAX_CASES` combinations of hidden choices in a pile.
    """
    problem = _checked(problem)
    # Cards never change pile, so each pile is a question of its own: the
    # record fits if every pile fits, and fails where the first pile fails.
    answers = [(_solve_pile(part), indices) for part, indices in _by_pile(problem)]
    failed = [a for a, _ in answers if not a.fits and a.ply is not None]
    if failed:
        return min(failed, key=lambda a: a.ply or 0)
    deal: dict[str, tuple[str, ...]] = {}
    hidden: dict[int, str] = {}
    positions: dict[int, tuple[int, ...]] = {}
    for answer, indices in answers:
        deal.update(answer.deal or {})
        hidden.update((indices[i], card) for i, card in answer.hidden.items())
        positions.update((indices[i], places) for i, places in answer.positions.items())
    return DealAnswer(True, deal=deal, hidden=hidden, positions=positions)


def _by_pile(problem: DealProblem) -> list[tuple[DealProblem, list[int]]]:
    """One problem per pile, each with the original index of its events."""
    home = {card: name for name, cards in problem.piles.items() for card in cards}
    first = next(iter(problem.piles), "")
    parts: dict[str, list[tuple[int, Event]]] = {name: [] for name in problem.piles}
    for index, event in enumerate(problem.events):
        if isinstance(event, Lacks):
            for name in problem.piles:
                cards = frozenset(c for c in event.cards if home.get(c) == name)
                if cards:
                    parts[name].append((index, replace(event, cards=cards)))
            continue
        if isinstance(event, Draw | PutBack | Insert):
            pile = event.pile
        else:
            pile = home.get(event.card, first)  # an unknown card fails in any pile
        parts.setdefault(pile, []).append((index, event))
    return [
        (
            DealProblem(
                {name: problem.piles.get(name, ())},
                tuple(event for _, event in found),
                problem.players,
            ),
            [index for index, _ in found],
        )
        for name, found in parts.items()
    ]


def _solve_pile(problem: DealProblem) -> DealAnswer:
    answer = _solve(problem)
    if answer.fits or not any(
        isinstance(e, Lacks)
        or (isinstance(e, PutBack) and e.card is None)
        or (isinstance(e, Insert) and e.positions is None)
        for e in problem.events
    ):
        return answer
    # A hidden choice is made for the whole record, and a lack constrains what
    # is held later, so a failing case can point too early: find the first ply
    # no deal fits by prefixes.
    plies = sorted({e.ply for e in problem.events})
    low, high = 0, len(plies) - 1
    while low < high:
        middle = (low + high) // 2
        prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= plies[middle]))
        if _solve(prefix).fits:
            low = middle + 1
        else:
            high = middle
    ply = plies[high]
    if ply == answer.ply:
        return answer
    prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= ply))
    found = _solve(prefix)
    if found.ply == ply:
        return found
    return DealAnswer(
        False,
        ply,
        "no_consistent_deal",
        "no deal fits: no hand can hold the cards this ply needs along with the earlier ones",
    )


def _solve(problem: DealProblem) -> DealAnswer:
    """One pile: the first ply no case fits past, or a fitting deal."""
    (pile,) = problem.piles
    size = len(problem.piles[pile])
    for index, event in enumerate(problem.events):
        if isinstance(event, Draw):
            if size == 0:
                # Whatever the choices, the pile is empty here: unless an earlier
                # ply fails, this one does.
                before = _solve(replace(problem, events=problem.events[:index]))
                if not before.fits and before.ply is not None and before.ply < event.ply:
                    return before
                return DealAnswer(
                    False,
                    event.ply,
                    "no_consistent_deal",
                    f"no deal fits: the {pile} pile is empty",
                )
            size -= 1
        elif isinstance(event, PutBack):
            size += 1
        elif isinstance(event, Insert):
            size += len(event.cards)
    lacks = _Lacking(problem.events, problem.players)
    cases = []
    for sim in _cases(problem, pile, lacks):
        matcher = _Matcher(problem, pile, sim, lacks)
        cases += [(matcher, types) for types in matcher.assignments()]
        if len(cases) > MAX_CASES:
            _too_many(problem, pile)
    best: _Failure | None = None
    for matcher, types in cases:
        found = matcher.match(types)
        if isinstance(found, _Fit):
            return _answer(problem, pile, found)
        if best is None or found.ply > best.ply:
            best = found
    assert best is not None
    return DealAnswer(False, best.ply, best.reason, best.message)


# --- records -----------------------------------------------------------------------------


def _game_deals(game: str) -> DealModel | None:
    """The game's deal model (its descriptor's ``deals``), if it has one.

    It provides ``problem(record, upto)`` (the :class:`DealProblem` of a record's
    first moves) and ``full_record(record, answer)`` (the record with a deal).
    """
    from referee.games import find_game

    return find_game(game).deals


def check_record(record: Record, plies: int | None = None) -> DealAnswer | None:
    """Whether a deal fits the first ``plies`` moves of the public ``record``;
    ``None`` for a full record or a game without a deal model. The moves must
    read and keep the turn order; the rules judge them apart (a move they
    refuse still gets its deal question).

    >>> from referee.records import Record
    >>> record = Record("schotten-totten", ("spy@1",), {"variants": ["tactics"]})
    >>> print(check_record(record).message)
    no deal fits: player 1 plays spy but has drawn no tactic card that could be it
    """
    if not record.is_public:
        return None
    model = _game_deals(record.game)
    if model is None:
        return None
    found: DealProblem = model.problem(record, plies)
    return solve(found)


def witness(record: Record) -> Record | None:
    """The public ``record`` made full with one deal that fits every move
    (hidden moves named as the deal has them), or ``None`` when no deal fits
    or the game has no deal model. The rules must accept every move.

    >>> from referee.records import Record, validate
    >>> record = Record("schotten-totten", ("G4@2", "draw"))
    >>> full = witness(record)
    >>> full.deal["deck"][:1], validate(full).legal
    (['G4'], True)
    """
    model = _game_deals(record.game)
    if model is None or not record.is_public:
        return None
    answer = solve(model.problem(record, None))
    if not answer.fits:
        return None
    full: Record = model.full_record(record, answer)
    return full


def witness_json(item: Record | Match) -> dict[str, object] | list[object] | None:
    """The witness of a public record as JSON: ``{"deal": ...}``, plus ``"moves"``
    when the full record must name what the public one hid; for a match, one
    such object (or ``None``) per game. ``None`` when there is nothing to show.

    >>> from referee.records import Record
    >>> witness_json(Record("schotten-totten", ("G4@2", "draw")))["deal"]["deck"][:2]
    ['G4', 'R1']
    """
    from referee.records import Match

    if isinstance(item, Match):
        games: list[object] = [witness_json(game) for game in item.games]
        return games if any(g is not None for g in games) else None
    full = witness(item)
    if full is None:
        return None
    data: dict[str, object] = {"deal": dict(full.deal or {})}
    if full.moves != item.moves:
        data["moves"] = list(full.moves)
    return data
