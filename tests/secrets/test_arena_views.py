"""An in-process arena bot's ``turn.view`` holds what its seat may know, no more.

A callable bot gets ``turn.view``, the game's own view object (``state.view``):
it, its history and its pickle must never reach the deal. Each view a bot was
given is checked against the game's record, replayed to that turn: no object
reachable from it (live or unpickled) names a card its seat had not seen by
then, and none is a state holding another seat's hand.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from referee.arena import play_game
from referee.clans_and_glory import State as CgState
from referee.clans_and_glory.cards import CARDS as CG_CARDS
from referee.records import replay_steps
from referee.schotten_totten_2.moves import Shuffle
from tests.secrets.worlds import CARD_TYPES, GAMES, reachable, secret_cards, seen_by

# (arena game, its rules, seats, the test's game)
MATCHES = [
    ("schotten-totten", {}, 2, "schotten-totten 2024"),
    ("schotten-totten", {"variants": ["tactics"]}, 2, "schotten-totten tactics"),
    ("schotten-totten-2", {"variants": ["tactics"]}, 2, "schotten-totten-2 tactics"),
    ("clans-and-glory", {"players": 3}, 3, "clans-and-glory 3"),
]


@pytest.mark.parametrize(("arena_game", "rules", "seats", "name"), MATCHES)
@pytest.mark.parametrize("seed", [1, 2])
def test_an_in_process_bots_view_never_reaches_the_deal(
    arena_game: str, rules: dict[str, Any], seats: int, name: str, seed: int
) -> None:
    given: list[tuple[int, int, Any, bytes]] = []

    def bot(turn: Any) -> Any:
        view = turn.view
        given.append((turn.ply, turn.seat, view, pickle.dumps(view)))
        return turn.rng.choice(turn.legal_moves)

    result = play_game([bot] * seats, arena_game, rules=rules, seed=seed, max_plies=400)
    game = GAMES[name]
    steps = list(replay_steps(result.record))
    assert steps and len(given) > 10
    states = [steps[0].before, *(step.after for step in steps)]
    moves = list(states[-1].history)
    start = states[0]
    checked_secrets = 0
    for ply, seat, view, data in given:
        # The state the bot was shown: after ply - 1 plies.
        seen = seen_by(game, states[:ply], moves[: ply - 1], seat)
        secrets = set(secret_cards(game, start, seen))
        checked_secrets += len(secrets)
        for root in (view, pickle.loads(data)):
            for obj in reachable(root):
                if isinstance(obj, CARD_TYPES):
                    assert obj not in secrets, f"seat {seat}'s view at ply {ply} reaches {obj}"
                if type(obj) is Shuffle:
                    assert obj.positions is None
                hands = getattr(obj, "hands", None)
                if type(hands) is tuple and type(obj).__name__ == "State":
                    assert all(h is None for p, h in enumerate(hands) if p != seat), (
                        f"seat {seat}'s view at ply {ply} reaches another seat's hand"
                    )
                    assert getattr(obj, "deal", None) is None, "a view reaches the deal"
                if type(obj) is CgState:  # its cards are small integers: read them as cards
                    board = obj.board
                    ids = [c for c in board.seat_cards if c >= 0]
                    ids += [c for hand in board.hands if hand is not None for c in hand]
                    named = {CG_CARDS[c] for c in ids} & secrets
                    assert not named, f"seat {seat}'s view at ply {ply} names {named} by id"
    assert checked_secrets > 0
