"""Reference bots for every game: random, greedy and a Monte Carlo tree search.

Each bot comes in two forms. As a function ``choose(view, rng, time_left) ->
move`` (``referee.bots.random:choose``, ``referee.bots.greedy:choose``,
``referee.bots.mcts:choose``) it gets its player's view object, a
:class:`random.Random` and its game clock; as a callable of one
:class:`~referee.arena.Turn` (``random_bot``, ``greedy_bot``, ``mcts_bot``, or
any :class:`MCTS`) :func:`referee.arena.play_match` plays it in-process.
:func:`turn_bot` turns any ``choose`` function into the second form.

>>> from referee.arena import play_match, tally
>>> from referee.bots import MCTS, greedy_bot, random_bot
>>> results = play_match([greedy_bot, random_bot], "schotten-totten", games=2, seed=1)
>>> [s.name for s in tally(results, 2)]
['greedy', 'random']
>>> results = play_match([MCTS(iterations=10), greedy_bot], "clans-and-glory", games=2, seed=1)
>>> sorted(results[0].names)
['greedy', 'mcts']
"""

from __future__ import annotations

from referee.bots import greedy, mcts
from referee.bots import random as _random
from referee.bots._adapter import Choose, TurnBot, turn_bot
from referee.bots.mcts import MCTS

__all__ = [
    "MCTS",
    "Choose",
    "TurnBot",
    "greedy_bot",
    "mcts_bot",
    "random_bot",
    "turn_bot",
]

#: Uniform over the legal moves (:mod:`referee.bots.random`), in the arena's form.
random_bot: TurnBot = _random.bot
#: Claims first, then the strongest card where it helps (:mod:`referee.bots.greedy`).
greedy_bot: TurnBot = greedy.bot
#: The search bot at :data:`~referee.bots.mcts.DEFAULT_SECONDS` a move (:mod:`referee.bots.mcts`).
mcts_bot: MCTS = mcts.bot
