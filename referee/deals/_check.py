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
    if type(event) not in _EVENTS and not isinstance(event, _EVENTS):
        raise DealProblemError(
            f"event {index}: expected a Draw, Spend, PutBack, Receive, Insert or Lacks, "
            f"not {event!r}"
        )
    assert isinstance(event, _EVENTS)
    _check_when_and_who(index, event, players)
    if isinstance(event, Draw | PutBack | Insert):
        _check_pile(index, event, piles)
    if isinstance(event, Spend | Receive):
        return _checked_card(index, event, home)
    if isinstance(event, Draw):
        sizes[event.pile] = max(0, sizes[event.pile] - 1)  # an empty pile fails later
        return event
    if isinstance(event, PutBack):
        return _checked_put_back(index, event, home, sizes)
    if isinstance(event, Insert):
        return _checked_insert(index, event, home, sizes)
    return _checked_lacks(index, event)


def _error(index: int, event: Event, problem: str) -> DealProblemError:
    """The error for event ``index``: it quotes the event, then says what is wrong."""
    return DealProblemError(f"event {index} {event!r}: {problem}")


def _check_when_and_who(index: int, event: Event, players: int) -> None:
    """The ply is a whole number >= 0; the player (any event but an insert has
    one) is one of the ``players``."""
    ply = event.ply
    if not _whole(ply) or ply < 0:
        raise _error(index, event, f"ply must be a whole number >= 0, not {ply!r}")
    if type(event) is Insert:
        return
    assert not isinstance(event, Insert)
    player = event.player
    if not _whole(player) or not 0 <= player < players:
        raise _error(
            index,
            event,
            f"player {player!r} is not one of the {players} players (0-{players - 1})",
        )


def _check_pile(
    index: int, event: Draw | PutBack | Insert, piles: Mapping[str, tuple[str, ...]]
) -> None:
    """The event's pile is one of ``piles``."""
    if not isinstance(event.pile, str) or event.pile not in piles:
        known = ", ".join(repr(name) for name in piles) or "none"
        raise _error(index, event, f"unknown pile {event.pile!r} (piles: {known})")


def _checked_card(index: int, event: Spend | Receive, home: Mapping[str, str]) -> Event:
    """A spent or received card is a card name; a received one is a card of a pile."""
    if not isinstance(event.card, str) or not event.card:
        raise _error(index, event, f"card {event.card!r} is not a non-empty string")
    if type(event) is Receive and event.card not in home:
        raise _error(index, event, f"{event.card!r} is a card of no pile")
    return event


def _checked_put_back(
    index: int, event: PutBack, home: Mapping[str, str], sizes: dict[str, int]
) -> Event:
    """A named card put back is a card of that pile; the excluded cards are card
    names. The pile grows by one."""
    if event.card is not None and (
        not isinstance(event.card, str) or home.get(event.card) != event.pile
    ):
        raise _error(index, event, f"{event.card!r} is not a card of the {event.pile!r} pile")
    excluded = _names(event.excluded, lambda: f"event {index} {event!r}: excluded")
    sizes[event.pile] += 1
    return event if excluded is event.excluded else replace(event, excluded=excluded)


def _checked_insert(
    index: int, event: Insert, home: Mapping[str, str], sizes: dict[str, int]
) -> Event:
    """The inserted cards are a non-empty tuple of that pile's cards, and their
    places (when recorded) fit the pile they grow."""
    if isinstance(event.cards, set | frozenset):
        raise _error(index, event, f"expected a tuple of cards, not {event.cards!r}")
    cards = _names(event.cards, lambda: f"event {index} {event!r}: cards")
    if not cards:
        raise _error(index, event, f"expected a non-empty tuple of cards, not {event.cards!r}")
    for card in cards:
        if home.get(card) != event.pile:
            raise _error(index, event, f"{card!r} is not a card of the {event.pile!r} pile")
    size = sizes[event.pile] + len(cards)
    positions = event.positions
    if positions is not None:
        positions = _checked_places(index, event, len(cards), size)
    sizes[event.pile] = size
    if cards is not event.cards or positions is not event.positions:
        return replace(event, cards=cards, positions=positions)
    return event


def _checked_places(index: int, event: Insert, count: int, size: int) -> tuple[int, ...]:
    """An insert's recorded places: ``count`` distinct places 1-``size``, as a tuple."""
    positions = event.positions
    if (
        not isinstance(positions, tuple | list)
        or len(positions) != count
        or not all(_whole(p) and 1 <= p <= size for p in positions)
        or len(set(positions)) != count
    ):
        raise _error(
            index,
            event,
            f"insert places {positions!r} do not fit {count} cards into a pile of {size} "
            f"(distinct places 1-{size}, one per card)",
        )
    return tuple(positions)


def _checked_lacks(index: int, event: Lacks) -> Event:
    """The lacked cards are card names (made a frozenset); ``doing`` is a string."""
    lacked = _names(event.cards, lambda: f"event {index} {event!r}: cards")
    if not isinstance(event.doing, str):
        raise _error(index, event, f"doing must be a string, not {event.doing!r}")
    if not isinstance(event.cards, frozenset):
        return replace(event, cards=frozenset(lacked))
    return event
