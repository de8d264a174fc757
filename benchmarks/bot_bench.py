"""What a searching bot pays per call in Schotten Totten and Clans and Glory:
determinization, legal-action masks and observations, and env steps.

Run from the repository root::

    python benchmarks/bot_bench.py [--quick]

Positions come from random playouts (base game and tactics variant, a spread of
plies); each figure is the best of several repeats of a timed loop over those
positions, on the CPU clock of this one process. Printed, never asserted. The
issue's goal for determinization is 50 µs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.schotten_totten import Rules, new_game
from referee.schotten_totten.actions import ACTIONS
from referee.schotten_totten.determinize import determinize


def positions(deal: Callable[[int], Any], count: int, plies: int = 100) -> list[Any]:
    """Running positions of any game: ``deal(seed)``, then up to ``plies``
    random moves (the games that ended are left out)."""
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        game = deal(seed)
        for _ in range(rng.randrange(0, plies)):
            if game.is_game_over():
                break
            game = game.play(rng.choice(game.generate_legal_moves()))
        if not game.is_game_over():
            found.append(game)
    return found


def per_call(work: Callable[[Any], object], states: list[Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for state in states:
            work(state)
        best = min(best, (time.process_time() - start) / len(states))
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and repeats")
    args = parser.parse_args()
    count, repeats = (50, 3) if args.quick else (300, 7)
    print(f"{'rules':<10} {'µs/determinize':>15} {'µs/mask':>9} {'µs/observation':>15}")
    for name, rules in (("base", Rules()), ("tactics", Rules(tactics=True))):
        states = positions(lambda seed, rules=rules: new_game(seed=seed, rules=rules), count)
        views = [s.view(s.to_move) for s in states]
        rng = random.Random(0)
        det = per_call(lambda v, rng=rng: determinize(v, rng), views, repeats)
        mask = per_call(ACTIONS.legal_action_mask, states, repeats)
        seen = per_call(lambda s: ACTIONS.observation(s, s.to_move), states, repeats)
        print(f"{name:<10} {det:>15.1f} {mask:>9.1f} {seen:>15.1f}")
    schotten_totten_2(count, repeats, args.quick)
    clans_and_glory(args.quick)
    try:
        from referee.env import schotten_totten_v0
    except ImportError:
        print("(referee[env] not installed: no env figure)")
        return
    env = schotten_totten_v0.raw_env()
    env.reset(seed=0)
    rng = random.Random(0)
    steps, start = 0, time.process_time()
    for game in range(20 if args.quick else 100):
        env.reset(seed=game)
        while env.game.outcome is None:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(rng.choice(mask.nonzero()[0].tolist()))
            steps += 1
    spent = time.process_time() - start
    print(f"env (base game, random agent, observe + step): {spent / steps * 1e6:.0f} µs/step")


# -- Clans and Glory -------------------------------------------------------------------


def clans_and_glory(quick: bool) -> None:
    """Per player count: determinize, mask and observation per call, and env steps/s."""
    from referee.clans_and_glory import State as CgState
    from referee.clans_and_glory import new_game as cg_new_game
    from referee.clans_and_glory.actions import ACTIONS as CG_ACTIONS
    from referee.clans_and_glory.determinize import determinize as cg_determinize

    count, repeats = (50, 3) if quick else (300, 7)
    print()
    print(f"{'Clans and Glory':<16} {'µs/determinize':>15} {'µs/mask':>9} {'µs/observation':>15}")
    for players in (2, 3, 4):
        space = CG_ACTIONS[players]
        states: list[CgState] = positions(
            lambda seed, players=players: cg_new_game(players=players, seed=seed), count, 7 * players
        )
        views = [s.view(s.to_move) for s in states]
        rng = random.Random(0)
        # (per_call is typed for Schotten Totten states; mypy does not check benchmarks/)
        det = per_call(lambda v, rng=rng: cg_determinize(v, rng), views, repeats)
        mask = per_call(space.legal_action_mask, states, repeats)
        seen = per_call(lambda s, space=space: space.observation(s, s.to_move), states, repeats)
        print(f"{f'{players} players':<16} {det:>15.1f} {mask:>9.1f} {seen:>15.1f}")
    try:
        from referee.env import clans_and_glory_v0
    except ImportError:
        return
    for players in (2, 3, 4):
        env = clans_and_glory_v0.raw_env(players=players)
        rng = random.Random(0)
        steps, start = 0, time.process_time()
        for game_number in range(20 if quick else 100):
            env.reset(seed=game_number)
            while not env.game.is_game_over():
                mask = env.observe(env.agent_selection)["action_mask"]
                env.step(rng.choice(mask.nonzero()[0].tolist()))
                steps += 1
        spent = time.process_time() - start
        print(
            f"env ({players} players, random agent, observe + step): "
            f"{spent / steps * 1e6:.0f} µs/step, {steps / spent:,.0f} steps/s"
        )


def schotten_totten_2(count: int, repeats: int, quick: bool) -> None:
    """The same figures for Schotten Totten 2 (base game and tactics variant).

    Determinization is timed twice: on views each seen once (the view's
    history is read for exchanges and support), and on one view determinized
    again and again, as a search does (the history's clues are kept).
    """
    from referee.actions import legal_actions
    from referee.schotten_totten_2 import Rules as Rules2
    from referee.schotten_totten_2 import new_game as new_game_2
    from referee.schotten_totten_2.actions import ACTIONS as ACTIONS_2
    from referee.schotten_totten_2.actions import play_action
    from referee.schotten_totten_2.determinize import determinize as determinize_2

    print()
    print("Schotten Totten 2")
    print(
        f"{'rules':<10} {'µs/determinize':>15} {'(same view)':>12} {'µs/mask':>9} "
        f"{'µs/observation':>15}"
    )
    for name, rules in (("base", Rules2()), ("tactics", Rules2(tactics=True))):
        states: list[Any] = positions(
            lambda seed, rules=rules: new_game_2(seed=seed, rules=rules), count, 150
        )
        views = [s.view(s.to_move) for s in states]
        rng = random.Random(0)
        det = per_call(lambda v, rng=rng: determinize_2(v, rng), views, repeats)
        again = min(
            per_call(lambda v, rng=rng: determinize_2(v, rng), [view] * 20, repeats)
            for view in views[:: max(1, len(views) // 20)]
        )
        mask = per_call(ACTIONS_2.legal_action_mask, states, repeats)
        seen = per_call(lambda s: ACTIONS_2.observation(s, s.to_move), states, repeats)
        print(f"{name:<10} {det:>15.1f} {again:>12.1f} {mask:>9.1f} {seen:>15.1f}")
    try:
        from referee.env import schotten_totten_2_v0
    except ImportError:
        return
    env = schotten_totten_2_v0.raw_env(rules=Rules2(tactics=True))
    rng = random.Random(0)
    steps, start = 0, time.process_time()
    for game in range(10 if quick else 50):
        env.reset(seed=game)
        while env.game.outcome is None:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(rng.choice(mask.nonzero()[0].tolist()))
            steps += 1
    spent = time.process_time() - start
    print(f"env (tactics, random agent, observe + step): {spent / steps * 1e6:.0f} µs/step")
    # A searching bot's playout: determinize its view, then ids to the end.
    game = new_game_2(seed=1, rules=Rules2(tactics=True))
    view = game.view(game.to_move)
    plies, start = 0, time.process_time()
    for _playout in range(10 if quick else 50):
        sample = determinize_2(view, rng)
        while not sample.is_game_over():
            ids = legal_actions(ACTIONS_2, sample)
            sample = play_action(sample, rng.choice(ids))
            plies += 1
    spent = time.process_time() - start
    print(
        f"playouts by action id from a determinized view (tactics): "
        f"{spent / plies * 1e6:.0f} µs/ply, {(10 if quick else 50) / spent:.1f} games/s"
    )


if __name__ == "__main__":
    main()
