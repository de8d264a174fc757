"""One case of a pile: matching the named cards to the places their players
drew, then placing every other card (see :mod:`referee.deals`)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

from referee.deals._place import _anywhere, _Fit, _laminar, _Network
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

__all__ = ["_Matcher"]


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
        undrawn = Counter(int(item[1]) for item in sim.queue if item[0] == "P")
        spare = [count - used[t] for t, (_, _, _, count) in enumerate(sim.types)]
        restricted = self._restricted()
        labels: dict[int, int] = {}
        for place, d in demand_at.items():
            t = types[d]
            assert t is not None
            labels[place] = t
        if not restricted and len(sim.parent) == 1:
            return _anywhere(sim, labels, spare)
        if not restricted:
            fit = _laminar(sim, labels, spare, undrawn)
            if fit is not None:
                return fit
        end = len(self.problem.events)
        network = _Network(sim, self.below, self.lacks, end, candidates, spare, restricted, undrawn)
        return network.fit(types) if network.fills(demand_at, spare) else None
