"""Random legal playouts keep every invariant at every ply (base game and tactics)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.records import Record, validate
from referee.schotten_totten_2 import (
    OIL_CAULDRONS,
    Control,
    Oil,
    Phase,
    Rules,
    State,
    new_game,
    parse_move,
)
from referee.schotten_totten_2.record import FORMAT

BOGUS = [
    "control 1",
    "control 4",
    "pass",
    "draw",
    "draw tactic",
    "done",
    "R0@1",
    "P11@7",
    "oil 3",
    "retreat 2",
    "joker@4",
    "explosion 4",
    "shuffle 1,2",
    "support R1,R2",
]


def check_invariants(state: State, previous: State | None, oils_this_turn: int) -> None:
    # every card is in exactly one place
    places: Counter = Counter()
    for hand in state.hands:
        places.update(hand or ())
    places.update(state.deck or ())
    places.update(state.tactic_deck or ())
    places.update(state.discards)
    places.update(state.actions[0] + state.actions[1])
    places.update(state.support or ())
    for tile in state.tiles:
        for p, side in enumerate(state.tiles[tile.number - 1].sides):
            places.update(side)
            assert len(side) <= tile.rule.size
            assert (tile.completed[p] is not None) == (len(side) == tile.rule.size)
        # chicken against cook never stands
        for card in tile.sides[0]:
            if isinstance(card, Card) and card.value in (0, 11):
                assert Card(card.colour, 11 - card.value) not in tile.sides[1]
    assert places == state.rules.all_cards
    assert sum(places.values()) == (71 if state.rules.tactics else 60)
    assert state.hand_sizes == tuple(len(h or ()) for h in state.hands)
    assert state.deck_size == len(state.deck or ())
    assert state.tactic_deck_size == len(state.tactic_deck or ())
    assert all(size <= state.rules.hand_size for size in state.hand_sizes)
    assert 0 <= state.oil <= OIL_CAULDRONS and oils_this_turn <= 1
    assert abs(state.tactics_played[0] - state.tactics_played[1]) <= 1
    if previous is not None:
        assert state.oil <= previous.oil
        assert len(state.damaged_tiles()) >= len(previous.damaged_tiles())


def run_playout(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    state = new_game(seed=seed, attacker=seed % 2, rules=rules)
    check_invariants(state, None, 0)
    plies, oils = 0, 0
    while state.outcome is None:
        legal = state.legal_moves()
        assert legal, "a live game always has a legal move"
        for move in rng.sample(legal, min(len(legal), 20)):
            assert parse_move(str(move)) == move  # notation round-trips
        controls = [m for m in legal if isinstance(m, Control)]
        if controls and rng.random() < 0.9:
            move = controls[0]
        else:
            kinds: dict[type, list] = {}
            for m in legal:
                kinds.setdefault(type(m), []).append(m)
            move = rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])
        # a refused move leaves the state as it was
        before = state
        bogus = rng.choice(BOGUS)
        try:
            state.play(bogus)
        except ValueError:
            assert state == before
        nxt = state.play(move)
        oils = oils + 1 if isinstance(move, Oil) else (0 if nxt.phase is Phase.OPENING else oils)
        check_invariants(nxt, state, oils)
        state = nxt
        plies += 1
        assert plies < 2000, "the game always ends"
    assert state.outcome.winner in (0, 1)
    assert state.outcome.reason in (
        "controlled_damaged_tile",
        "fourth_tile_damaged",
        "siege_held",
        "siege_failed",  # nobody can change anything any more (rare: seed 2779, tactics)
    )
    if state.outcome.reason in ("siege_held", "siege_failed"):
        assert state.outcome.winner == state.defender
    assert state.legal_moves() == []
    for text in BOGUS:
        assert not state.is_legal(text)  # nothing is accepted after the end


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_playouts_keep_invariants(seed: int) -> None:
    run_playout(seed, Rules())


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_tactics_playouts_keep_invariants(seed: int) -> None:
    run_playout(seed, Rules(tactics=True))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([{}, {"variants": ["tactics"]}]))
def test_recorded_playouts_replay_and_validate(seed: int, rules: dict) -> None:
    record = FORMAT.random_record(seed, rules)
    report = validate(record)
    assert report.legal, report.summary()
    assert report.plies == len(record.moves)
    # the same seed gives the same game
    assert FORMAT.random_record(seed, rules) == record
    # the public record (no deal) of the same game is legal too
    public = Record(
        game=record.game,
        moves=record.moves,
        rules=record.rules,
        first=record.first,
        result=record.result,
    )
    assert validate(public).legal, validate(public).summary()
