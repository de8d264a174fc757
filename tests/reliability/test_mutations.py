"""Mutation check of the validators: one illegal move, named at its ply and reason.

Legal full records (each registered game's ``random_record``) get one move
replaced by an illegal one, built by looking at the state at that ply (a stone
whose side is full, a card the mover does not hold, a claim the prover refuses,
...). ``validate`` must name exactly that ply, that move and that reason, and
report every move before it as accepted. Two mutations apply to every game
(unreadable text, and a move appended after the game is over); the others are
listed per game in ``MUTATIONS``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from referee.records import Record, find_game, validate
from tests.reliability._support import examples, games, record_for, rule_sets, rules_id

#: builds an illegal move's text from the state before it, or None if none fits here
Builder = Callable[[Any, random.Random], str | None]


@dataclasses.dataclass(frozen=True)
class Mutation:
    """An illegal move to put in a record, and the reason it must be refused for."""

    reason: str
    build: Builder
    #: mutate the public version of the record (no deal) instead of the full one
    public: bool = False
    #: append after the last move instead of replacing one
    append: bool = False


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return rng.choice(items) if items else None


# --- every game -----------------------------------------------------------------------------


def _malformed(state: Any, rng: random.Random) -> str | None:
    return rng.choice(["R7 to 3", "", "@@", "claim", "play R7 at 3", "\u00e9\u00e9"])


def _after_the_end(state: Any, rng: random.Random) -> str | None:
    """Any move at all once the game is over (``mutate`` appends a move of the record)."""
    return "" if state.outcome is not None else None


GENERIC = [
    Mutation("malformed_move", _malformed),
    Mutation("game_over", _after_the_end, append=True),
]

# --- Schotten Totten ------------------------------------------------------------------------


def _st_phase(state: Any, name: str) -> bool:
    return bool(state.phase.name == name)


def _st_clan_hand(state: Any) -> list[Any]:
    from referee.cards import Card

    return [c for c in state.hands[state.to_move] or () if type(c) is Card]


def _st_open_stones(state: Any, full: bool) -> list[int]:
    player = state.to_move
    return [
        n
        for n, s in enumerate(state.stones, start=1)
        if s.owner is None and (len(s.sides[player]) >= s.rule.size) == full
    ]


def _st_claim_phase(state: Any) -> bool:
    return bool(state.claims_now())


def st_card_not_in_hand(state: Any, rng: random.Random) -> str | None:
    from referee.schotten_totten import CLAN_CARDS

    if not _st_phase(state, "PLAY"):
        return None
    hand = state.hands[state.to_move]
    others = [c for c in CLAN_CARDS.cards if c not in hand]
    return f"{rng.choice(others)}@{rng.randint(1, 9)}"


def st_side_full(state: Any, rng: random.Random) -> str | None:
    card, stone = _pick(rng, _st_clan_hand(state)), _pick(rng, _st_open_stones(state, True))
    return f"{card}@{stone}" if _st_phase(state, "PLAY") and card and stone else None


def st_stone_claimed(state: Any, rng: random.Random) -> str | None:
    claimed = [n for n, s in enumerate(state.stones, start=1) if s.owner is not None]
    card, stone = _pick(rng, _st_clan_hand(state)), _pick(rng, claimed)
    return f"{card}@{stone}" if _st_phase(state, "PLAY") and card and stone else None


def st_already_played(state: Any, rng: random.Random) -> str | None:
    card, stone = _pick(rng, _st_clan_hand(state)), _pick(rng, _st_open_stones(state, False))
    return f"{card}@{stone}" if _st_phase(state, "AFTER_PLAY") and card and stone else None


def st_no_such_stone(state: Any, rng: random.Random) -> str | None:
    card = _pick(rng, _st_clan_hand(state))
    return f"{card}@{rng.choice([10, 0, 99])}" if _st_phase(state, "PLAY") and card else None


def st_claim_not_now(state: Any, rng: random.Random) -> str | None:
    if _st_claim_phase(state) or state.phase.name not in ("PLAY", "AFTER_PLAY"):
        return None
    return f"claim {rng.randint(1, 9)}"


def st_formation_incomplete(state: Any, rng: random.Random) -> str | None:
    stone = _pick(rng, _st_open_stones(state, False))
    return f"claim {stone}" if _st_claim_phase(state) and stone else None


def st_claim_not_proven(state: Any, rng: random.Random) -> str | None:
    if not _st_claim_phase(state):
        return None
    refused = [n for n in _st_open_stones(state, True) if not state.claim_verdict(n).holds]
    stone = _pick(rng, refused)
    return f"claim {stone}" if stone else None


def st_pass_not_allowed(state: Any, rng: random.Random) -> str | None:
    return "pass" if _st_phase(state, "PLAY") and state.can_play_card() else None


def st_must_play_first(state: Any, rng: random.Random) -> str | None:
    return rng.choice(["draw", "done"]) if _st_phase(state, "PLAY") else None


def st_must_draw(state: Any, rng: random.Random) -> str | None:
    piles = state.deck_size + state.tactic_deck_size
    return "done" if _st_phase(state, "AFTER_PLAY") and piles else None


def st_nothing_to_draw(state: Any, rng: random.Random) -> str | None:
    piles = state.deck_size + state.tactic_deck_size
    return "draw" if _st_phase(state, "AFTER_PLAY") and not piles else None


def st_pass_draws_nothing(state: Any, rng: random.Random) -> str | None:
    return "draw" if _st_phase(state, "AFTER_PASS") else None


def st_no_tactics(state: Any, rng: random.Random) -> str | None:
    if state.rules.tactics or not _st_phase(state, "AFTER_PLAY") or not state.deck_size:
        return None
    return "draw clan"


def st_choose_pile(state: Any, rng: random.Random) -> str | None:
    piles = state.deck_size + state.tactic_deck_size
    return "draw" if state.rules.tactics and _st_phase(state, "AFTER_PLAY") and piles else None


def st_tactic_limit(state: Any, rng: random.Random) -> str | None:
    stone = _pick(rng, _st_open_stones(state, False))
    if not state.rules.tactics or state.may_play_tactic() or not _st_phase(state, "PLAY"):
        return None
    # a tactic card the player holds: the hand is checked before the limit
    held = [str(c) for c in state.hands[state.to_move] or () if str(c) in ("spy", "shield_bearer")]
    return f"{rng.choice(held)}@{stone}" if stone and held else None


def st_card_already_played(state: Any, rng: random.Random) -> str | None:
    """In a public record: a card that lies on the table."""
    seen = sorted(state.visible_cards())
    stone = _pick(rng, _st_open_stones(state, False))
    if not _st_phase(state, "PLAY") or not seen or not stone or not state.hand_sizes[state.to_move]:
        return None
    return f"{rng.choice(seen)}@{stone}"


# --- Clans and Glory ------------------------------------------------------------------------


def _cg_seats(state: Any, free: bool) -> list[Any]:
    return [s for s, p in zip(state.layout.seats, state.table, strict=True) if (p is None) == free]


def cg_card_not_in_hand(state: Any, rng: random.Random) -> str | None:
    others = [c for p, hand in enumerate(state.hands) if p != state.to_move for c in hand]
    card, seat = _pick(rng, others), _pick(rng, _cg_seats(state, True))
    return f"{card}@{seat}" if card and seat else None


def cg_seat_taken(state: Any, rng: random.Random) -> str | None:
    card, seat = _pick(rng, list(state.hands[state.to_move])), _pick(rng, _cg_seats(state, False))
    return f"{card}@{seat}" if card and seat else None


def cg_no_such_seat(state: Any, rng: random.Random) -> str | None:
    card = _pick(rng, list(state.hands[state.to_move]))
    return f"{card}@t{state.layout.tableaus + rng.randint(1, 5)}s1" if card else None


def cg_no_match(state: Any, rng: random.Random) -> str | None:
    misfits = [
        (c, s)
        for c in state.hands[state.to_move]
        for s in _cg_seats(state, True)
        if not state.fits(c, s)
    ]
    pair = _pick(rng, misfits)
    return f"{pair[0]}@{pair[1]}" if pair else None


def cg_face_down_with_fit(state: Any, rng: random.Random) -> str | None:
    if not any(not m.face_down for m in state.legal_moves()):
        return None
    card, seat = _pick(rng, list(state.hands[state.to_move])), _pick(rng, _cg_seats(state, True))
    return f"{card}@{seat}+down" if card and seat else None


def cg_no_shields_left(state: Any, rng: random.Random) -> str | None:
    if state.shields_left(state.to_move) > 0:
        return None
    move = _pick(rng, state.legal_moves())
    return f"{move}+shield" if move else None


# --- Schotten Totten 2 ----------------------------------------------------------------------


def _st2_hand(state: Any) -> list[Any]:
    from referee.cards import Card

    return [c for c in state.hands[state.to_move] or () if type(c) is Card]


def _st2_tiles(state: Any, player: int, full: bool) -> list[int]:
    return [t.number for t in state.tiles if (len(t.sides[player]) >= t.rule.size) == full]


def _st2_playing(state: Any) -> bool:
    return state.phase.name in ("OPENING", "PLAY")


def st2_card_not_in_hand(state: Any, rng: random.Random) -> str | None:
    from referee.schotten_totten_2 import SIEGE_CARDS

    hand = state.hands[state.to_move]
    others = [c for c in SIEGE_CARDS.cards if c not in hand]
    return f"{rng.choice(others)}@{rng.randint(1, 7)}" if _st2_playing(state) else None


def st2_side_full(state: Any, rng: random.Random) -> str | None:
    card, tile = _pick(rng, _st2_hand(state)), _pick(rng, _st2_tiles(state, state.to_move, True))
    return f"{card}@{tile}" if _st2_playing(state) and card and tile else None


def st2_already_played(state: Any, rng: random.Random) -> str | None:
    card, tile = _pick(rng, _st2_hand(state)), _pick(rng, _st2_tiles(state, state.to_move, False))
    return f"{card}@{tile}" if state.phase.name == "AFTER_PLAY" and card and tile else None


def st2_formation_incomplete(state: Any, rng: random.Random) -> str | None:
    tile = _pick(rng, _st2_tiles(state, state.attacker, False))
    attacking = state.to_move == state.attacker and state.phase.name == "AFTER_PLAY"
    return f"control {tile}" if attacking and tile else None


def st2_claim_not_proven(state: Any, rng: random.Random) -> str | None:
    if state.to_move != state.attacker or state.phase.name != "AFTER_PLAY":
        return None
    full = _st2_tiles(state, state.attacker, True)
    tile = _pick(rng, [n for n in full if not state.claim_verdict(n).holds])
    return f"control {tile}" if tile else None


def st2_wrong_role(state: Any, rng: random.Random) -> str | None:
    if state.phase.name not in ("OPENING", "PLAY", "AFTER_PLAY"):
        return None
    if state.to_move == state.attacker:
        return f"oil {rng.randint(1, 7)}"
    if state.late_control:  # right after its draw the attacker may still declare control
        return None
    return f"control {rng.randint(1, 7)}"


def st2_must_play_first(state: Any, rng: random.Random) -> str | None:
    return rng.choice(["draw", "done"]) if _st2_playing(state) else None


def st2_must_draw(state: Any, rng: random.Random) -> str | None:
    return "done" if state.phase.name == "AFTER_PLAY" and state.deck_size > 0 else None


def st2_opening_too_late(state: Any, rng: random.Random) -> str | None:
    if state.phase.name not in ("AFTER_PLAY", "AFTER_PASS"):
        return None
    if state.to_move == state.attacker:
        return f"retreat {rng.randint(1, 7)}"
    return f"oil {rng.randint(1, 7)}"


MUTATIONS: dict[str, list[Mutation]] = {
    "schotten-totten": [
        Mutation("card_not_in_hand", st_card_not_in_hand),
        Mutation("side_full", st_side_full),
        Mutation("stone_claimed", st_stone_claimed),
        Mutation("already_played", st_already_played),
        Mutation("no_such_stone", st_no_such_stone),
        Mutation("claim_not_now", st_claim_not_now),
        Mutation("formation_incomplete", st_formation_incomplete),
        Mutation("claim_not_proven", st_claim_not_proven),
        Mutation("pass_not_allowed", st_pass_not_allowed),
        Mutation("must_play_first", st_must_play_first),
        Mutation("must_draw", st_must_draw),
        Mutation("nothing_to_draw", st_nothing_to_draw),
        Mutation("pass_draws_nothing", st_pass_draws_nothing),
        Mutation("tactics_not_in_play", st_no_tactics),
        Mutation("choose_pile", st_choose_pile),
        Mutation("tactic_limit", st_tactic_limit),
        Mutation("card_already_played", st_card_already_played, public=True),
    ],
    "clans-and-glory": [
        Mutation("card_not_in_hand", cg_card_not_in_hand),
        Mutation("seat_taken", cg_seat_taken),
        Mutation("no_such_seat", cg_no_such_seat),
        Mutation("no_match", cg_no_match),
        Mutation("face_down_with_fit", cg_face_down_with_fit),
        Mutation("no_shields_left", cg_no_shields_left),
    ],
    "schotten-totten-2": [
        Mutation("card_not_in_hand", st2_card_not_in_hand),
        Mutation("side_full", st2_side_full),
        Mutation("already_played", st2_already_played),
        Mutation("formation_incomplete", st2_formation_incomplete),
        Mutation("claim_not_proven", st2_claim_not_proven),
        Mutation("wrong_role", st2_wrong_role),
        Mutation("must_play_first", st2_must_play_first),
        Mutation("must_draw", st2_must_draw),
        Mutation("opening_too_late", st2_opening_too_late),
    ],
}

# --- the check ----------------------------------------------------------------------------


@cache
def _states(game: str, rules_key: str, seed: int, public: bool) -> tuple[Record, tuple[Any, ...]]:
    """A record and the state before each of its moves (and after the last)."""
    record = record_for(game, json.loads(rules_key), seed)
    if public:
        record = dataclasses.replace(record, deal=None)
    state = find_game(game).start(record)
    states = [state]
    for move in record.moves:
        state = state.play(move)
        states.append(state)
    return record, tuple(states)


def mutate(game: str, mutation: Mutation, rules: dict[str, Any], seed: int) -> int:
    """Apply ``mutation`` at up to two fitting plies of one record; returns how many."""
    record, states = _states(game, json.dumps(rules, sort_keys=True), seed, mutation.public)
    rng = random.Random(f"{seed} {mutation.reason}")
    if mutation.append:
        plies = [len(record.moves)]
    else:
        plies = list(range(len(record.moves)))
        rng.shuffle(plies)
    done = 0
    for ply in plies:
        text = mutation.build(states[ply], rng)
        if text is None:
            continue
        if mutation.append:
            text = rng.choice(record.moves)
        moves = (*record.moves[:ply], text, *record.moves[ply + 1 :])
        report = validate(dataclasses.replace(record, moves=moves))
        where = f"{game} {rules_id(rules)} seed {seed}: {text!r} at ply {ply + 1}"
        assert report.error is not None, f"{where}: accepted ({report.summary()})"
        assert (report.error.ply, report.error.move) == (ply + 1, text), where
        assert report.error.reason == mutation.reason, f"{where}: {report.summary()}"
        assert report.plies == ply and report.input_error is None
        done += 1
        if done == 2:
            break
    return done


CASES = [(g, m) for g in games() for m in [*GENERIC, *MUTATIONS.get(g, [])]]


@pytest.mark.parametrize(("game", "mutation"), CASES, ids=[f"{g}-{m.reason}" for g, m in CASES])
def test_validate_names_the_mutated_ply_and_reason(game: str, mutation: Mutation) -> None:
    checked = 0
    for rules in rule_sets(game):
        for seed in range(examples(3)):
            checked += mutate(game, mutation, rules, seed)
    if checked == 0:
        # Rare positions (an empty deck, every shield used) may need more games.
        # Every rule set: some mutations exist only with a variant (tactics).
        for seed in range(examples(3), examples(3) + 40):
            for rules in rule_sets(game):
                checked += mutate(game, mutation, rules, seed)
            if checked:
                break
    assert checked, f"no position of {game} allowed a {mutation.reason} mutation"
