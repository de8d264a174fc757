"""A downstream program written against the game protocol only (issue 14).

It plays each game with random legal moves, looks at the players' and a
spectator's views, refuses a move by the wrong player, resigns, writes a
record, validates it, and replays it ply by ply. The same code runs on all
three games, and ``mypy --strict`` accepts it (``test_protocol.py`` checks
both): ``python tests/protocol/typed_script.py`` prints one line per game.
"""

from __future__ import annotations

import json
import random
from typing import Any, TypeVar, assert_type

from referee import clans_and_glory, schotten_totten, schotten_totten_2
from referee.errors import IllegalMoveError
from referee.game import ClaimGame, GameState, GameView, LegalMoves, Outcome, Termination
from referee.records import (
    Record,
    find_game,
    load_position,
    parse_record,
    replay,
    replay_steps,
    validate,
)

__all__ = ["conforming", "exercise", "main", "play_randomly", "typed_lookups"]

S = TypeVar("S", bound=GameState[Any])


def play_randomly(game: S, seed: int, plies: int) -> S:
    """``game`` after up to ``plies`` random legal moves, each played as its mover."""
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_game_over():
            break
        moves: LegalMoves[Any] = game.legal_moves()
        move = rng.choice(moves)
        assert move in moves and len(moves) == moves.count() and moves
        assert game.is_legal(move)
        game = game.play(move, player=game.to_move)
    return game


def exercise(game: S, seed: int) -> str:
    """Play, view, refuse, resign, record and replay ``game``; a line for people."""
    # the wrong player is refused, and the state is unchanged
    other = (game.to_move + 1) % game.num_players
    first = game.legal_moves()[0]
    try:
        game.play(first, player=other)
    except IllegalMoveError as error:
        assert error.reason == "not_your_turn", error.reason
    else:
        raise AssertionError("a move by the wrong player was accepted")

    middle = play_randomly(game, seed, 12)
    assert len(middle.history) == 12
    mine: GameView[Any] = middle.view(middle.to_move)
    spectator: GameView[Any] = middle.view(None)
    assert mine.to_move == spectator.to_move == middle.to_move
    assert str(spectator) != str(mine)

    # resignation is a recordable end
    loser = middle.to_move
    resigned = middle.resign(loser)
    outcome: Outcome | None = resigned.outcome
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert resigned.is_game_over() and not resigned.legal_moves()
    record: Record = resigned.to_record()
    report = validate(record)
    assert report.legal, report.summary()

    # the record survives JSON and replays to the same game
    again = parse_record(json.loads(record.dumps()), "again")
    final = replay(again)
    assert final.outcome == outcome
    assert [str(m) for m in final.history] == [str(m) for m in resigned.history]
    steps = list(replay_steps(again))
    assert [step.move for step in steps] == list(record.moves)
    assert all(step.before.play(step.move) == step.after for step in steps)

    # a game played to its end records its result too
    ended = play_randomly(game, seed, 10_000)
    assert ended.outcome is not None
    assert validate(ended.to_record()).legal
    return f"{record.game}: {len(steps)} plies, {outcome.result()}; {ended.outcome.result()}"


def conforming(seed: int) -> list[GameState[Any]]:
    """Every game's state is a ``GameState`` (and a ``ClaimGame`` where claims exist)."""
    stones: ClaimGame[schotten_totten.Move] = schotten_totten.new_game(seed=seed)
    tiles: ClaimGame[schotten_totten_2.Move] = schotten_totten_2.new_game(seed=seed)
    tableaus: GameState[clans_and_glory.Placement] = clans_and_glory.new_game(seed=seed)
    return [stones, tiles, tableaus]


def typed_lookups(position_file: str) -> str:
    """The README's claim example, with the types ``mypy`` sees pinned down."""
    position = load_position(position_file)
    state = find_game("schotten-totten").load_position(position)
    assert_type(state, schotten_totten.State)
    siege = find_game("schotten-totten-2").start(Record("schotten-totten-2", ()))
    assert_type(siege, schotten_totten_2.State)
    assert find_game("clans-and-glory").claimability(clans_and_glory.new_game()) == []
    return state.claim_verdict(2, player=0).explain()


def main() -> None:
    """Run :func:`exercise` on all three games."""
    for seed in (1, 2):
        print(exercise(schotten_totten.new_game(seed=seed), seed))
        print(exercise(schotten_totten_2.new_game(seed=seed), seed))
        print(exercise(clans_and_glory.new_game(seed=seed), seed))


if __name__ == "__main__":
    main()
