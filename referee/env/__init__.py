"""PettingZoo environments over the game protocol (``pip install 'referee[env]'``).

Each environment is a thin wrapper: the game's own state plays the moves, its
action space (:mod:`referee.actions`) numbers them, and numpy appears only here.
``import referee`` never imports this package. Every game's environment is
built from its descriptor (:mod:`referee.games`): :func:`game_env` makes the one
of any game by name (:func:`game_parallel_env` its parallel form), and the
bundled games have their modules, each with ``env``, ``raw_env`` and
``parallel_env``.

    >>> from referee.env import schotten_totten_v0
    >>> env = schotten_totten_v0.env(max_plies=200)
    >>> env.reset(seed=1)
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> int(observation["action_mask"].sum()) > 0, env.agent_selection
    (True, 'player_0')
    >>> env.state().shape == (2 * observation["observation"].size,)  # both players' views
    True
"""

from referee.env._aec import MASK_PLACES, GameEnv, MaskPlace, game_env
from referee.env._parallel import GameParallelEnv, game_parallel_env

__all__ = [
    "MASK_PLACES",
    "GameEnv",
    "GameParallelEnv",
    "MaskPlace",
    "clans_and_glory_v0",
    "game_env",
    "game_parallel_env",
    "schotten_totten_2_v0",
    "schotten_totten_v0",
]
