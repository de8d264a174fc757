"""Tactic cards as every game on a line has them: one card type, the tactic
limit, the one-joker rule and the ruses both games share.

A tactic card's text is its name (:class:`Tactic`). Elite troops (the jokers,
the spy, the shield bearer) lie on a side like plain cards and are valued when
the place is resolved; combat styles lie on a place and change how it is won;
every other tactic card is a ruse, played at once and discarded. The games
name their ruses differently (Schotten Totten's strategist is Schotten Totten
2's redeploy), so the ruses here take their card's name and the game's words:

>>> Tactic("joker"), Tactic("joker").kind, Tactic("mud_fight").kind, Tactic("banshee").kind
(Tactic('joker'), 'elite', 'style', 'ruse')
>>> may_play_tactic((2, 1), 0), may_play_tactic((1, 1), 0)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol, Self, TypeVar

from referee.line.state import illegal, place_at

__all__ = [
    "COMBAT_STYLES",
    "ELITE_TROOPS",
    "JOKER",
    "Ruses",
    "Tactic",
    "check_tactic",
    "may_play_tactic",
]

#: The tactic cards that lie on a side (in either game); the jokers among them.
ELITE_TROOPS = frozenset({"joker", "spy", "shield_bearer", "shield"})
#: The tactic cards that lie on a place and change how it is won.
COMBAT_STYLES = frozenset({"blind_mans_bluff", "mud_fight"})


class Tactic(NamedTuple):
    """A tactic card, named as in RULINGS.md (``joker``, ``spy``, ``mud_fight`` ...)."""

    name: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tactic({self.name!r})"

    @property
    def kind(self) -> str:
        """``"elite"``, ``"style"`` or ``"ruse"``."""
        if self.name in ELITE_TROOPS:
            return "elite"
        return "style" if self.name in COMBAT_STYLES else "ruse"


#: The joker: one per player and game (:func:`check_tactic`).
JOKER = Tactic("joker")


def may_play_tactic(played: Sequence[int], player: int) -> bool:
    """The tactic limit: a player may play a tactic card unless it has already
    played more of them than its opponent (no player gets two ahead; every
    tactic card counts, ruses too)."""
    return played[player] <= played[1 - player]


def check_tactic(
    move: object,
    card: object,
    played: Sequence[int],
    jokers: Sequence[bool],
    player: int,
    reasons: tuple[str, str],
) -> None:
    """Refuse ``card`` for ``player`` by the tactic limit or the one-joker rule
    (once a player has played a joker, its second one stays in hand to the
    end); ``reasons`` are the game's codes for the two (limit, second joker).

    >>> check_tactic("joker@3", JOKER, (1, 1), (True, False), 0, ("tactic_limit", "second_joker"))
    Traceback (most recent call last):
    ...
    referee.errors.IllegalMoveError: illegal move 'joker@3': you have already played a joker this game
    """
    if not may_play_tactic(played, player):
        raise illegal(
            move,
            reasons[0],
            f"you have played {played[player]} tactic cards and your opponent "
            f"{played[1 - player]}: you may not get two ahead",
        )
    if card == JOKER and jokers[player]:
        raise illegal(move, reasons[1], "you have already played a joker this game")


class _Place(Protocol):
    """A place as the ruses see it: the cards of each side and an owner."""

    @property
    def sides(self) -> Sequence[tuple[Any, ...]]: ...

    @property
    def owner(self) -> int | None: ...

    @property
    def size(self) -> int: ...

    def room(self, player: int) -> bool: ...

    def with_card(self, player: int, card: Any, ply: int) -> Self: ...

    def without_card(self, player: int, card: Any, ply: int) -> Self: ...


_P = TypeVar("_P", bound=_Place)


class Ruses(NamedTuple):
    """The game's words for the ruses that take a card off a side: what a
    place is called and the reason codes of their refusals."""

    noun: str
    no_such_place: str
    claimed: str
    card_not_there: str
    same_place: str
    side_full: str

    def place(self, move: object, places: Sequence[_P], number: int) -> _P:
        """The place numbered ``number`` (from 1) that ``move`` names, or its refusal."""
        return place_at(move, number, tuple(places), self.no_such_place, self.noun)

    def _card_at(
        self, move: object, places: Sequence[_P], number: int, card: object, owner: int, mover: int
    ) -> _P:
        """The unclaimed place ``number`` with ``card`` on ``owner``'s side."""
        place = self.place(move, places, number)
        if place.owner is not None:
            raise illegal(move, self.claimed, f"{self.noun} {number} is already claimed")
        if card not in place.sides[owner]:
            whose = "your" if owner == mover else "the opponent's"
            raise illegal(
                move,
                self.card_not_there,
                f"{card} is not on {whose} side of {self.noun} {number}",
            )
        return place

    def _room_at(self, move: object, place: _Place, number: int, player: int) -> None:
        if place.owner is not None:
            raise illegal(move, self.claimed, f"{self.noun} {number} is already claimed")
        if not place.room(player):
            raise illegal(
                move,
                self.side_full,
                f"your side of {self.noun} {number} already has {place.size} cards",
            )

    def redeploy(
        self,
        move: object,
        places: Sequence[_P],
        player: int,
        card: object,
        source: int,
        target: int | None,
        ply: int,
    ) -> tuple[list[_P], tuple[object, ...]]:
        """Move ``player``'s ``card`` from place ``source`` to the side of place
        ``target`` with room, or discard it (``target`` ``None``): the places
        after it and the cards discarded. (Schotten Totten: the strategist.)"""
        changed = list(places)
        changed[source - 1] = self._card_at(
            move, places, source, card, player, player
        ).without_card(player, card, ply)
        if target is None:
            return changed, (card,)
        destination = self.place(move, places, target)
        if target == source:
            raise illegal(move, self.same_place, f"move the card to another {self.noun}")
        self._room_at(move, destination, target, player)
        changed[target - 1] = destination.with_card(player, card, ply)
        return changed, ()

    def desert(
        self, move: object, places: Sequence[_P], player: int, card: object, number: int, ply: int
    ) -> tuple[list[_P], tuple[object, ...]]:
        """Discard the opponent's ``card`` from place ``number``: the places
        after it and the card discarded. (Schotten Totten: the banshee.)"""
        opponent = 1 - player
        changed = list(places)
        place = self._card_at(move, places, number, card, opponent, player)
        changed[number - 1] = place.without_card(opponent, card, ply)
        return changed, (card,)

    def betray(
        self,
        move: object,
        places: Sequence[_P],
        player: int,
        card: object,
        source: int,
        target: int,
        ply: int,
        plain: Callable[[object], bool],
        not_plain: tuple[str, str],
    ) -> list[_P]:
        """Take the opponent's ``card`` (a plain card: ``plain(card)``, else
        refused with ``not_plain``, its reason code and words) from place
        ``source`` to ``player``'s side of place ``target``: the places after
        it. (Schotten Totten: the traitor.)"""
        opponent = 1 - player
        changed = list(places)
        source_place = self.place(move, places, source)
        if not plain(card):
            raise illegal(move, not_plain[0], f"{not_plain[1]}, not {card}")
        self._card_at(move, places, source, card, opponent, player)
        changed[source - 1] = source_place.without_card(opponent, card, ply)
        self.place(move, places, target)
        destination = changed[target - 1]
        self._room_at(move, destination, target, player)
        changed[target - 1] = destination.with_card(player, card, ply)
        return changed
