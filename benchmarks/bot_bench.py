"""What a searching bot pays per call in Schotten Totten and Clans and Glory:
determinization, legal-action masks and observations, and the PettingZoo
environments' observations, steps and state.

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
        import referee.env  # noqa: F401 (the env extra)
    except ImportError:
        print("(referee[env] not installed: no env figure)")
        return
    environments(args.quick)


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
            lambda seed, players=players: cg_new_game(players=players, seed=seed),
            count,
            7 * players,
        )
        views = [s.view(s.to_move) for s in states]
        rng = random.Random(0)
        # (per_call is typed for Schotten Totten states; mypy does not check benchmarks/)
        det = per_call(lambda v, rng=rng: cg_determinize(v, rng), views, repeats)
        mask = per_call(space.legal_action_mask, states, repeats)
        seen = per_call(lambda s, space=space: space.observation(s, s.to_move), states, repeats)
        print(f"{f'{players} players':<16} {det:>15.1f} {mask:>9.1f} {seen:>15.1f}")


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
    # A searching bot's playout: determinize its view, then ids to the end.
    rng = random.Random(0)
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


# -- the PettingZoo environments ---------------------------------------------------------


def environments(quick: bool) -> None:
    """What an agent pays per ply through the environments, on the positions of
    random games: an observation as the environment builds it (the array through
    bytes, the mask copied once) against the former way (``np.array`` of the
    encoding's tuple, the mask's bytes copied twice), measured here in one run;
    the AEC step and the parallel step (every agent's observation included);
    ``state()``; and finding the legal ids in an ``int8`` mask, as is or viewed
    as ``bool`` (numpy's ``nonzero`` is ~8x quicker on ``bool``)."""
    from referee.env import clans_and_glory_v0, schotten_totten_2_v0, schotten_totten_v0
    from referee.schotten_totten_2 import Rules as Rules2

    cases: list[tuple[str, Callable[..., Any], dict[str, Any]]] = [
        ("ST base", schotten_totten_v0, {}),
        ("ST tactics", schotten_totten_v0, {"rules": Rules(tactics=True)}),
        ("ST2 tactics", schotten_totten_2_v0, {"rules": Rules2(tactics=True)}),
        ("C&G 2", clans_and_glory_v0, {"players": 2}),
        ("C&G 4", clans_and_glory_v0, {"players": 4}),
    ]
    games, repeats = (4, 3) if quick else (12, 5)
    print()
    print("PettingZoo environments (µs per call; ratio: the former observation / this one)")
    print(
        f"{'game':<12} {'ids':>7} {'observe':>8} {'former':>7} {'ratio':>6} {'step':>6} "
        f"{'parallel':>9} {'state()':>8} {'ids int8':>9} {'ids bool':>9}"
    )
    for name, module, arguments in cases:
        figures = environment_row(module, arguments, games, repeats)
        observe, before = figures[1], figures[2]
        print(
            f"{name:<12} {figures[0]:>7,} {observe:>8.1f} {before:>7.1f} "
            f"{before / observe:>6.2f} "
            + " ".join(
                f"{figure:>{width}.1f}"
                for figure, width in zip(figures[3:], (6, 9, 8, 9, 9), strict=True)
            )
        )


def environment_row(
    module: Any, arguments: dict[str, Any], games: int, repeats: int
) -> tuple[Any, ...]:
    """One game's figures for :func:`environments`: its number of ids, then µs
    per observe, former observe, step, parallel step, state(), ids from the
    mask as is and as bool."""
    import numpy as np

    env = module.raw_env(**arguments)
    space = env.space
    # Random games through the environment: their positions and ids.
    rng = random.Random(0)
    positions: list[tuple[Any, str]] = []
    played: list[tuple[int, list[int]]] = []
    for seed in range(games):
        env.reset(seed=seed)
        ids = []
        while not env.game.is_game_over():
            positions.append((env.game, env.agent_selection))
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"].view(bool))
            ids.append(int(legal[rng.randrange(len(legal))]))
            env.step(ids[-1])
        played.append((seed, ids))

    def at(position: tuple[Any, str]) -> str:
        env.game, env.agent_selection = position
        return position[1]

    def former(position: tuple[Any, str]) -> dict[str, Any]:
        state, agent = position
        player = env.possible_agents.index(agent)
        return {
            "observation": np.array(space.observation(state, player), dtype=np.int8),
            "action_mask": np.frombuffer(space.legal_action_mask(state), np.int8).copy(),
        }

    observe = per_call(lambda position: env.observe(at(position)), positions, repeats)
    before = per_call(former, positions, repeats)
    state = per_call(lambda position: at(position) and env.state(), positions, repeats)
    masks = [env.observe(at(position))["action_mask"] for position in positions]
    as_is = per_call(np.flatnonzero, masks, repeats)
    as_bool = per_call(lambda mask: np.flatnonzero(mask.view(bool)), masks, repeats)
    step = replay(lambda: module.raw_env(**arguments), played, repeats, parallel=False)
    both = replay(lambda: module.parallel_env(**arguments), played, repeats, parallel=True)
    return space.num_actions, observe, before, step, both, state, as_is, as_bool


def replay(
    make: Callable[[], Any], played: list[tuple[int, list[int]]], repeats: int, parallel: bool
) -> float:
    """µs per ply to replay ``played`` (seeds and ids) through new environments:
    ``step`` alone on the AEC environment; on the parallel one, every agent's
    action (the others wait) and the observations it returns."""
    best = float("inf")
    for _ in range(repeats):
        env = make()
        plies = 0
        start = time.process_time()
        for seed, ids in played:
            env.reset(seed=seed)
            for action in ids:
                if parallel:
                    actions = dict.fromkeys(env.agents, env.wait_action)
                    actions[env.agent_to_move] = action
                    env.step(actions)
                else:
                    env.step(action)
            plies += len(ids)
        best = min(best, (time.process_time() - start) / plies)
    return best * 1e6


if __name__ == "__main__":
    main()
