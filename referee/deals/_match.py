"""One case of a pile: matching the named cards to the places their players
drew, then placing every other card (see :mod:`referee.deals`)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from referee.deals._problem import (
    MAX_CASES,
    DealProblem,
    Draw,
    Insert,
    Lacks,
    PutBack,
    Receive,
    Spend,
)
from referee.deals._sim import _Failure, _Lacking, _Sim

__all__ = ["_Fit", "_Matcher"]


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

    def _complete(  # noqa: C901 (split up in a later commit)
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
