"""Placing every card of a case that matched: the named cards where the
matching put them, the spare copies of each card wherever they may lie (see
:mod:`referee.deals`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from referee.deals._sim import _Lacking, _Sim

__all__ = ["_Fit", "_Network", "_anywhere", "_laminar"]


@dataclass
class _Fit:
    """A case that fits: each place's unit type, and the types of the places no
    one drew, by segment."""

    sim: _Sim
    labels: dict[int, int]
    undrawn: dict[int, list[int]]


def _anywhere(sim: _Sim, labels: dict[int, int], spare: Sequence[int]) -> _Fit:
    """Place the spare copies when nothing constrains them: in unit type order,
    on the places drawn that no demand took, the rest undrawn."""
    rest = iter([t for t, n in enumerate(spare) for _ in range(n)])
    for place in range(len(sim.places)):
        if place not in labels:
            labels[place] = next(rest)
    return _Fit(sim, labels, {0: list(rest)})


def _laminar(
    sim: _Sim, labels: dict[int, int], spare: Sequence[int], undrawn: Mapping[int, int]
) -> _Fit | None:
    """Place the spare copies when only segments constrain them: the places
    of the deepest segments first, each taking a copy of the nearest
    segment above it that has one (for nested segments, never worse).
    ``None`` if that leaves a place empty (the flow then decides)."""
    parent = sim.parent
    depth = [0] * len(parent)
    for seg, up in enumerate(parent):
        depth[seg] = depth[up] + 1 if up >= 0 else 0
    left = list(spare)
    by_seg: dict[int, list[int]] = {}
    for t, (_, seg, _, _) in enumerate(sim.types):
        if left[t] > 0:
            by_seg.setdefault(seg, []).append(t)
    targets = [(seg, place) for place, (seg, *_) in enumerate(sim.places) if place not in labels]
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


class _Network:
    """The max-flow that places every card of a case at once.

    Its nodes: 0 the source, 1 the sink, the demands, the unit types, a hub per
    segment, the places drawn, and the places no one drew (by segment). Each
    demand sends one card to a place it may have used; each unit type sends its
    spare copies to its segment's hub, and from there down to the segments it
    holds, to the places whose card nothing restricts and to the undrawn places;
    a restricted place takes only the types it may hold, straight from them.
    """

    def __init__(
        self,
        sim: _Sim,
        below: Sequence[frozenset[int]],
        lacks: _Lacking,
        end: int,
        candidates: Sequence[Sequence[int]],
        spare: Sequence[int],
        restricted: set[int],
        undrawn: Mapping[int, int],
    ) -> None:
        self.sim, self.restricted, self.undrawn = sim, restricted, undrawn
        segs = len(sim.parent)
        self.first_type = 2 + len(sim.demands)
        self.first_hub = self.first_type + len(sim.types)
        self.first_place = self.first_hub + segs
        self.first_undrawn = self.first_place + len(sim.places)
        self.flow = _Flow(self.first_undrawn + segs)
        self.demand_edges: dict[tuple[int, int], int] = {}
        self.source_edges: dict[int, int] = {}
        self.down: dict[int, int] = {}  # segment -> the hub edge from its parent
        self.to_undrawn: dict[int, int] = {}
        self.undrawn_sink: dict[int, int] = {}
        self.to_place: dict[int, int] = {}
        self.place_sink: dict[int, int] = {}
        self.type_hub: dict[int, int] = {}
        self.direct: dict[tuple[int, int], int] = {}
        self._add_demands(candidates)
        self._add_segments()
        self._add_places()
        self._add_types(spare, below, lacks, end)

    # -- the edges ---------------------------------------------------------------------

    def _add_demands(self, candidates: Sequence[Sequence[int]]) -> None:
        """Source -> each demand -> each place it may have used."""
        flow = self.flow
        for d, found in enumerate(candidates):
            self.source_edges[2 + d] = flow.add(0, 2 + d, 1)
            for place in found:
                self.demand_edges[d, place] = flow.add(2 + d, self.first_place + place, 1)

    def _add_segments(self) -> None:
        """Each hub -> the hubs of the segments it holds, and -> its undrawn
        places -> sink."""
        flow, first_hub = self.flow, self.first_hub
        for seg, up in enumerate(self.sim.parent):
            if up >= 0:
                self.down[seg] = flow.add(first_hub + up, first_hub + seg, 1 << 20)
        for seg in range(len(self.sim.parent)):
            if self.undrawn[seg]:
                self.to_undrawn[seg] = flow.add(first_hub + seg, self.first_undrawn + seg, 1 << 20)
                self.undrawn_sink[seg] = flow.add(self.first_undrawn + seg, 1, self.undrawn[seg])

    def _add_places(self) -> None:
        """Each hub -> the unrestricted places of its segment; each place -> sink."""
        flow = self.flow
        for place, (seg, _, _, _, _, _) in enumerate(self.sim.places):
            if place not in self.restricted:
                self.to_place[place] = flow.add(self.first_hub + seg, self.first_place + place, 1)
            self.place_sink[place] = flow.add(self.first_place + place, 1, 1)

    def _add_types(
        self, spare: Sequence[int], below: Sequence[frozenset[int]], lacks: _Lacking, end: int
    ) -> None:
        """Source -> each unit type with spare copies -> its segment's hub, and ->
        each restricted place that may hold it: no earlier stay forbids the card,
        the place's segment lies within the type's, and its holder did not lack
        the card between taking it and event ``end``."""
        flow, places = self.flow, self.sim.places
        for t, (card, seg, _, _) in enumerate(self.sim.types):
            if spare[t] <= 0:
                continue
            self.source_edges[self.first_type + t] = flow.add(0, self.first_type + t, spare[t])
            self.type_hub[t] = flow.add(self.first_type + t, self.first_hub + seg, spare[t])
            for place in self.restricted:
                pseg, _, holder, start, held, cannot = places[place]
                if card in cannot or seg not in below[pseg]:
                    continue
                if held and lacks.blocks(holder, start, end, card):
                    continue
                self.direct[t, place] = flow.add(self.first_type + t, self.first_place + place, 1)

    # -- the flow ----------------------------------------------------------------------

    def fills(self, demand_at: Mapping[int, int], spare: Sequence[int]) -> bool:
        """Whether every place, drawn or not, gets a card: the demands' matching
        and a greedy placing first (a warm start), then the max-flow."""
        left = list(spare)
        total = self._push_demands(demand_at)
        total += self._push_restricted(demand_at, left)
        total += self._push_free(demand_at, left)
        needed = len(self.sim.places) + sum(self.undrawn.values())
        total += self.flow.run(0, 1)
        return total == needed

    def _push(self, path: Iterable[int]) -> None:
        edges = self.flow.edges
        for e in path:
            edges[e][1] -= 1
            edges[e ^ 1][1] += 1

    def _push_demands(self, demand_at: Mapping[int, int]) -> int:
        """The demands' matching; how many cards it places."""
        for place, d in demand_at.items():
            self._push(
                (self.source_edges[2 + d], self.demand_edges[d, place], self.place_sink[place])
            )
        return len(demand_at)

    def _push_restricted(self, demand_at: Mapping[int, int], left: list[int]) -> int:
        """Each restricted place no demand took, the first type with a copy
        ``left`` that it may hold; how many it places."""
        total = 0
        for place in sorted(self.restricted):
            if place in demand_at:
                continue
            for t in range(len(self.sim.types)):
                if left[t] > 0 and (t, place) in self.direct:
                    self._push(
                        (
                            self.source_edges[self.first_type + t],
                            self.direct[t, place],
                            self.place_sink[place],
                        )
                    )
                    left[t] -= 1
                    total += 1
                    break
        return total

    def _push_free(self, demand_at: Mapping[int, int], left: list[int]) -> int:
        """Each unrestricted place no demand took, then each undrawn place, a
        copy ``left`` of the nearest segment above that has one; how many it places."""
        sim = self.sim
        by_seg: dict[int, list[int]] = {}
        for t, (_, seg, _, _) in enumerate(sim.types):
            if left[t] > 0:
                by_seg.setdefault(seg, []).append(t)
        targets = [
            (seg, (self.to_place[place], self.place_sink[place]))
            for place, (seg, _, _, _, _, _) in enumerate(sim.places)
            if place not in self.restricted and place not in demand_at
        ]
        targets += [
            (seg, (self.to_undrawn[seg], self.undrawn_sink[seg]))
            for seg in range(len(sim.parent))
            for _ in range(self.undrawn[seg])
        ]
        total = 0
        for seg, tail in targets:
            path = self._take(seg, by_seg, left)
            if path is not None:
                self._push((*path, *tail))
                total += 1
        return total

    def _take(self, seg: int, by_seg: dict[int, list[int]], left: list[int]) -> list[int] | None:
        """A path from a type with spare copies ``left`` down to ``seg``'s hub."""
        chain: list[int] = []
        at = seg
        while at >= 0:
            found = by_seg.get(at)
            while found and left[found[-1]] == 0:
                found.pop()
            if found:
                t = found[-1]
                left[t] -= 1
                return [self.source_edges[self.first_type + t], self.type_hub[t], *reversed(chain)]
            if at in self.down:
                chain.append(self.down[at])
            at = self.sim.parent[at]
        return None

    # -- reading the flow back ---------------------------------------------------------

    def fit(self, types: Sequence[int | None]) -> _Fit:
        """Each place's unit type and each segment's undrawn types, as the flow
        placed them (the demands' types are ``types``)."""
        flow = self.flow
        labels: dict[int, int] = {}
        for (d, place), e in self.demand_edges.items():
            if flow.flow(e):
                t = types[d]
                assert t is not None
                labels[place] = t
        for (t, place), e in self.direct.items():
            if flow.flow(e):
                labels[place] = t
        unplaced = self._follow_hubs(labels)
        return _Fit(self.sim, labels, unplaced)

    def _follow_hubs(self, labels: dict[int, int]) -> dict[int, list[int]]:
        """Follow each copy a type fed its hub down to its place (into
        ``labels``) or its undrawn segment (returned)."""
        flow, kinds = self.flow, self.sim.types
        carried = [[target, flow.flow(e)] for e, (target, _, _) in enumerate(flow.edges)]
        unplaced: dict[int, list[int]] = {}
        for t, feed in self.type_hub.items():
            while carried[feed][1] > 0:
                carried[feed][1] -= 1
                path = self._path(carried, self.first_hub + kinds[t][1])
                assert path is not None
                end = path[-1]
                for step in path[:-1]:
                    carried[step][1] -= 1
                if end < self.first_undrawn:
                    labels[end - self.first_place] = t
                else:
                    unplaced.setdefault(end - self.first_undrawn, []).append(t)
        return unplaced

    def _path(self, carried: list[list[int]], start: int) -> list[int] | None:
        """Edges still carrying flow from the hub ``start`` down to a place or an
        undrawn segment (the path's last element is that node)."""
        path: list[int] = []
        node = start
        while node < self.first_place:
            for e in self.flow.out[node]:
                if e % 2 == 0 and carried[e][1] > 0:
                    path.append(e)
                    node = carried[e][0]
                    break
            else:
                return None
        path.append(node)
        return path
