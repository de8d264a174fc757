"""referee: rules referee and claim prover for the Schotten Totten family.

>>> import referee
>>> from referee import schotten_totten as st
>>> game = st.new_game(seed=1)
>>> game.play("R1@1")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'R1@1': R1 is not in your hand
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from referee.cards import Card, CardSet, InvalidCardError
from referee.errors import (
    ClaimRefusedError,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    RefereeError,
)
from referee.formations import FormationRule, Kind, Strength
from referee.game import ClaimGame, GameState, GameView, LegalMoves, Outcome, Termination
from referee.prover import ClaimVerdict, Verdict, Wildcard, decide_claim

if TYPE_CHECKING:
    from referee import clans_and_glory, schotten_totten, schotten_totten_2

#: The game packages, imported on first use (``referee.schotten_totten``...),
#: so importing one part of the library does not import every game.
_GAMES = ("clans_and_glory", "schotten_totten", "schotten_totten_2")

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardSet",
    "ClaimGame",
    "ClaimRefusedError",
    "ClaimVerdict",
    "FormationRule",
    "GameState",
    "GameView",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "Kind",
    "LegalMoves",
    "Outcome",
    "RefereeError",
    "Strength",
    "Termination",
    "Verdict",
    "Wildcard",
    "__version__",
    "clans_and_glory",
    "decide_claim",
    "schotten_totten",
    "schotten_totten_2",
]


def __getattr__(name: str) -> object:
    if name in _GAMES:
        return importlib.import_module(f"referee.{name}")
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
