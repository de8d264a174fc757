"""Random legal playouts keep every invariant at every ply."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.records import validate
from referee.schotten_totten import CLAN_CARDS, Claim, Rules, State, new_game, parse_move
from referee.schotten_totten.record import FORMAT, random_playout
from referee.schotten_totten.tactics import TACTIC_CARDS, Tactic

ALL_CARDS = Counter(CLAN_CARDS.cards)
ALL_WITH_TACTICS = ALL_CARDS + Counter(TACTIC_CARDS)
VARIANTS = [
    Rules(),
    Rules(tactics=True),
    Rules(tactics=True, early_bird=True),
    Rules(early_bird=True),
    Rules(edition="1999"),
]


def check_invariants(state: State, previous: State | None) -> None:
    # every card (54, or 64 with tactics) is in exactly one place
    places: Counter = Counter()
    for hand in state.hands:
        places.update(hand or ())
    places.update(state.deck or ())
    places.update(state.tactic_deck or ())
    places.update(state.discards)
    for stone in state.stones:
        if stone.style is not None:
            places[stone.style] += 1
        for side in stone.sides:
            places.update(side)
            assert len(side) <= stone.rule.size
    assert places == (ALL_WITH_TACTICS if state.rules.tactics else ALL_CARDS)
    assert state.hand_sizes == tuple(len(h or ()) for h in state.hands)
    # the tactic cards in each hand are counted in the state, so a view knows them
    held = tuple(sum(type(c) is Tactic for c in h or ()) for h in state.hands)
    assert state.hand_tactics == held
    assert all(state.view(p).hand_tactics == held for p in (0, 1))
    assert state.deck_size == len(state.deck or ())
    assert state.tactic_deck_size == len(state.tactic_deck or ())
    # a hand holds its limit, but for the two extra cards between the
    # recruiter's draws and its returns
    extra = [0, 0]
    if state.phase.name == "RECRUIT_RETURN":
        extra[state.to_move] = 2
    assert all(size <= state.rules.hand_size + extra[p] for p, size in enumerate(state.hand_sizes))
    # the tactic limit: never two tactic cards ahead; one joker per player at most
    assert abs(state.tactics_played[0] - state.tactics_played[1]) <= 1
    for player in (0, 1):
        jokers_on_side = sum(s.sides[player].count(Tactic("joker")) for s in state.stones)
        assert jokers_on_side <= 1
        if jokers_on_side:
            assert state.jokers_played[player]
    for stone in state.stones:  # completion times match the sides
        for player in (0, 1):
            assert (stone.completed[player] is not None) == stone.complete(player)
    if previous is not None:
        for before, after in zip(previous.stones, state.stones, strict=True):
            if before.owner is not None:  # nothing changes at a claimed stone
                assert after == before


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_random_playouts_keep_invariants(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    state = new_game(seed=seed, first=seed % 2, rules=rules)
    check_invariants(state, None)
    plies = 0
    while state.outcome is None:
        legal = state.legal_moves()
        assert legal, "a live game always has a legal move"
        for move in legal:
            assert parse_move(str(move)) == move  # notation round-trips
        claims = [m for m in legal if isinstance(m, Claim)]
        move = claims[0] if claims and rng.random() < 0.9 else rng.choice(legal)
        # a refused move leaves the state as it was
        bogus = rng.choice(
            [
                "claim 1",
                "pass",
                "draw",
                "done",
                "R1@1",
                "P9@9",
                "joker@2",
                "draw tactic",
                "banshee R5@3",
                "recruiter draw clan return R1",
            ]
        )
        before = state
        try:
            state.play(bogus)
        except ValueError:
            assert state == before
        nxt = state.play(move)
        check_invariants(nxt, state)
        state = nxt
        plies += 1
        assert plies < 1000, "the game always ends"
    assert state.outcome.reason in ("three_adjacent", "five_stones", "blocked")
    if state.outcome.reason == "blocked":  # only when nobody can play a clan card
        assert state.outcome.winner is None
        assert not any(replace(state, to_move=p).can_play_card() for p in (0, 1))
    else:
        assert state.outcome.winner in (0, 1)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([{}, {"variants": ["tactics"]}]))
def test_recorded_playouts_replay_and_validate(seed: int, rules: dict) -> None:
    record = FORMAT.random_record(seed, rules)
    report = validate(record)
    assert report.legal, report.summary()
    assert report.plies == len(record.moves)
    # the same seed gives the same game
    assert FORMAT.random_record(seed, rules) == record
    # the public record (no deal) of the same game is legal too
    public = type(record)(
        game=record.game,
        moves=record.moves,
        first=record.first,
        result=record.result,
        rules=record.rules,
    )
    assert validate(public).legal


def test_random_playout_reaches_the_end() -> None:
    state = new_game(seed=99)
    moves = random_playout(state, random.Random(1))
    for move in moves:
        state = state.play(move)
    assert state.outcome is not None
