"""The protocol's sequence types live in :mod:`referee._sequences` but keep
:mod:`referee.game` as their home: importable from it, pickled under its
name, and histories pickled before the move still load."""

from __future__ import annotations

import pickle

import referee._sequences as sequences
import referee.game as game
from referee.game import HIDDEN_START, NO_HISTORY, History, LegalMoves

#: ``(past, seen, NO_HISTORY)`` pickled (protocol 4) while History was defined
#: in referee/game.py: ``past`` is deal, a, b; ``seen`` its view told in capitals.
OLD_PICKLE = (
    b"\x80\x04\x95\xba\x00\x00\x00\x00\x00\x00\x00\x8c\x0creferee.game\x94\x8c\x07History"
    b"\x94\x93\x94(h\x02(h\x02(Nh\x00\x8c\x08_NO_MOVE\x94\x93\x94K\x00\x8c\x04deal\x94t\x94"
    b"\x85\x94\x81\x94\x8c\x01a\x94K\x01Nt\x94\x85\x94\x81\x94\x8c\x01b\x94K\x02Nt\x94\x85"
    b"\x94\x81\x94h\x02(h\x02(h\x02(Nh\x00\x8c\x0cHIDDEN_START\x94\x93\x94K\x00\x8c\x0bhidden"
    b" deal\x94t\x94\x85\x94\x81\x94\x8c\x01A\x94K\x01Nt\x94\x85\x94\x81\x94\x8c\x01B\x94K"
    b"\x02Nt\x94\x85\x94\x81\x94h\x02(Nh\x04K\x00Nt\x94\x85\x94\x81\x94\x87\x94."
)


def _example() -> tuple[History[str], History[str], History[str]]:
    past: History[str] = History.begin("deal").push("a").push("b")
    return past, past.as_seen(str.upper, lambda start: f"hidden {start}"), NO_HISTORY


def test_referee_game_names_the_same_objects() -> None:
    assert game.History is sequences.History and game.LegalMoves is sequences.LegalMoves
    assert game.NO_HISTORY is sequences.NO_HISTORY and game.HIDDEN_START is sequences.HIDDEN_START
    assert {"History", "LegalMoves"} <= set(game.__all__)
    assert History.__module__ == LegalMoves.__module__ == "referee.game"


def test_histories_pickle_as_before_the_move() -> None:
    assert pickle.dumps(_example(), protocol=4) == OLD_PICKLE


def test_histories_pickled_before_the_move_load() -> None:
    past, seen, empty = pickle.loads(OLD_PICKLE)
    assert past.moves() == ("a", "b") and past.start == "deal"
    assert seen.moves() == ("A", "B") and seen.origin() == ("hidden deal", True)
    assert empty.origin() == (None, False) and len(empty) == 0
    first = seen
    while first.parent is not None:
        first = first.parent
    assert first[1] is HIDDEN_START  # the marker keeps its identity through pickle
