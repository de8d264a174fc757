"""One pile played through its events with every hidden choice made: the cases
the matcher then checks (see :mod:`referee.deals`)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from referee.deals._problem import (
    MAX_CASES,
    DealProblem,
    DealSearchLimitError,
    Draw,
    Event,
    Insert,
    Lacks,
    PutBack,
    Receive,
    Spend,
)

__all__ = ["_Failure", "_Lacking", "_Sim", "_cases", "_too_many"]

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
