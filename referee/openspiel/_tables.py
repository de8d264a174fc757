"""What the OpenSpiel games need to know of each of the library's games.

A :class:`Table` says, for one game under one set of parameters, how the deal is
played card by card (who receives each dealt card), which cards chance deals
from, which piles are drawn from during play and which of their places are
already fixed, how the library's own chance plies are numbered, and the bounds
OpenSpiel asks for. :mod:`referee.openspiel._game` does the rest, the same way
for every game. Nothing here imports pyspiel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.actions import ActionSpace
from referee.games import GameDescriptor, Lazy

__all__ = ["HIDDEN", "PUBLIC", "TABLES", "Table"]

#: A dealt card nobody sees (Clans and Glory's cards removed face down).
HIDDEN = -1
#: A dealt card everybody sees (Clans and Glory's start cards).
PUBLIC = -2


@dataclass(frozen=True, eq=False)
class Table:
    """One game under one set of parameters, as the OpenSpiel game plays it.

    ``kinds`` numbers the cards chance deals and draws (a chance outcome is an
    index into it; cards that are alike, such as the two jokers, are one
    kind). ``slots`` gives the receiver of each card of the deal, in the order
    the library's ``new_game(deck=...)`` reads the deck: a player, or
    :data:`HIDDEN` or :data:`PUBLIC`. ``piles`` names the state's draw piles
    (``deck``, ``tactic_deck``); their unseen part is drawn card by card at the
    moment a move draws it.
    """

    descriptor: GameDescriptor[Any]
    players: int
    kinds: tuple[Any, ...]
    pool: tuple[Any, ...]
    slots: tuple[int, ...]
    piles: tuple[str, ...]
    max_game_length: int
    #: Whether the returns always add up to 0 (no shared win).
    zero_sum: bool = True
    # the library's own chance plies (Schotten Totten 2's shuffle): id offset, positions
    chance_offset: int = 0
    chance_width: int = 0
    parameters: Mapping[str, Any] = field(default_factory=dict)
    _kind_ids: dict[Any, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._kind_ids.update({kind: i for i, kind in enumerate(self.kinds)})

    @property
    def max_chance_outcomes(self) -> int:
        """How many chance ids there are (cards, then the library's chance plies)."""
        if self.chance_width:
            return self.chance_offset + self.chance_width * self.chance_width
        return len(self.kinds)

    def kind_id(self, card: Any) -> int:
        """The chance id of ``card``."""
        return self._kind_ids[card]

    def space(self, state: Any) -> ActionSpace:
        """The library's action space of ``state``."""
        action_space = self.descriptor.action_space
        assert action_space is not None
        return action_space(state)

    def start(self, dealt: Sequence[Any]) -> Any:
        """The library's first state once ``dealt`` (one card per slot) is dealt."""
        raise NotImplementedError

    def fixed(self, state: Any, pile: int, placed: frozenset[Any]) -> frozenset[int]:
        """The places of pile ``pile`` whose card is no longer chance: cards put
        back under the pile, or placed by the library's own chance ply."""
        return frozenset()

    def chance_id(self, move: Any) -> int:
        """The chance id of one of the library's chance moves."""
        raise NotImplementedError(f"{self.descriptor.title} has no chance moves of its own")

    def chance_move(self, action: int) -> Any:
        """The library's chance move with id ``action``."""
        raise NotImplementedError(f"{self.descriptor.title} has no chance moves of its own")

    def placed_after(self, placed: frozenset[Any], before: Any, move: Any) -> frozenset[Any]:
        """``placed`` after the library's chance move ``move`` played on ``before``."""
        return placed


def _descriptor(package: str) -> GameDescriptor[Any]:
    """The descriptor a game's package declares (``referee.<package>._game:GAME``)."""
    game: GameDescriptor[Any] = Lazy(f"referee.{package}._game:GAME").load()
    return game


def _rest(pool: Sequence[Any], dealt: Sequence[Any]) -> list[Any]:
    """``pool`` without the cards of ``dealt`` (the cards are all different)."""
    gone = set(dealt)
    return [card for card in pool if card not in gone]


def _flag(parameters: Mapping[str, Any], name: str) -> bool:
    value = parameters[name]
    if type(value) is not bool:
        raise ValueError(f"parameter {name} is true or false, not {value!r}")
    return value


def _whole(parameters: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = parameters[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"parameter {name} is a whole number {low}-{high}, not {value!r}")
    return value


# --- Schotten Totten ------------------------------------------------------------------


class _SchottenTotten(Table):
    def start(self, dealt: Sequence[Any]) -> Any:
        from referee.schotten_totten import CLAN_CARDS, Rules, new_game
        from referee.schotten_totten.tactics import TACTIC_CARDS

        rules: Rules = self.parameters["rules"]
        return new_game(
            deck=[*dealt, *_rest(CLAN_CARDS.cards, dealt)],
            tactic_deck=TACTIC_CARDS if rules.tactics else None,
            first=self.parameters["first"],
            rules=rules,
        )

    def fixed(self, state: Any, pile: int, placed: frozenset[Any]) -> frozenset[int]:
        # the recruiter's cards lie at the bottom of their pile, in a known order
        size = state.deck_size if pile == 0 else state.tactic_deck_size
        under = len(state.under_piles[pile])
        return frozenset(range(size - under, size))


def schotten_totten(parameters: Mapping[str, Any]) -> Table:
    """Schotten Totten: parameters ``tactics``, ``early_bird``, ``edition`` (2024
    or 1999) and ``first`` (the player who moves first)."""
    from referee.schotten_totten.actions import KINDS
    from referee.schotten_totten.state import CLAN_CARDS, Rules

    edition = parameters["edition"]
    if isinstance(edition, bool) or edition not in (2024, 1999):
        raise ValueError(f"parameter edition is 2024 or 1999, not {edition!r}")
    rules = Rules(
        edition="1999" if edition == 1999 else "2024",
        tactics=_flag(parameters, "tactics"),
        early_bird=_flag(parameters, "early_bird"),
    )
    size = rules.hand_size
    # The longest game (see docs/openspiel.md): every turn plays a card from a
    # hand or passes; cards reach hands at most 54 times (66 with tactics: 54
    # clan and 10 tactic cards, and the 2 the recruiter puts back can come
    # again). No two blank turns follow each other and at most 9 turns claim,
    # so turns <= 2 * (plays + 9) + 1; a turn is 2 plies besides its claims
    # (at most 9 in a game), the recruiter's turn 3.
    plays = 66 if rules.tactics else 54
    turns = 2 * (plays + 9) + 1
    longest = 2 * turns + 9 + (1 if rules.tactics else 0)
    return _SchottenTotten(
        descriptor=_descriptor("schotten_totten"),
        players=2,
        kinds=KINDS,
        pool=CLAN_CARDS.cards,
        slots=(0,) * size + (1,) * size,
        piles=("deck", "tactic_deck"),
        max_game_length=longest,
        parameters={"rules": rules, "first": _whole(parameters, "first", 0, 1)},
    )


# --- Schotten Totten 2 ----------------------------------------------------------------

_SIEGE = 60


class _SchottenTotten2(Table):
    def start(self, dealt: Sequence[Any]) -> Any:
        from referee.schotten_totten_2 import SIEGE_CARDS, TACTIC_CARDS, Rules, new_game

        rules: Rules = self.parameters["rules"]
        return new_game(
            deck=[*dealt, *_rest(SIEGE_CARDS.cards, dealt)],
            tactic_deck=TACTIC_CARDS if rules.tactics else None,
            attacker=self.parameters["attacker"],
            rules=rules,
        )

    def fixed(self, state: Any, pile: int, placed: frozenset[Any]) -> frozenset[int]:
        if pile != 0 or not placed:
            return frozenset()
        return frozenset(i for i, card in enumerate(state.deck) if card in placed)

    def chance_id(self, move: Any) -> int:
        first, second = move.positions
        return int(self.chance_offset + (first - 1) * self.chance_width + second - 1)

    def chance_move(self, action: int) -> Any:
        from referee.schotten_totten_2.moves import Shuffle

        first, second = divmod(action - self.chance_offset, self.chance_width)
        return Shuffle((first + 1, second + 1))

    def placed_after(self, placed: frozenset[Any], before: Any, move: Any) -> frozenset[Any]:
        # support's two cards now lie at the places chance gave them
        return placed | frozenset(before.support)


def schotten_totten_2(parameters: Mapping[str, Any]) -> Table:
    """Schotten Totten 2: parameters ``tactics`` and ``attacker`` (the attacking player)."""
    from referee.schotten_totten_2 import SIEGE_CARDS, TACTIC_CARDS, Rules

    rules = Rules(tactics=_flag(parameters, "tactics"))
    size = rules.hand_size
    tactic_kinds = tuple(dict.fromkeys(TACTIC_CARDS))
    kinds = (*SIEGE_CARDS.cards, *tactic_kinds)
    # The longest game (see docs/openspiel.md): every turn but the passes and
    # the last two draws a card (48 siege cards; with tactics 46, the 11
    # tactic cards and the 2 support shuffles back), and a player passes only
    # while the other plays, so turns <= 2 * (draws + 2) + 2; a turn is at
    # most 4 plies (opening, card, an exchange's answer, draw) besides the
    # controls (at most 4 in a game: the fourth damaged tile wins).
    draws = 46 + 11 + 2 if rules.tactics else 48
    turns = 2 * (draws + 2) + 2
    return _SchottenTotten2(
        descriptor=_descriptor("schotten_totten_2"),
        players=2,
        kinds=kinds,
        pool=SIEGE_CARDS.cards,
        slots=(0,) * size + (1,) * size,
        piles=("deck", "tactic_deck"),
        max_game_length=4 * turns + 4,
        chance_offset=len(kinds),
        chance_width=_SIEGE,
        parameters={"rules": rules, "attacker": _whole(parameters, "attacker", 0, 1)},
    )


# --- Clans and Glory ------------------------------------------------------------------


class _ClansAndGlory(Table):
    def start(self, dealt: Sequence[Any]) -> Any:
        from referee.clans_and_glory.dealing import new_game

        return new_game(players=self.players, deck=list(dealt))


def clans_and_glory(parameters: Mapping[str, Any]) -> Table:
    """Clans and Glory: parameter ``players`` (2-4)."""
    from referee.clans_and_glory.cards import CARDS
    from referee.clans_and_glory.setup import setup_for

    players = _whole(parameters, "players", 2, 4)
    setup = setup_for(players)
    slots = (
        (HIDDEN,) * setup.random_removals
        + (PUBLIC,) * setup.start_cards
        + tuple(p for p, size in enumerate(setup.hand_sizes) for _ in range(size))
    )
    return _ClansAndGlory(
        descriptor=_descriptor("clans_and_glory"),
        zero_sum=False,  # a shared win gives +1 to each player who shares it
        players=players,
        kinds=tuple(CARDS),
        pool=tuple(setup.deck()),
        slots=slots,
        piles=(),
        # every ply places one card from a hand
        max_game_length=sum(setup.hand_sizes),
        parameters={"players": players},
    )


#: The OpenSpiel games: short name -> (long name, parameters with their defaults,
#: the function that makes a :class:`Table` of parameters, fewest and most players).
TABLES: Mapping[str, tuple[str, dict[str, Any], Any, tuple[int, int]]] = MappingProxyType(
    {
        "referee_schotten_totten": (
            "Schotten Totten (referee)",
            {"tactics": False, "early_bird": False, "edition": 2024, "first": 0},
            schotten_totten,
            (2, 2),
        ),
        "referee_schotten_totten_2": (
            "Schotten Totten 2 (referee)",
            {"tactics": False, "attacker": 0},
            schotten_totten_2,
            (2, 2),
        ),
        "referee_clans_and_glory": (
            "Clans and Glory (referee)",
            {"players": 2},
            clans_and_glory,
            (2, 4),
        ),
    }
)
