"""Conformance: one test that every registered game runs.

Random legal playouts from many seeds (Hypothesis), starting from the deal of
the game's own ``random_record``. At every ply:

* the game's card-conservation invariant holds (every card in exactly one
  place; kept per game in ``INVARIANTS``, with a generic check for the rest);
* every legal move's text round-trips (``parse_move(str(m)) == m``);
* moves that are legal elsewhere are tried: a refused one raises a
  ``RefereeError`` with a documented reason and leaves the state equal to a
  deep copy taken before; an accepted one is one of ``legal_moves()``;
* the visible position can be written (and read back, where the game loads
  positions) without losing anything visible.

Once the game is over, ``legal_moves()`` is empty and every legal-looking move
is refused with ``game_over``. Replaying the playout as a record gives the
state reached by playing the move objects directly; the game's own record
validates; the same seed gives the same record.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.records import RecordError, find_game, replay, validate
from tests.reliability._support import (
    examples,
    game_rules,
    games,
    reason_codes,
    record_for,
    rule_sets,
    rules_id,
)

MAX_PLIES = 3000
#: legal-looking moves tried at each ply
TRIES = 4

# --- card conservation, per game -------------------------------------------------------


def _schotten_totten(state: Any) -> None:
    from referee.schotten_totten import CLAN_CARDS
    from referee.schotten_totten.tactics import TACTIC_CARDS

    places: Counter[Any] = Counter(state.discards)
    for hand in state.hands:
        places.update(hand)
    places.update(state.deck)
    places.update(state.tactic_deck)
    for stone in state.stones:
        for side in stone.sides:
            places.update(side)
            assert len(side) <= stone.rule.size
        if stone.style is not None:
            places[stone.style] += 1
    expected = Counter(CLAN_CARDS.cards)
    if state.rules.tactics:
        expected.update(TACTIC_CARDS)
    assert places == expected, "a card is lost or doubled"
    assert state.deck_size == len(state.deck)
    assert state.tactic_deck_size == len(state.tactic_deck)
    # two more cards only between the recruiter's draws and its returns
    extra = [
        2 if state.phase.name == "RECRUIT_RETURN" and p == state.to_move else 0 for p in (0, 1)
    ]
    assert all(size <= state.rules.hand_size + extra[p] for p, size in enumerate(state.hand_sizes))


def _schotten_totten_2(state: Any) -> None:
    places: Counter[Any] = Counter(state.discards)
    for hand in state.hands:
        places.update(hand)
    places.update(state.deck)
    places.update(state.tactic_deck)
    for tile in state.tiles:
        for side in tile.sides:
            places.update(side)
            assert len(side) <= tile.rule.size
    for actions in state.actions:
        places.update(actions)
    places.update(state.support or ())
    assert places == state.rules.all_cards, "a card is lost or doubled"
    assert state.deck_size == len(state.deck)
    assert state.tactic_deck_size == len(state.tactic_deck)


def _clans_and_glory(state: Any) -> None:
    places: Counter[Any] = Counter(state.removed)
    for hand in state.hands:
        places.update(hand)
    places.update(p.card for p in state.table if p is not None)
    assert places == Counter(state.deal), "a card is lost or doubled"
    assert max(places.values()) == 1
    assert all(state.shields_left(p) >= 0 for p in range(state.num_players))


#: card conservation for the games that do not say it themselves
INVARIANTS: dict[str, Callable[[Any], None]] = {
    "schotten-totten": _schotten_totten,
    "schotten-totten-2": _schotten_totten_2,
    "clans-and-glory": _clans_and_glory,
}


def _generic(state: Any) -> None:
    """What any game's state must satisfy: hand sizes agree with known hands."""
    hands, sizes = getattr(state, "hands", None), getattr(state, "hand_sizes", None)
    if hands is not None and sizes is not None:
        assert all(h is None or len(h) == n for h, n in zip(hands, sizes, strict=True))


def check_invariants(game: str, state: Any) -> None:
    _generic(state)
    inner = getattr(state, "game", None)  # a match wraps the game under way
    target = inner if inner is not None and not isinstance(inner, str) else state
    INVARIANTS.get(game, _generic)(target)


# --- the playout ------------------------------------------------------------------------


def _move_pool(game: str) -> list[str]:
    """Move texts legal somewhere in this game (from other seeds and rule sets)."""
    texts = {
        m for rules in rule_sets(game) for s in (900, 901) for m in record_for(game, rules, s).moves
    }
    return sorted(texts)


POOLS = {game: _move_pool(game) for game in games()}


def _try_refusals(game: str, state: Any, legal: set[Any], rng: random.Random) -> None:
    """Try moves from elsewhere: accepted only if legal, refused without a trace."""
    codes = reason_codes(state)
    snapshot = copy.deepcopy(state)
    for text in rng.sample(POOLS[game], min(TRIES, len(POOLS[game]))):
        try:
            move = state.parse_move(text)
        except RefereeError as error:
            assert error.reason == "malformed_move"
            continue
        try:
            state.play(move)
        except RefereeError as error:
            assert error.reason in codes, f"undocumented reason {error.reason!r}"
            assert str(move) in str(error) or text in str(error), "the message quotes the move"
            assert state == snapshot, "a refused move changed the state"
            assert move not in legal, f"{text!r} is listed as legal but refused: {error}"
        else:
            assert state == snapshot, "playing a move changed the old state"
            if move in legal:
                continue
            if getattr(state, "late_control", False) and type(move).__name__ == "Control":
                # Schotten Totten 2: the attacker's control written after its draw is
                # accepted from records but listed only in its turn (decision 7).
                assert state.to_move != state.attacker
                continue
            if type(move).__name__ == "Recruit" and any(
                type(m) is type(move) and sorted(m.draws) == sorted(move.draws) and not m.returns
                for m in legal
            ):
                # Schotten Totten: the recruiter is listed as two plies, its draws
                # and then its returns; records may write both as one move.
                continue
            if type(move).__name__ == "PutBack" and any(
                type(m) is type(move) and sorted(map(str, m.cards)) == sorted(map(str, move.cards))
                for m in legal
            ):
                # Schotten Totten: which of two returned cards goes under a pile
                # first is one decision, listed in one order (issue 15).
                continue
            if getattr(state, "is_chance_node", lambda: False)() and move in dict(
                state.chance_outcomes()
            ):
                # Schotten Totten 2: a chance ply lists the outcome its deal gives;
                # records may name any of the chance outcomes (issue 15).
                continue
            # Another order of the same choice may be listed instead (it must lead
            # to the same state); otherwise legal_moves() misses a legal move.
            after = state.play(move)
            assert any(type(m) is type(move) and state.play(m) == after for m in legal), (
                f"{text!r} is accepted but not listed in legal_moves()"
            )


#: the games whose format reads positions back (all three); checked by
#: test_the_games_that_load_positions_are_the_listed_ones
LOADS_POSITIONS = {"schotten-totten", "schotten-totten-2", "clans-and-glory"}


def _check_position(game: str, state: Any, last: Any = None) -> None:
    """The visible position is JSON and, where the game loads positions, reads
    back to itself; ``last`` is the move that led to ``state``."""
    fmt = find_game(game)
    position = fmt.position_of(state)
    json.dumps(position.to_json())
    if game not in LOADS_POSITIONS:
        return
    again = fmt.load_position(position)
    assert fmt.position_of(again).to_json() == position.to_json()


def play_out(game: str, rules: dict[str, Any], seed: int) -> None:
    fmt = find_game(game)
    record = record_for(game, rules, seed)
    state = fmt.start(record)
    rng = random.Random(seed)
    moves: list[Any] = []
    codes = reason_codes(state)
    while state.outcome is None and len(moves) < MAX_PLIES:
        check_invariants(game, state)
        legal = state.legal_moves()
        assert legal, "a game that is not over has a legal move"
        for move in legal:
            assert state.parse_move(str(move)) == move, f"{move!s} does not round-trip"
        _try_refusals(game, state, set(legal), rng)
        if len(moves) % 10 == 0 or type(moves[-1]).__name__ == "Support":
            _check_position(game, state, moves[-1] if moves else None)
        move = rng.choice(legal)
        before = copy.deepcopy(state)
        after = state.play(move)
        assert state == before, "playing a move changed the old state"
        moves.append(move)
        state = after
    check_invariants(game, state)
    _check_position(game, state, moves[-1] if moves else None)
    if state.outcome is not None:
        assert state.legal_moves() == []
        for text in rng.sample(POOLS[game], min(20, len(POOLS[game]))):
            try:
                move = state.parse_move(text)
            except RefereeError:
                continue
            with pytest.raises(RefereeError) as refused:
                state.play(move)
            assert refused.value.reason == "game_over" and "game_over" in codes
    # The playout as a record replays to the same state.
    again = dataclasses.replace(record, moves=tuple(str(m) for m in moves), result=None)
    assert replay(again) == state
    report = validate(again)
    assert report.error is None and report.plies == len(moves), report.summary()


@pytest.mark.parametrize(
    ("game", "rules"), game_rules(), ids=[f"{g}-{rules_id(r)}" for g, r in game_rules()]
)
@settings(
    max_examples=examples(3),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_conform(game: str, rules: dict[str, Any], seed: int) -> None:
    play_out(game, rules, seed)


@pytest.mark.parametrize(
    ("game", "rules"), game_rules(), ids=[f"{g}-{rules_id(r)}" for g, r in game_rules()]
)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_random_record_is_legal_and_repeatable(game: str, rules: dict[str, Any], seed: int) -> None:
    fmt = find_game(game)
    record = fmt.random_record(seed, rules)
    assert fmt.random_record(seed, rules) == record, "the same seed gives another record"
    report = validate(record)
    assert report.legal, report.summary()
    # Playing the moves one by one (as text) reaches the replayed state.
    state = fmt.start(record)
    for text in record.moves:
        state = state.play(text)
    assert replay(record) == state
    assert (state.outcome is None) == (record.result is None)
    if state.outcome is not None:
        assert fmt.result_of(state.outcome) == dict(record.result or {})


# --- found in a game's module (not fixed here: pinned until it is) ---------------------------


def _recruiter_position() -> tuple[Any, Any]:
    """A Schotten Totten tactics state where the recruiter can put two clan cards
    back, and one such listed move."""
    fmt = find_game("schotten-totten")
    for seed in range(200):
        record = record_for("schotten-totten", {"variants": ["tactics"]}, seed)
        state = fmt.start(record)
        for text in record.moves:
            for move in state.legal_moves():
                returns = getattr(move, "cards", ())
                clan = all(type(c).__name__ == "Card" for c in returns)
                if type(move).__name__ == "PutBack" and len(returns) == 2 and clan:
                    return state, move
            state = state.play(text)
    raise AssertionError("no recruiter position found")


@pytest.mark.skipif("schotten-totten" not in games(), reason="Schotten Totten is not registered")
def test_schotten_totten_lists_one_order_of_recruiter_returns() -> None:
    # Both orders are legal and lead to different pile orders, but which card goes
    # under first is one decision (issue 15): legal_moves() lists one order, and
    # play() and is_legal() accept the other (a record may give either).
    state, move = _recruiter_position()
    swapped = dataclasses.replace(move, cards=move.cards[::-1])
    assert state.play(swapped) != state.play(move)
    assert state.is_legal(swapped) and state.is_legal(move)
    assert swapped not in state.legal_moves()


@pytest.mark.parametrize("game", games())
def test_the_games_that_load_positions_are_the_listed_ones(game: str) -> None:
    fmt = find_game(game)
    state = fmt.start(record_for(game, rule_sets(game)[0], 0))
    position = fmt.position_of(state)
    if game in LOADS_POSITIONS:
        assert fmt.position_of(fmt.load_position(position)).to_json() == position.to_json()
    else:
        with pytest.raises(RecordError):
            fmt.load_position(position)


def _st2_after_support() -> tuple[Any, Any]:
    fmt = find_game("schotten-totten-2")
    record = record_for("schotten-totten-2", {"variants": ["tactics"]}, 0)
    state = fmt.start(record)
    for text in record.moves:
        state = state.play(text)
        if text.startswith("support "):
            return fmt, state
    raise AssertionError("no support move in this record")


@pytest.mark.skipif(
    "schotten-totten-2" not in games(), reason="Schotten Totten 2 is not registered"
)
def test_st2_position_after_support_loads_back() -> None:
    # Found once _check_position stopped swallowing RecordError (issue 13).
    fmt, state = _st2_after_support()
    position = fmt.position_of(state)
    assert fmt.position_of(fmt.load_position(position)).to_json() == position.to_json()
