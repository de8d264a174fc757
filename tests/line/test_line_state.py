"""What both games on a line share through referee.line.LineState, asked of each."""

from __future__ import annotations

from typing import Any

import pytest

from referee import schotten_totten as st1
from referee import schotten_totten_2 as st2
from referee.errors import IllegalMoveError, InvalidMoveError
from referee.game import Termination
from referee.line import LineState
from referee.records import validate

GAMES = [(st1, "Schotten Totten", st2.moves.Pass()), (st2, "Schotten Totten 2", st1.moves.Pass())]


@pytest.mark.parametrize(("game", "name", "foreign"), GAMES, ids=["st", "st2"])
def test_the_shared_scaffolding_behaves_alike_in_both_games(
    game: Any, name: str, foreign: object
) -> None:
    start = game.new_game(seed=5)
    assert isinstance(start, LineState) and start.num_players == 2
    # a move of the other game is malformed here, named as this game's
    with pytest.raises(InvalidMoveError, match=f"not a {name} move"):
        start.play(foreign)
    # the wrong player is refused with the game's own reason code
    with pytest.raises(IllegalMoveError) as refused:
        start.play(start.legal_moves()[0], player=1 - start.to_move)
    assert refused.value.reason is game.Reason.NOT_YOUR_TURN
    # history, records and resignations
    moves = [start.legal_moves()[0]]
    after = start.play(moves[0])
    assert after.history == tuple(moves) and start.history == ()
    resigned = after.resign(after.to_move)
    assert resigned.is_game_over() and resigned.outcome.termination is Termination.RESIGNATION
    assert validate(resigned.to_record()).legal
    with pytest.raises(IllegalMoveError) as over:
        resigned.end(Termination.TIMEOUT, loser=0)
    assert over.value.reason is game.Reason.GAME_OVER
    with pytest.raises(IllegalMoveError, match="the game is over"):
        resigned.play(moves[0])
    # views: a spectator sees no hand; a bad viewer is refused
    spectator = after.view(None)
    assert spectator.hands == (None, None) and spectator.deck is None
    assert spectator.history == after.history
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        after.view(2)
    # is_legal asks without playing
    assert start.is_legal(moves[0]) and not start.is_legal(foreign)  # type: ignore[arg-type]
    assert str(after).startswith(name + " (")
