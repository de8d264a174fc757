#!/usr/bin/env python3
"""A determinized Monte Carlo bot: the walkthrough of docs/bots.md.

For each legal move, it deals the hidden cards at random (``determinize``),
plays the move on that deal and the rest of the game at random (``playout``),
up to 20 times a move or while its time lasts, and plays the move that won most.
It plays every bundled game:

    referee match examples/bots/monte_carlo.py examples/bots/greedy.py --game clans-and-glory
"""

import time

from referee.actions import legal_actions, rewards_of
from referee.arena.bot import serve
from referee.games import descriptor_of

#: Playouts per legal move at most (fewer when time runs short).
PLAYOUTS = 20
#: The share of its time the bot spends thinking.
SHARE = 0.8


def random_playout(game, state, rng, max_plies=1000):
    """The game played out at random from a full state: its outcome (None if unfinished)."""
    if game.playout is not None:  # the game's fast playout, where it has one
        return game.playout(state, rng, max_plies=max_plies)
    for _ in range(max_plies):
        if state.outcome is not None:
            break
        move = game.chance(state, rng) if game.chance is not None else None
        if move is None:  # a player's turn, not a draw of the cards
            move = rng.choice(list(state.legal_moves()))
        state = state.play(move)
    return state.outcome


def choose(view, rng, time_left):
    game = descriptor_of(view)  # the game this view is of: all its parts
    space = game.action_space(view)  # the game's moves, numbered
    actions = legal_actions(space, view)
    if len(actions) == 1:
        return space.move_of(actions[0])
    me = view.to_move
    stop = None if time_left is None else time.monotonic() + SHARE * time_left
    wins = dict.fromkeys(actions, 0.0)
    tries = dict.fromkeys(actions, 0)
    for turn in range(PLAYOUTS * len(actions)):
        action = actions[turn % len(actions)]
        world = game.determinize(view, rng)  # the hidden cards, dealt at random
        outcome = random_playout(game, space.play(world, action), rng)
        wins[action] += rewards_of(outcome, view.num_players)[me]  # +1 won, -1 lost
        tries[action] += 1
        if stop is not None and time.monotonic() > stop:
            break
    best = max(actions, key=lambda a: wins[a] / max(tries[a], 1))
    return space.move_of(best)


if __name__ == "__main__":
    serve(choose, name="monte-carlo")
