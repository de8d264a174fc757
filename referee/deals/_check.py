"""Checking a :class:`~referee.deals.DealProblem` before it is solved: every
part well formed, its collections made tuples and frozensets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from referee.deals._problem import (
    DealProblem,
    DealProblemError,
    Draw,
    Event,
    Insert,
    Lacks,
    PutBack,
    Receive,
    Spend,
)

__all__ = ["_checked"]

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


def _checked_event(  # noqa: C901 (split up in the next commit)
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
