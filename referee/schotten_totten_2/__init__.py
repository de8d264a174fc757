"""Schotten Totten 2: the siege game, its tactics variant, and the Rache match.

>>> from referee import schotten_totten_2 as st2
>>> game = st2.new_game(seed=7, attacker=1)
>>> game.to_move, game.attacker, game.defender
(1, 1, 0)
>>> print(st2.describe_wall().splitlines()[3])
tile 4 (gate): intact 2 cards, all kinds | damaged 4 cards, sum only, lower sum wins
"""

from referee.schotten_totten_2.match import GameResult
from referee.schotten_totten_2.moves import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Oil,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    Treason,
    parse_move,
)
from referee.schotten_totten_2.state import (
    HAND_SIZE,
    OIL_CAULDRONS,
    TACTICS_HAND_SIZE,
    Phase,
    Reason,
    Rules,
    State,
    new_game,
    public_game,
    render,
)
from referee.schotten_totten_2.wall import (
    GATE,
    SIEGE_CARDS,
    TACTIC_CARDS,
    TILES,
    WALL,
    AnyCard,
    TacticCard,
    Tile,
    describe_wall,
    parse_card,
)

__all__ = [
    "GATE",
    "HAND_SIZE",
    "OIL_CAULDRONS",
    "SIEGE_CARDS",
    "TACTICS_HAND_SIZE",
    "TACTIC_CARDS",
    "TILES",
    "WALL",
    "AnyCard",
    "Control",
    "Desertion",
    "Draw",
    "EndTurn",
    "Exchange",
    "ExchangeReply",
    "Explosion",
    "GameResult",
    "Move",
    "Oil",
    "Pass",
    "Phase",
    "PlayCard",
    "Reason",
    "Recruitment",
    "Redeploy",
    "Retreat",
    "Rules",
    "Shuffle",
    "State",
    "Support",
    "TacticCard",
    "Tile",
    "Treason",
    "describe_wall",
    "new_game",
    "parse_card",
    "parse_move",
    "public_game",
    "render",
]
