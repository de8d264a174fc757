"""PettingZoo environments over the game protocol (``pip install 'referee[env]'``).

Each environment is a thin wrapper: the game's own state plays the moves, its
action space (:mod:`referee.actions`) numbers them, and numpy appears only here.
``import referee`` never imports this package. Every game's environment is
built from its descriptor (:mod:`referee.games`): :func:`game_env` makes the one
of any game by name, and the bundled games have their modules.

    >>> from referee.env import schotten_totten_v0
    >>> env = schotten_totten_v0.env()
    >>> env.reset(seed=1)
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> int(observation["action_mask"].sum()) > 0, env.agent_selection
    (True, 'player_0')
"""

from referee.env._aec import GameEnv, game_env

__all__ = [
    "GameEnv",
    "clans_and_glory_v0",
    "game_env",
    "schotten_totten_2_v0",
    "schotten_totten_v0",
]
