"""Schotten Totten (1999 and 2024 editions): the two-player stone-claiming game.

>>> from referee import schotten_totten as st
>>> game = st.new_game(seed=7)
>>> game = game.play(game.legal_moves()[0]).play("draw")
>>> game.to_move
1
"""

from referee.schotten_totten.moves import (
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    parse_move,
)
from referee.schotten_totten.render import render
from referee.schotten_totten.start import check_deck, new_game, public_game
from referee.schotten_totten.state import (
    CLAN_CARDS,
    FORMATION,
    HAND_SIZE,
    STONES,
    Phase,
    Reason,
    Rules,
    State,
    Stone,
)

__all__ = [
    "CLAN_CARDS",
    "FORMATION",
    "HAND_SIZE",
    "STONES",
    "Claim",
    "Draw",
    "EndTurn",
    "Move",
    "Pass",
    "Phase",
    "PlayCard",
    "Reason",
    "Rules",
    "State",
    "Stone",
    "check_deck",
    "new_game",
    "parse_move",
    "public_game",
    "render",
]
