"""The cards of Clans and Glory and how a game is set up for 2, 3 or 4 players.

The game has 42 cards: ranks 3-8 in seven colours. Each colour has a fixed
one-letter code (the printed colours are only known from pictures we lack, so
these are our names; only "same colour" matters to the rules)::

    >>> CLAN_CARDS.colours, len(CLAN_CARDS.cards)
    ('ROYGBPW', 42)
    >>> CLAN_CARDS.colour_name("W")
    'white'

The set-up depends on the number of players (see ``docs/games/clans-and-glory.md``):

    >>> rules = SETUPS[2]
    >>> rules.tableaus, rules.removed_ranks, rules.random_removals, rules.start_cards
    (4, (7, 8), 3, 8)
    >>> rules.hand_sizes, len(rules.deck())
    ((9, 8), 28)
    >>> [len(SETUPS[n].deck()) for n in (2, 3, 4)]
    [28, 35, 42]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from referee.cards import Card, CardSet
from referee.errors import InvalidDealError

__all__ = [
    "CLAN_CARDS",
    "SETUPS",
    "SHIELDS_PER_PLAYER",
    "InvalidDealError",
    "Setup",
    "setup_for",
]

#: The 42 cards: seven colours (red, orange, yellow, green, blue, purple, white) × ranks 3-8.
CLAN_CARDS = CardSet(
    colours="ROYGBPW",
    colour_names=("red", "orange", "yellow", "green", "blue", "purple", "white"),
    values=range(3, 9),
)

#: Every player has five shields of their own colour.
SHIELDS_PER_PLAYER = 5


@dataclass(frozen=True, slots=True)
class Setup:
    """The set-up facts for one player count (rulings 1 and 2)."""

    players: int
    #: Number of tableaus in the row (the two ends are campfire tableaus).
    tableaus: int
    #: Ranks taken out of the game before shuffling.
    removed_ranks: tuple[int, ...]
    #: Cards removed face down, at random, after shuffling.
    random_removals: int
    #: Cards placed face up on the tableaus before the first turn.
    start_cards: int
    #: Cards dealt to each player, in turn order; the last player has fewest.
    hand_sizes: tuple[int, ...]

    def deck(self) -> tuple[Card, ...]:
        """The cards in play for this player count, in the card set's order."""
        return tuple(c for c in CLAN_CARDS.cards if c.value not in self.removed_ranks)

    @property
    def last_player(self) -> int:
        """The player with fewest cards, who moves last in each round."""
        return len(self.hand_sizes) - 1


#: The set-up for each player count (ruling 1); read-only.
SETUPS: Mapping[int, Setup] = MappingProxyType(
    {
        2: Setup(2, 4, (7, 8), 3, 8, (9, 8)),
        3: Setup(3, 5, (8,), 4, 5, (9, 9, 8)),
        4: Setup(4, 6, (), 5, 6, (8, 8, 8, 7)),
    }
)


def setup_for(players: object) -> Setup:
    """The set-up for ``players`` players (2, 3 or 4).

    >>> setup_for(3).hand_sizes
    (9, 9, 8)
    >>> setup_for(5)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: Clans and Glory is for 2 to 4 players, not 5
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in SETUPS:
        raise InvalidDealError("players", f"Clans and Glory is for 2 to 4 players, not {players!r}")
    return SETUPS[players]
