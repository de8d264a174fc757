"""Positions and states that cannot lie (issue 12 point 13, issue 13).

A state built from outside is checked like python-chess's ``status()``: every
problem at once, what can be derived is derived, the impossible is refused:
``State(...)`` refuses what cannot exist at all, ``state.status()`` also what
no legal game reaches, and loading a position refuses both. Positions written
at any ply, mid-turn and finished games included, load back equal. Nothing
reachable from a public object can be changed in place.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.cli import main
from referee.game import Outcome
from referee.records import Position, RecordError, load_record, validate
from referee.schotten_totten_2 import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    Explosion,
    Move,
    Oil,
    Pass,
    Phase,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Rules,
    State,
    Support,
    TacticCard,
    Tile,
    Treason,
    new_game,
)
from referee.schotten_totten_2.record import FORMAT, random_playout

from .helpers import TACTICS, cards, position

ROOT = Path(__file__).resolve().parents[2]


def _problems(**changes: object) -> str:
    with pytest.raises(ValueError) as error:
        replace(position(hands=("R1 R2", "Y1 Y2")), **changes)
    text = str(error.value)
    assert text.startswith("impossible Schotten Totten 2 position: ")
    return text


# --- State(...) is checked ------------------------------------------------------------------


def test_every_problem_of_a_state_is_reported_at_once() -> None:
    base = position(hands=("R1 R2", "Y1 Y2"))
    tiles = list(base.tiles)
    tiles[0] = Tile(1, sides=(cards("R0 B1 B2 B3"), cards("R11")))  # oversized, 0 facing 11
    tiles[1] = Tile(2, sides=(cards("R1"), ()))  # R1 is also in a hand
    text = _problems(tiles=tuple(tiles))
    assert "tile 1: player 1's side holds 4 cards, the tile takes 3" in text
    assert "tile 1: R0 faces R11 (both are discarded)" in text
    assert "R1 is in 2 places (the game has 1)" in text
    assert "the siege cards do not add up" in text


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"attacker": 1.0}, "attacker must be 0 or 1, not 1.0"),
        ({"to_move": True}, "to_move must be 0 or 1, not True"),
        ({"oil": 4}, "oil must be a count 0-3, not 4"),
        ({"hand_sizes": (2, 3)}, "player 2's hand holds 2 cards, hand_sizes says 3"),
        ({"deck_size": 3}, "deck_size says 3"),
        ({"phase": Phase.SHUFFLE}, "a support waits for its shuffle exactly in the shuffle phase"),
        ({"final_turn": True}, "final_turn: only once the last siege card has been drawn"),
        ({"late_control": True}, "late_control: only right after the attacker's draw"),
        (
            {"exhausted": True, "final_turn": True, "to_move": 1},
            "final_turn: only in the attacker's turn",
        ),
        ({"hands": (cards("R1 R2 joker"), cards("Y1 Y2"))}, "a tactic card in the base game"),
        ({"tactics_played": (3, 0)}, "nobody gets two tactic cards ahead"),
        ({"hand_tactics": (1, 0)}, "hand_tactics says player 1 holds 1 tactic cards"),
    ],
)
def test_impossible_states_are_refused(changes: dict, words: str) -> None:
    assert words in _problems(**changes)


def test_damage_and_outcome_must_agree_and_are_derived() -> None:
    four = position(damaged=[1, 2, 3, 5], hands=("R1", "Y1"))
    assert four.outcome is not None and (four.outcome.winner, four.outcome.reason) == (
        0,
        "fourth_tile_damaged",
    )
    assert four.legal_moves() == []
    with pytest.raises(ValueError, match="5 damaged tiles: the attacker wins on the fourth"):
        position(damaged=[1, 2, 3, 5, 6])


def test_the_attackers_last_turn_is_derived() -> None:
    state = replace(position(hands=("R1", "Y1")), exhausted=True)
    assert state.final_turn
    assert not replace(position(hands=("R1", "Y1"), to_move=1), exhausted=True).final_turn


def test_tactic_cards_in_hidden_hands_are_derived_or_asked_for() -> None:
    state = position(hands=("R1 joker", "Y1 spy"), rules=TACTICS)
    assert state.hand_tactics == (1, 1)
    one_hidden = replace(state, hands=(None, state.hands[1]), hand_tactics=None)
    assert one_hidden.hand_tactics == (1, 1)  # 11 - 0 played - 9 in the pile - 1 known
    with pytest.raises(ValueError, match=r"say how many tactic cards each hidden hand holds"):
        replace(state, hands=(None, None), deck=None, tactic_deck=None, hand_tactics=None)


def test_tactics_played_cannot_be_lower_than_the_tactic_cards_on_the_table() -> None:
    with pytest.raises(ValueError, match=r"counts fewer than the 1 tactic cards"):
        position({2: ("spy", "")}, rules=TACTICS, tactics_played=(0, 0))
    with pytest.raises(ValueError, match=r"has 2 action cards on its side"):
        position(actions=("desertion treason", ""), rules=TACTICS, tactics_played=(1, 2))


#: The fields a state is built from (the derived ones are made with it).
_INIT_FIELDS = [f.name for f in dataclasses.fields(State) if f.init]


def test_every_state_reached_in_play_passes_the_check() -> None:
    for seed, rules in ((3, Rules()), (4, Rules(tactics=True))):
        state = new_game(seed=seed, rules=rules)
        for move in random_playout(state, random.Random(seed)):
            state = state.play(move)
            rebuilt = State(**{name: getattr(state, name) for name in _INIT_FIELDS})
            assert rebuilt == state and rebuilt.status() == ()
            hidden = state.view(0)
            assert State(**{n: getattr(hidden, n) for n in _INIT_FIELDS}) == hidden


# --- positions round-trip at every ply, mid-turn and finished games included ------------------


def _order(done: tuple[int | None, ...]) -> tuple[int | None, ...]:
    known = sorted(d for d in done if d is not None)
    return tuple(None if d is None else known.index(d) for d in done)


def normal(state: State) -> State:
    """``state`` as its position shows it: hands and piles hidden (a pending
    offer is shown), no ply or chance seed, completion times as an order."""
    return replace(
        state.view(None),
        exchange=state.exchange,
        ply=0,
        tiles=tuple(replace(t, completed=_order(t.completed)) for t in state.tiles),
    )


def _pick(legal: list[Move], rng: random.Random, style: str) -> Move:
    """A move at random: uniformly, or a staller's (passes, ends, retreats and
    oil first, never a control), or a tactician's (action cards and tactic draws)."""
    if style == "stall":
        for kind in (Pass, EndTurn, Retreat, Oil):
            options = [m for m in legal if isinstance(m, kind)]
            if options:
                return rng.choice(options)
        return rng.choice([m for m in legal if not isinstance(m, Control)] or legal)
    if style == "tactics":
        actions = (Redeploy, Recruitment, Desertion, Treason, Explosion, Support, Exchange)
        options = [
            m
            for m in legal
            if isinstance(m, actions)
            or (isinstance(m, PlayCard) and isinstance(m.card, TacticCard))
        ]
        options = options or [m for m in legal if isinstance(m, Draw) and m.pile == "tactic"]
        if options and rng.random() < 0.7:
            return rng.choice(options)
    return rng.choice(legal)


def random_game(rules: Rules, seed: int, style: str, limit: int = 3000) -> list[State]:
    """Every state of a random legal game, from the deal to its end."""
    rng = random.Random(seed)
    state = new_game(seed=seed, attacker=seed % 2, rules=rules)
    states = [state]
    while state.outcome is None and len(states) < limit:
        state = state.play(_pick(list(state.legal_moves()), rng, style))
        states.append(state)
    return states


def _loaded(state: State) -> State:
    return FORMAT.load_position(FORMAT.position_of(state))


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    tactics=st.booleans(),
    style=st.sampled_from(["uniform", "stall", "tactics"]),
)
def test_every_position_of_a_legal_game_loads_back_equal(
    seed: int, tactics: bool, style: str
) -> None:
    for state in random_game(Rules(tactics=tactics), seed, style):
        assert state.status() == ()
        loaded = _loaded(state)
        assert loaded.status() == ()
        assert normal(loaded) == normal(state)


def _first(phase: Phase, seed: int = 0) -> State:
    """The first state of a tactician's game in ``phase``."""
    return next(s for s in random_game(Rules(tactics=True), seed, "tactics") if s.phase is phase)


def test_pending_support_and_exchange_positions_load_back() -> None:
    for phase in (Phase.SHUFFLE, Phase.EXCHANGE):
        state = _first(phase)
        loaded = _loaded(state)
        assert normal(loaded) == normal(state) and loaded.phase is phase
        assert (loaded.support, loaded.exchange) == (state.support, state.exchange)


def test_finished_games_load_back_with_their_result() -> None:
    ends = {}
    for seed in range(30):
        final = new_game(seed=seed, rules=Rules(tactics=seed % 2 == 1))
        for move in random_playout(final, random.Random(seed)):
            final = final.play(move)
        assert final.outcome is not None
        position = FORMAT.position_of(final)
        assert position.data["result"] == {
            "winner": final.outcome.winner,
            "reason": str(final.outcome.reason),
        }
        assert normal(_loaded(final)) == normal(final)
        ends[str(final.outcome.reason)] = position
    assert {"siege_held", "controlled_damaged_tile", "fourth_tile_damaged"} <= set(ends)
    # a siege held is also derived: the defender to move after the attacker's last turn
    held = {k: v for k, v in ends["siege_held"].data.items() if k != "result"}
    assert FORMAT.load_position(
        Position(FORMAT.name, held, ends["siege_held"].rules)
    ).outcome == Outcome("siege_held", 1 - held["attacker"])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tactics=st.booleans())
def test_every_move_listed_on_a_loaded_position_plays(seed: int, tactics: bool) -> None:
    style = "tactics" if tactics else "uniform"
    for state in random_game(Rules(tactics=tactics), seed, style, 160):
        loaded = _loaded(state)
        moves = list(loaded.legal_moves())
        if loaded.phase is Phase.EXCHANGE:
            # thousands of answers to an offer whose answering hand is hidden: a spread
            moves = moves[:: max(1, len(moves) // 300)]
        for move in moves:
            loaded.play(move)  # raises if refused


# --- completeness: what no game reaches is refused, each with its message ---------------------


def _load(data: dict[str, Any], rules: dict[str, Any] | None = None) -> State:
    return FORMAT.load_position(Position(FORMAT.name, data, rules or {}, "p.json"))


def _refused(data: dict[str, Any], rules: dict[str, Any] | None = None) -> str:
    with pytest.raises(RecordError) as error:
        _load(data, rules)
    assert "impossible Schotten Totten 2 position" in str(error.value)
    return str(error.value)


EMPTY_TILES: list[dict[str, Any]] = [{} for _ in range(7)]


def test_short_hands_while_the_piles_have_cards_are_refused() -> None:
    # The audit's case: an attacker with 3 cards at the start of its turn, 51 in the deck.
    message = _refused({"tiles": EMPTY_TILES, "hand_sizes": [3, 6]})
    assert (
        "player 1 holds 3 cards but the piles still hold 51: a hand is refilled to 6 after "
        "every card played while a pile has cards"
    ) in message
    assert _load({"tiles": EMPTY_TILES}).hand_sizes == (6, 6)


def test_exhausted_needs_an_empty_deck() -> None:
    # The audit's case: "exhausted" with 32 cards in the deck.
    tiles = [{"sides": [["R1", "R2"], []]}, {"sides": [[], ["Y1"]]}] + [{}] * 5
    message = _refused({"tiles": tiles, "to_move": 1, "exhausted": True})
    assert "the last siege card has been drawn (exhausted), but the deck holds 45" in message
    # and the other way round: an empty deck is derived as exhausted, or refused as not
    state = next(s for s in random_game(Rules(), 1, "uniform") if s.deck_size == 0)
    data = FORMAT.position_of(state).data
    derived = {key: value for key, value in data.items() if key != "exhausted"}
    assert data["exhausted"] is True and _load(derived).exhausted
    assert "exhausted must be true" in _refused({**data, "exhausted": False})


def test_cards_laid_must_agree_with_alternating_turns() -> None:
    nine = [{"sides": [["R1", "R2", "R3"], []]}, {"sides": [["R4", "R5", "R6", "R7"], []]}]
    nine += [{"sides": [["R8", "R9"], []]}] + [{}] * 4
    message = _refused({"tiles": nine})
    assert (
        "turns alternate from the attacker's first, but the attacker (player 1) has played 9 "
        "cards and the defender 0"
    ) in message
    assert "the attacker can always retreat to make room for one" in message
    assert "the defender (player 2) never passed" in message


def test_a_pass_needs_a_player_who_cannot_play() -> None:
    tiles = [{"sides": [["R1"], []]}] + [{}] * 6
    defender = _refused({"tiles": tiles, "to_move": 1, "phase": "after_pass"})
    assert "the defender (player 2) has passed this turn, but it can play a card" in defender
    attacker = _refused({"tiles": EMPTY_TILES, "phase": "after_pass"})
    assert (
        "the attacker (player 1) has passed this turn, but it holds 6 siege cards and can "
        "always retreat to make room for one"
    ) in attacker


def test_oil_and_damage_leave_cards_on_the_discard_pile() -> None:
    oil = _refused({"tiles": EMPTY_TILES, "oil": 1})
    assert "2 oil cauldrons thrown, each discarding an attacker's card, but 0 cards lie" in oil
    damaged = _refused({"tiles": [{"damaged": True}] + [{}] * 6})
    assert (
        "tile 1 is damaged, each by a control discarding the attacker's formation there "
        "(3 cards), but 0 cards lie on the discard pile"
    ) in damaged


def test_a_pending_support_follows_a_support_card() -> None:
    data = {"tiles": EMPTY_TILES, "phase": "shuffle", "support": ["R1", "R2"]}
    message = _refused(data, {"variants": ["tactics"]})
    assert "the shuffle phase follows player 1's support, but it is not the last action" in message


def test_a_result_must_agree_with_the_table() -> None:
    failed = _refused({"tiles": EMPTY_TILES, "result": {"winner": 1, "reason": "siege_failed"}})
    assert "the siege failed, but player 1 can play a card (nobody could any more)" in failed
    controlled = _refused(
        {"tiles": EMPTY_TILES, "result": {"winner": 0, "reason": "controlled_damaged_tile"}}
    )
    assert "the attacker controlled a damaged tile: it lies empty" in controlled
    assert "is won by the attacker (player 1)" in _refused(
        {"tiles": EMPTY_TILES, "result": {"winner": 1, "reason": "controlled_damaged_tile"}}
    )


def test_an_impossible_exchange_offer_is_refused() -> None:
    offered = _first(Phase.EXCHANGE)
    data = FORMAT.position_of(offered).to_json()
    rules = data.pop("rules")
    for key in ("format", "game"):
        data.pop(key)
    on_table = next(str(c) for t in offered.tiles for side in t.sides for c in side)
    mine = data["exchange"]
    cases = {
        # a card also on the table
        "in 2 places": [on_table, *mine[1:]],
        # the same card three times
        f"{mine[0]} is in 3 places": [mine[0]] * 3,
        # the exchange card offering itself
        "exchange is in 2 places": ["exchange", *mine[1:]],
    }
    for words, offer in cases.items():
        with pytest.raises(RecordError, match=words):
            _load({**data, "exchange": offer}, rules)
    # the exchanging player answering its own offer
    own = _refused({**data, "to_move": 1 - data["to_move"]}, rules)
    assert "cannot answer its own offer" in own
    # what loads, plays: every answer listed is accepted
    loaded = _load(data, rules)
    replies = list(loaded.legal_moves())
    assert replies and all(
        loaded.is_legal(move) for move in replies[:: max(1, len(replies) // 200)]
    )


def test_a_result_must_name_its_winner_and_reason() -> None:
    data = FORMAT.position_of(new_game(seed=0)).data
    with pytest.raises(RecordError, match="expected an object with the winner") as error:
        _load({**data, "result": {}})
    assert error.value.field == "result"
    wrong = _refused({**data, "result": {"winner": 1, "reason": "siege_held"}})
    assert "the siege held: the last siege card must have been drawn" in wrong
    assert "the siege ends (siege_held) at the end of a turn" in wrong


def test_a_bad_position_is_reported_cleanly_by_show_and_claimable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sides = [{"sides": [["R0", "B1", "B2", "B3"], ["R11"]]}, {"sides": [["B1"], []]}] + [{}] * 5
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"format": "referee-position/1", "game": "schotten-totten-2", "tiles": sides})
    )
    for command in ("show", "claimable"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert "tile 1: player 1's side holds 4 cards, the tile takes 3" in err
        assert "tile 1: R0 faces R11" in err and "B1 is in 2 places" in err
    with pytest.raises(RecordError) as error:
        FORMAT.load_position(Position(FORMAT.name, {"tiles": sides}))
    assert error.value.field == "tiles[0].sides[0]"
    with pytest.raises(RecordError, match="unknown field"):
        FORMAT.load_position(Position(FORMAT.name, {"tiles": [{}] * 7, "bogus": 1}))


# --- nothing public is mutable ------------------------------------------------------------------


def test_all_cards_cannot_be_corrupted() -> None:
    # The pattern that corrupted every later validation in the process.
    public = ROOT / "examples" / "records" / "schotten-totten-2" / "public-base.json"
    state = new_game(seed=1)
    left = state.rules.all_cards
    left -= state.visible_cards() + Counter(SIEGE := [Card("R", 1), Card("R", 2)])
    assert left[SIEGE[0]] == 0 and state.rules.all_cards[SIEGE[0]] == 1
    assert sum(Rules().all_cards.values()) == 60
    assert validate(load_record(public)).legal
    with pytest.raises(TypeError):
        state.rules.all_cards[Card("R", 1)] = 5
    with pytest.raises(TypeError):
        state.rules.all_cards.update([Card("R", 1)])
    with pytest.raises(TypeError):
        Rules(tactics=True).all_cards.subtract([TacticCard.JOKER])
    assert Rules(tactics=True).all_cards[TacticCard.JOKER] == 2


def test_state_and_its_parts_are_immutable() -> None:
    state = new_game(seed=2)
    with pytest.raises(AttributeError):
        state.oil = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.rules.tactics = True  # type: ignore[misc]
    assert all(isinstance(part, tuple) for part in (state.tiles, state.hands, state.discards))
    assert isinstance(state.tiles[0].sides, tuple) and isinstance(state.hands[0], tuple)
    # visible_cards() is a fresh count: changing it changes nothing
    seen = state.visible_cards()
    seen[Card("R", 1)] += 3
    assert state.visible_cards() == Counter()


@pytest.mark.parametrize("number", [0, 8, True, 1.0, "1"])
def test_tile_numbers_are_checked(number: object) -> None:
    with pytest.raises(ValueError, match="tiles are numbered 1-7"):
        new_game(seed=1).tile(number)  # type: ignore[arg-type]
