"""What one ply of the referee's loop costs before any rule runs, per line game.

Run from the repository root::

    taskset -c 1 python benchmarks/loop_floor.py

The referee's loop (``random.choice(state.legal_moves())``, then
``state.play(move)``, see ``playout_bench.py``) pays on every ply for
plumbing that no rule needs to read: the legal-move sequence object, the
random pick, the checks every move goes through first (a move of this game, a
game not over, the mover's turn), the history node, and a new immutable state
with each of its fields written. This script measures that plumbing alone
(the same calls, on a fixed state, with the rules left out) beside the loop's
measured cost per ply, and prints what is left for the rules and the claim
proofs if the loop were to reach issue #24's 2,000 games per second.

The figures are CPU time of this process, best of the repeats, printed and
never asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from referee.game import History, LegalMoves
from referee.line.state import _tuple_new

GOAL = 2000  # games per second asked of the referee's loop (issue #24)
REPEATS = 5


def _loop_per_ply(new_game: Callable[[int], Any], games: int) -> tuple[float, float]:
    """The referee's loop: CPU µs per ply, and plies per game."""
    best, plies = float("inf"), 0
    for _ in range(REPEATS):
        plies = 0
        start = time.process_time()
        for seed in range(games):
            state, choose = new_game(seed), random.Random(seed).choice
            while not state.is_game_over():
                state = state.play(choose(state.legal_moves()))
                plies += 1
        best = min(best, time.process_time() - start)
    return best * 1e6 / plies, plies / games


def _floor_per_ply(state: Any, remake: Callable[[Any, History[Any]], Any], plies: int) -> float:
    """The plumbing of one checked ply, no rule: CPU µs per ply."""
    moves = list(state.legal_moves())
    listed = moves.copy
    kinds, choose = state._MOVE_TYPES, random.Random(1).choice
    best = float("inf")
    for _ in range(REPEATS):
        current, past = state, state.past
        start = time.process_time()
        for _ in range(plies):
            current.is_game_over()
            move = choose(LegalMoves(listed))
            if type(move) not in kinds or current.outcome is not None:
                raise AssertionError("the fixed state must stay playable")
            node = _tuple_new(History, (past, move, past[2] + 1, None))
            current = remake(state, node)
        best = min(best, time.process_time() - start)
    return best * 1e6 / plies


def _st() -> tuple[Callable[[int], Any], Any, Callable[[Any, History[Any]], Any]]:
    from referee.schotten_totten import new_game
    from referee.schotten_totten.made import made_state

    def remake(s: Any, past: History[Any]) -> Any:
        # Every field written, as each rule of Schotten Totten makes its state.
        return made_state(
            s.rules, s.stones, s.hands, s.hand_sizes, s.deck, s.deck_size, s.tactic_deck,
            s.tactic_deck_size, s.discards, s.tactics_played, s.jokers_played, s.to_move,
            s.phase, s.ply + 1, s.outcome, s.blank_turns, s.hand_tactics, s.under_piles,
            past, s.seen, s.open_sides, s.complete_sides,
        )  # fmt: skip

    return (lambda seed: new_game(seed=seed)), new_game(seed=1), remake


def _st2() -> tuple[Callable[[int], Any], Any, Callable[[Any, History[Any]], Any]]:
    from referee.schotten_totten_2 import new_game
    from referee.schotten_totten_2.made import after_draw

    def remake(s: Any, past: History[Any]) -> Any:
        # The cheapest writer of Schotten Totten 2's rules (a siege card drawn).
        return after_draw(
            s, s.hands, s.hand_sizes, s.deck, s.deck_size, s.exhausted, s.late_control,
            s.to_move, s.phase, s.ply + 1, s.final_turn, past,
        )  # fmt: skip

    return (lambda seed: new_game(seed=seed)), new_game(seed=1), remake


def main() -> None:
    print(f"One ply of the referee's loop, CPU µs, best of {REPEATS} (goal: {GOAL:,} games/s)")
    print()
    head = "game               | loop µs/ply | plies/game | plumbing µs/ply | budget µs/ply "
    print(head + "| rules and proofs: now → budget")
    print("-" * (len(head) + 32))
    for name, make in (("Schotten Totten", _st), ("Schotten Totten 2", _st2)):
        deal, state, remake = make()
        loop, plies = _loop_per_ply(deal, 150)
        floor = _floor_per_ply(state, remake, 50_000)
        budget = 1e6 / GOAL / plies  # µs a ply may cost at the goal
        print(
            f"{name:18} | {loop:11.2f} | {plies:10.1f} | {floor:15.2f} | {budget:13.2f} "
            f"| {loop - floor:.2f} → {budget - floor:.2f} ({(loop - floor) / (budget - floor):.1f}×)"
        )
    print()
    print("plumbing: the legal-move sequence, the pick, the checks before any rule, the")
    print("history node and a new state with every field written; budget: 1 s / goal / plies.")


if __name__ == "__main__":
    main()
