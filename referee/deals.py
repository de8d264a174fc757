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

The solver is exact. Every card that leaves a hand needs a card that the player
took from a pile earlier; with each card once in the piles this is a bipartite
matching between the named cards and the pile places, decided by augmenting
paths as the record goes on, so the first event that no deal fits is found at
once. Cards never change pile, so each pile is solved on its own. Hidden
choices (which card went back under a pile, where inserted cards landed) are
tried one by one, only those that can matter (see ``_picks`` and
``_insert_options`` for why the others never do): the record fits if one choice
fits. ``tests/deals/test_solver.py`` checks all of it against brute force.

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
import importlib
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.records import Match, Record

__all__ = [
    "DealAnswer",
    "DealProblem",
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


# --- the queue simulation ----------------------------------------------------------------

# An item in a pile: a place of the deal ``(pile, place)``, a known card, or
# what the hidden put-back with that event index put there.
_Slot = tuple[str, int]
_Item = _Slot | str | int
# What a hidden put-back put back: a deal place the player held, or a named card.
_Pick = _Slot | str


def _resolve(item: _Item, picks: Mapping[int, _Pick]) -> _Slot | str:
    """The item with a hidden put-back replaced by what it put back."""
    return picks[item] if isinstance(item, int) else item


@dataclass
class _Timeline:
    """Which item each draw takes, found by playing the piles as queues."""

    takes: dict[int, _Item]  # event index -> the item the draw takes


def _simulate(problem: DealProblem) -> _Timeline | int:
    """The item of every draw; or the index of a draw from an empty pile."""
    queues: dict[str, list[_Item]] = {
        name: [(name, i) for i in range(len(cards))] for name, cards in problem.piles.items()
    }
    takes: dict[int, _Item] = {}
    for index, event in enumerate(problem.events):
        if isinstance(event, Draw):
            queue = queues.get(event.pile)
            if not queue:
                return index
            takes[index] = queue.pop(0)
        elif isinstance(event, PutBack):
            queue = queues.setdefault(event.pile, [])
            queue.append(index if event.card is None else event.card)
        elif isinstance(event, Insert):
            queue = queues.setdefault(event.pile, [])
            assert event.positions is not None
            size = len(queue) + len(event.cards)
            if len(set(event.positions)) != len(event.cards) or not all(
                1 <= p <= size for p in event.positions
            ):
                raise ValueError(
                    f"insert places {event.positions!r} do not fit a pile of {size} cards"
                )
            placed = dict(zip(event.positions, event.cards, strict=True))
            rest = iter(list(queue))
            queue[:] = [placed[i] if i in placed else next(rest) for i in range(1, size + 1)]
    return _Timeline(takes)


# --- one concrete case: every hidden choice made ----------------------------------------


@dataclass
class _Failure:
    ply: int
    reason: str
    message: str


@dataclass
class _Matching:
    """Named cards matched to deal places, grown one card at a time."""

    problem: DealProblem
    # where each deal place is held for good: (player, event index of the draw)
    final: dict[_Slot, tuple[int, int]]
    # cards a place cannot hold (it went back hidden where they may not)
    forbidden: dict[_Slot, set[str]] = field(default_factory=dict)
    # for a place held for good: when its holder lacked which cards (event index)
    lacks_after: dict[_Slot, list[tuple[int, frozenset[str]]]] = field(default_factory=dict)
    # cards of the places no move pins down, when forbidden places made them matter
    spare: dict[_Slot, str] = field(default_factory=dict)
    place_of: dict[int, _Slot] = field(default_factory=dict)  # demand -> place
    demand_at: dict[_Slot, int] = field(default_factory=dict)  # place -> demand
    demands: list[tuple[int, int, str]] = field(default_factory=list)  # (player, index, card)

    def __post_init__(self) -> None:
        # each player's places in each pile, in the order they were drawn
        self.by_holder: dict[tuple[str, int], list[tuple[int, _Slot]]] = {}
        for place, (holder, drawn) in self.final.items():
            self.by_holder.setdefault((place[0], holder), []).append((drawn, place))
        for places in self.by_holder.values():
            places.sort()
        self.home = {card: name for name, cards in self.problem.piles.items() for card in cards}

    def candidates(self, demand: int) -> list[_Slot]:
        """The places the card of ``demand`` can be: drawn by that player before."""
        player, index, card = self.demands[demand]
        places = self.by_holder.get((self.pile_of(card), player), [])
        found = [place for drawn, place in places[: bisect.bisect_left(places, (index,))]]
        if self.forbidden:
            found = [p for p in found if card not in self.forbidden.get(p, ())]
        if self.lacks_after:
            found = [
                p
                for p in found
                if not any(
                    at < index and card in cards for at, cards in self.lacks_after.get(p, ())
                )
            ]
        return found

    def complete(self, copies: Counter[str], matched: Counter[str]) -> bool:
        """Place every card no move pins down too, avoiding forbidden places;
        the named cards may move to make room. False when it cannot be done."""
        wanted: list[tuple[int | str, list[_Slot]]] = [
            (d, self.candidates(d)) for d in range(len(self.demands))
        ]
        for card, count in (copies - matched).items():
            pile = self.pile_of(card)
            places = [
                (pile, i)
                for i in range(len(self.problem.piles[pile]))
                if card not in self.forbidden.get((pile, i), ())
                and not any(card in cards for _, cards in self.lacks_after.get((pile, i), ()))
            ]
            wanted += [(card, places)] * count
        owner: dict[_Slot, int] = {}

        def augment(k: int, seen: set[_Slot]) -> bool:
            for place in wanted[k][1]:
                if place not in seen:
                    seen.add(place)
                    if place not in owner or augment(owner[place], seen):
                        owner[place] = k
                        return True
            return False

        if not all(
            augment(k, set()) for k in sorted(range(len(wanted)), key=lambda k: len(wanted[k][1]))
        ):
            return False
        self.demand_at, self.place_of, self.spare = {}, {}, {}
        for place, k in owner.items():
            who = wanted[k][0]
            if isinstance(who, int):
                self.demand_at[place], self.place_of[who] = who, place
            else:
                self.spare[place] = who
        return True

    def pile_of(self, card: str) -> str:
        return self.home.get(card, "")

    def add(self, player: int, index: int, card: str) -> tuple[list[str], int] | None:
        """Match one more card; ``None`` on success, else Hall's witness: the
        cards that together need more places than they can have, and how many
        places they can have."""
        demand = len(self.demands)
        self.demands.append((player, index, card))
        seen: set[_Slot] = set()
        visited: list[int] = []
        if self._augment(demand, seen, visited):
            return None
        cards = [self.demands[d][2] for d in visited]
        self.demands.pop()
        return cards, len(seen)

    def _augment(self, demand: int, seen: set[_Slot], visited: list[int]) -> bool:
        visited.append(demand)
        candidates = self.candidates(demand)
        for place in candidates:  # a free place first: no path to follow
            if place not in seen and place not in self.demand_at:
                seen.add(place)
                self.demand_at[place] = demand
                self.place_of[demand] = place
                return True
        for place in candidates:
            if place in seen:
                continue
            seen.add(place)
            other = self.demand_at.get(place)
            if other is None or self._augment(other, seen, visited):
                self.demand_at[place] = demand
                self.place_of[demand] = place
                return True
        return False


def _run(
    problem: DealProblem, timeline: _Timeline, picks: Mapping[int, _Pick]
) -> tuple[_Failure | None, _Matching]:
    """Check every event with the hidden put-backs resolved by ``picks``.

    ``picks[h]`` is a deal place or a named card: what hidden
    put-back ``h`` put under its pile.
    """
    # Where each deal place ends up held for good (a hidden put-back ends a stay),
    # and the cards each place cannot be: what a hidden put-back may not put
    # back, and what its holder lacked while it held the place.
    final: dict[_Slot, tuple[int, int]] = {}
    forbidden: dict[_Slot, set[str]] = {}
    lacking: list[list[tuple[int, frozenset[str]]]] = [[] for _ in range(problem.players)]
    for index, event in enumerate(problem.events):
        if isinstance(event, Lacks):
            lacking[event.player].append((index, event.cards))
    for index, event in enumerate(problem.events):
        if isinstance(event, Draw):
            item = _resolve(timeline.takes[index], picks)
            if isinstance(item, tuple):
                final[item] = (event.player, index)
        elif isinstance(event, PutBack) and event.card is None:
            pick = picks[index]
            if isinstance(pick, tuple):
                holder, start = final.pop(pick)
                cannot = forbidden.setdefault(pick, set())
                cannot.update(event.excluded)
                for at, cards in lacking[holder]:
                    if start < at < index:
                        cannot.update(cards)
    lacks_after = {
        place: [(at, cards) for at, cards in lacking[holder] if at > start]
        for place, (holder, start) in final.items()
    }
    lacks_after = {place: found for place, found in lacks_after.items() if found}
    matching = _Matching(problem, final, forbidden, lacks_after)
    copies: Counter[str] = Counter()
    for pile in problem.piles.values():
        copies.update(pile)
    matched: Counter[str] = Counter()  # copies of each card tied to a deal place
    known: list[Counter[str]] = [Counter() for _ in range(problem.players)]
    # where each named card was last seen, for messages
    seen: dict[str, str] = {}
    for index, event in enumerate(problem.events):
        if isinstance(event, Draw):
            item = _resolve(timeline.takes[index], picks)
            if isinstance(item, str):
                known[event.player][item] += 1
                seen[item] = f"is in player {event.player + 1}'s hand"
            continue
        if isinstance(event, Receive):
            known[event.player][event.card] += 1
            seen[event.card] = f"is in player {event.player + 1}'s hand"
            continue
        if isinstance(event, Insert):
            for name in event.cards:
                seen[name] = f"was shuffled into the {event.pile} pile"
            continue
        if isinstance(event, Lacks):
            held = sorted(c for c in event.cards if known[event.player][c] > 0)
            if held:
                who = f"player {event.player + 1}"
                return _Failure(
                    event.ply,
                    "no_consistent_deal",
                    f"no deal fits: {who} {event.doing}, but holds {held[0]}",
                ), matching
            continue
        if event.card is not None:
            card = event.card
        else:
            pick = picks[index]
            if isinstance(pick, tuple):
                continue
            card = pick
        if known[event.player][card]:
            known[event.player][card] -= 1
        else:
            failure = _demand(matching, copies, matched, seen, event, index, card)
            if failure is not None:
                return failure, matching
            matched[card] += 1
        who = f"player {event.player + 1}"
        seen[card] = (
            f"was played by {who}"
            if isinstance(event, Spend)
            else f"was put under the {event.pile} pile by {who}"
        )
    if (forbidden or lacks_after) and problem.events and not matching.complete(copies, matched):
        last = problem.events[-1]
        why = (
            f"player {last.player + 1} {last.doing}, but would hold a card it could play"
            if isinstance(last, Lacks)
            else "some card would have to be where it cannot be"
        )
        return _Failure(last.ply, "no_consistent_deal", f"no deal fits: {why}"), matching
    return None, matching


def _demand(
    matching: _Matching,
    copies: Counter[str],
    matched: Counter[str],
    seen: Mapping[str, str],
    event: Spend | PutBack,
    index: int,
    card: str,
) -> _Failure | None:
    """Tie one more named card to a deal place the player drew; or why not."""
    who = f"player {event.player + 1}"
    verb = "plays" if isinstance(event, Spend) else "puts back"
    if card not in copies:
        return _Failure(event.ply, "card_never_held", f"no deal fits: {card} is not in the game")
    if matched[card] >= copies[card]:
        where = seen.get(card, "already used")
        return _Failure(
            event.ply, "card_never_held", f"no deal fits: {who} {verb} {card}, but {card} {where}"
        )
    hall = matching.add(event.player, index, card)
    if hall is not None:
        return _Failure(event.ply, *_explain(matching, hall, event.player, card, verb))
    return None


def _explain(
    matching: _Matching, hall: tuple[list[str], int], player: int, card: str, verb: str
) -> tuple[str, str]:
    who = f"player {player + 1}"
    pile = matching.pile_of(card)
    cards, places = hall
    if places == 0:
        return "card_never_held", (
            f"no deal fits: {who} {verb} {card} but has drawn no {pile} card that could be it"
        )
    return "no_consistent_deal", (
        f"no deal fits: {who} {verb} {card}, but its cards {' '.join(sorted(cards))} would need "
        f"{len(cards)} of the {places} {pile} cards it can have drawn for them"
    )


# --- hidden choices ----------------------------------------------------------------------


def _expand_inserts(
    problem: DealProblem,
) -> Iterator[tuple[DealProblem, dict[int, tuple[int, ...]]]]:
    """Every way to place inserted cards whose places are not recorded (only
    places that some later draw reaches are told apart)."""
    open_inserts = [
        i for i, e in enumerate(problem.events) if isinstance(e, Insert) and e.positions is None
    ]
    if not open_inserts:
        yield problem, {}
        return
    options: list[list[tuple[int, ...]]] = []
    sizes = {name: len(cards) for name, cards in problem.piles.items()}
    for index in open_inserts:
        event = problem.events[index]
        assert isinstance(event, Insert)
        size = _pile_size(problem, index, sizes) + len(event.cards)
        later = sum(
            1 for e in problem.events[index + 1 :] if isinstance(e, Draw) and e.pile == event.pile
        )
        reach = max(len(event.cards), min(size, later + len(event.cards)))
        every = list(itertools.permutations(range(1, reach + 1), len(event.cards)))
        options.append(_insert_options(problem, index, size) or every)
    for choice in itertools.product(*options):
        events = list(problem.events)
        for index, positions in zip(open_inserts, choice, strict=True):
            event = events[index]
            assert isinstance(event, Insert)
            events[index] = replace(event, positions=positions)
        yield replace(problem, events=tuple(events)), dict(zip(open_inserts, choice, strict=True))


def _insert_options(problem: DealProblem, index: int, size: int) -> list[tuple[int, ...]]:
    """The places worth trying for an insert whose places are not recorded
    (empty: try every place).

    When the pile below holds only cards nobody has seen, those cards are
    interchangeable, so an inserted card matters only by which draw takes it.
    A card that leaves a hand later (this copy, if the game has several) must
    be drawn by that player before it leaves, and its last such draw is never worse than an earlier one (the
    player keeps its earlier unknown card, which fits every card the later
    one fits) as long as the player lacked nothing in between; a card that
    never leaves a hand is best never drawn, or drawn by some player's last
    draw. So per player, the last draws between two moments it lacked cards.
    """
    event = problem.events[index]
    assert isinstance(event, Insert)
    if not _fresh_below(problem, index):
        return []
    draws = [
        (i, e.player)
        for i, e in enumerate(problem.events)
        if i > index and isinstance(e, Draw) and e.pile == event.pile
    ][:size]  # the places of the pile as it is after the insert
    count = len(event.cards)
    never = list(range(len(draws) + 1, size + 1))[:count]
    lacked = [
        [i for i, e in enumerate(problem.events) if isinstance(e, Lacks) and e.player == p]
        for p in range(problem.players)
    ]

    def last_draws(player: int, before: int) -> list[int]:
        """The last ``count`` draws of ``player`` before event ``before``, in
        each stretch between two moments it lacked cards."""
        groups: dict[int, list[int]] = {}
        for j, (i, p) in enumerate(draws, 1):
            if p == player and i < before:
                groups.setdefault(bisect.bisect_left(lacked[player], i), []).append(j)
        return [j for found in groups.values() for j in found[-count:]]

    per_card: list[list[int]] = []
    for card in event.cards:
        # the inserted copy ends in a hand that it leaves later, or stays put
        places = list(never)
        for player in range(problem.players):
            places += last_draws(player, len(problem.events))
        for i, e in enumerate(problem.events):
            if i > index and isinstance(e, Spend | PutBack) and e.card == card:
                places += last_draws(e.player, i)
        per_card.append(sorted(set(places)))
    return [c for c in itertools.product(*per_card) if len(set(c)) == count and max(c) <= size]


def _fresh_below(problem: DealProblem, index: int) -> bool:
    """Whether the pile an insert goes into holds only deal places nobody drew."""
    event = problem.events[index]
    assert isinstance(event, Insert)
    for e in problem.events[:index]:
        if isinstance(e, PutBack | Insert) and e.pile == event.pile:
            return False
    return True


def _pile_size(problem: DealProblem, upto: int, sizes: Mapping[str, int]) -> int:
    event = problem.events[upto]
    assert isinstance(event, Insert)
    size = sizes.get(event.pile, 0)
    for e in problem.events[:upto]:
        if isinstance(e, Draw) and e.pile == event.pile:
            size -= 1
        elif isinstance(e, PutBack) and e.pile == event.pile:
            size += 1
        elif isinstance(e, Insert) and e.pile == event.pile:
            size += len(e.cards)
    return size


def _picks(problem: DealProblem, timeline: _Timeline) -> Iterator[dict[int, _Pick]]:
    """Every choice of what the hidden put-backs put back (a card the player
    may hold then: a place it drew, or a named card it received)."""
    hidden = [i for i, e in enumerate(problem.events) if isinstance(e, PutBack) and e.card is None]

    def choose(k: int, picks: dict[int, _Pick]) -> Iterator[dict[int, _Pick]]:
        if k == len(hidden):
            yield dict(picks)
            return
        index = hidden[k]
        event = problem.events[index]
        assert isinstance(event, PutBack)
        held: dict[_Slot, tuple[int, int]] = {}  # place -> (holder, index of its draw)
        names: set[str] = set()
        for i, e in enumerate(problem.events[:index]):
            if isinstance(e, Draw):
                item = _resolve(timeline.takes[i], picks)
                if isinstance(item, tuple):
                    held[item] = (e.player, i)
                elif e.player == event.player:
                    names.add(str(item))
            elif isinstance(e, Receive) and e.player == event.player:
                names.add(e.card)
            elif isinstance(e, PutBack) and e.card is None:
                pick = picks[i]
                if isinstance(pick, tuple):
                    held.pop(pick, None)
        # Of two deal places the player holds that went through the same
        # moments where it lacked cards, putting back the one drawn last is
        # never worse: any card the earlier one could be, it could be too (an
        # exchange of the two places' cards turns any fitting deal into one
        # that puts back the later place). So one place per such group.
        lacked = [
            i
            for i, e in enumerate(problem.events[:index])
            if isinstance(e, Lacks) and e.player == event.player
        ]
        latest: dict[int, tuple[int, _Slot]] = {}
        for place, (player, drawn) in held.items():
            if player == event.player and place[0] == event.pile:
                group = bisect.bisect_left(lacked, drawn)
                latest[group] = max(latest.get(group, (drawn, place)), (drawn, place))
        options: list[_Pick] = [place for _, place in sorted(latest.values())]
        options += [
            name
            for name in sorted(names)
            if name in problem.piles.get(event.pile, ()) and name not in event.excluded
        ]
        for option in options:
            picks[index] = option
            yield from choose(k + 1, picks)
        picks.pop(index, None)

    yield from choose(0, {})


# --- the answer --------------------------------------------------------------------------


def solve(problem: DealProblem) -> DealAnswer:
    """Decide whether some deal fits every event of ``problem`` (exactly).

    When none does, the answer names the first ply no deal fits; otherwise it
    gives one deal that does.
    """
    # Cards never change pile, so each pile is a question of its own: the
    # record fits if every pile fits, and fails where the first pile fails.
    parts = _by_pile(problem)
    if len(parts) == 1:
        return _solve_pile(problem)
    answers = []
    for part, indices in parts:
        answer = _solve_pile(part)
        answers.append((answer, indices))
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
    low, high = 0, len(plies) - 1  # the prefix up to plies[high] fails
    while low < high:
        middle = (low + high) // 2
        prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= plies[middle]))
        if _solve(prefix).fits:
            low = middle + 1
        else:
            high = middle
    ply = plies[high]
    prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= ply))
    answer = _solve(prefix)
    if answer.ply == ply:
        return answer
    return DealAnswer(
        False,
        ply,
        "no_consistent_deal",
        "no deal fits: no hand can hold the cards this ply needs along with the earlier ones",
    )


def _solve(problem: DealProblem) -> DealAnswer:
    best: DealAnswer | None = None
    for concrete, positions in _expand_inserts(problem):
        timeline = _simulate(concrete)
        if isinstance(timeline, int):
            event = concrete.events[timeline]
            before = _solve(replace(concrete, events=concrete.events[:timeline]))
            failure = _Failure(
                event.ply,
                "no_consistent_deal",
                f"no deal fits: the {getattr(event, 'pile', '')} pile is empty",
            )
            if not before.fits and before.ply is not None and before.ply < event.ply:
                failure = _Failure(before.ply, before.reason or "", before.message or "")
            best = _better(best, failure)
            continue
        for picks in _picks(concrete, timeline):
            failed, matching = _run(concrete, timeline, picks)
            if failed is None:
                return _answer(concrete, matching, picks, positions)
            best = _better(best, failed)
    if best is None:  # a hidden put-back with nothing it could be
        index = next(
            i for i, e in enumerate(problem.events) if isinstance(e, PutBack) and e.card is None
        )
        event = problem.events[index]
        assert isinstance(event, PutBack)
        return DealAnswer(
            False,
            event.ply,
            "card_never_held",
            f"no deal fits: player {event.player + 1} has no {event.pile} card to put back",
        )
    return best


def _better(best: DealAnswer | None, failure: _Failure) -> DealAnswer:
    if best is not None and best.ply is not None and best.ply >= failure.ply:
        return best
    return DealAnswer(False, failure.ply, failure.reason, failure.message)


def _answer(
    problem: DealProblem,
    matching: _Matching,
    picks: Mapping[int, _Pick],
    positions: dict[int, tuple[int, ...]],
) -> DealAnswer:
    label: dict[_Slot, str] = {}
    for demand, place in matching.place_of.items():
        label[place] = matching.demands[demand][2]
    label.update(matching.spare)
    deal: dict[str, tuple[str, ...]] = {}
    for name, cards in problem.piles.items():
        left = Counter(cards)
        left.subtract(card for (pile, _), card in label.items() if pile == name)
        # the cards no move pins down, in the order the pile lists them
        spare = iter([c for c in dict.fromkeys(cards) for _ in range(max(0, left[c]))])
        deal[name] = tuple(label.get((name, i)) or next(spare) for i in range(len(cards)))
    hidden: dict[int, str] = {}
    for index, pick in picks.items():
        hidden[index] = deal[pick[0]][pick[1]] if isinstance(pick, tuple) else pick
    return DealAnswer(True, deal=deal, hidden=hidden, positions=positions)


# --- records -----------------------------------------------------------------------------


def _game_deals(game: str) -> ModuleType | None:
    """The game's ``deals`` module (beside its record format), if it has one.

    It provides ``problem(record, upto)`` (the :class:`DealProblem` of a record's
    first moves) and ``full_record(record, answer)`` (the record with a deal).
    """
    from referee.records import find_game

    package = type(find_game(game)).__module__.rpartition(".")[0]
    if not package:  # a game format in a top-level module has no package beside it
        return None
    name = f"{package}.deals"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


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
    module = _game_deals(record.game)
    if module is None:
        return None
    found: DealProblem = module.problem(record, plies)
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
    module = _game_deals(record.game)
    if module is None or not record.is_public:
        return None
    answer = solve(module.problem(record, None))
    if not answer.fits:
        return None
    full: Record = module.full_record(record, answer)
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
