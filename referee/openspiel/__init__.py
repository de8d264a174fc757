"""The library's games as OpenSpiel games (``pip install 'referee[openspiel]'``).

Importing this package registers every game with OpenSpiel as a Python game;
``import referee`` never imports it (nor pyspiel). The games, their
parameters, the chance model, the tensors and the returns are described in
``docs/openspiel.md``.

    >>> import pyspiel
    >>> import referee.openspiel
    >>> game = pyspiel.load_game("referee_schotten_totten(tactics=True)")
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())  # the deal, card by card
    (True, 54)
    >>> game.num_distinct_actions(), game.max_game_length()
    (13281, 312)

:data:`GAMES` lists the games' short names.
"""

from referee.openspiel._game import RefereeGame, RefereeState, register
from referee.openspiel._tables import TABLES

__all__ = ["GAMES", "RefereeGame", "RefereeState", "register"]

#: The short names of the OpenSpiel games, one per game of the library.
GAMES: tuple[str, ...] = tuple(TABLES)

register()
