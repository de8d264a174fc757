"""Public records: legal only if some deal fits every visible move.

Every full record's public version must validate, and the deal
:func:`referee.deals.witness` finds must replay it as a legal full record;
a public record that no deal fits is refused at exactly the first ply no deal
fits.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.deals import check_record, witness
from referee.errors import InvalidMoveError, RefereeError
from referee.records import Record, find_game, validate

CONFIGS = [
    ("schotten-totten", {}),
    ("schotten-totten", {"variants": ["tactics"]}),
    ("schotten-totten", {"edition": "1999"}),
    ("schotten-totten-2", {}),
    ("schotten-totten-2", {"variants": ["tactics"]}),
]
ELITE = {
    "schotten-totten": ("joker", "spy", "shield_bearer"),
    "schotten-totten-2": ("joker", "spy", "shield"),
}
PLACES = {"schotten-totten": 9, "schotten-totten-2": 7}


def _public(game: str, rules: dict[str, Any], seed: int) -> Record:
    full = find_game(game).random_record(seed, rules)
    return dataclasses.replace(full, deal=None, result=None)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_public_version_of_a_full_record_fits_and_its_witness_replays(
    config: tuple[str, dict[str, Any]], seed: int
) -> None:
    game, rules = config
    public = _public(game, rules, seed)
    report = validate(public)
    assert report.legal, report.summary()
    full = witness(public)
    assert full is not None and not full.is_public
    assert full.moves == public.moves
    replayed = validate(full)
    assert replayed.legal and replayed.plies == len(public.moves), replayed.summary()


def _tactic_play(state: Any, game: str) -> str | None:
    """An elite tactic play the rules accept now (they cannot see the hand)."""
    for name in ELITE[game]:
        for place in range(1, PLACES[game] + 1):
            text = f"{name}@{place}"
            try:
                state.play(text)
            except RefereeError:
                continue
            return text
    return None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(ELITE)), seed=st.integers(0, 10_000))
@example(game="schotten-totten-2", seed=391)  # a joker received by an exchange's answer
def test_a_tactic_card_played_before_any_tactic_draw_is_caught_at_its_ply(
    game: str, seed: int
) -> None:
    public = _public(game, {"variants": ["tactics"]}, seed)
    fmt = find_game(game)
    state = fmt.start(public)
    drawn = [0, 0]
    candidates = []
    for ply, text in enumerate(public.moves, start=1):
        player = state.to_move
        if drawn[player] == 0:
            mutant = _tactic_play(state, game)
            if mutant is not None:
                candidates.append((ply, mutant))
        if "tactic" in text.split(" return ")[0]:
            drawn[player] += 1
        # Schotten Totten 2: tactic cards given away enter the other hand
        # (an exchange's offer goes to the answerer, the answer to the mover)
        if text.startswith(("exchange ", "give ")) and any(
            card[:1].islower() for card in text.split(" ", 1)[1].split(",")
        ):
            drawn[1 - player] += 1
        state = state.play(text)
    if not candidates:
        return
    ply, mutant = random.Random(seed).choice(candidates)
    moves = (*public.moves[: ply - 1], mutant, *public.moves[ply:])
    report = validate(dataclasses.replace(public, moves=moves))
    assert report.error is not None, report.summary()
    assert (report.error.ply, report.error.move, report.error.reason) == (
        ply,
        mutant,
        "card_never_held",
    ), report.summary()
    assert report.plies == ply - 1


@pytest.mark.parametrize(
    ("game", "first"), [("schotten-totten", "spy@1"), ("schotten-totten-2", "joker@1")]
)
def test_a_first_move_that_is_a_tactic_card_is_refused(game: str, first: str) -> None:
    record = Record(game, (first,), {"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None
    # the rules count the tactic cards in each hidden hand, so they refuse it first
    assert (report.error.ply, report.error.reason) == (1, "card_not_in_hand")
    # and the deal check alone refuses it at the same ply
    answer = check_record(record, 1)
    assert answer is not None and not answer.fits
    assert (answer.ply, answer.reason) == (1, "card_never_held")
    assert answer.message.startswith("no deal fits: player 1 plays")


def test_six_tactic_cards_before_any_tactic_draw_then_all_ten_drawn() -> None:
    # the record: no deal fits it. The rules now count the tactic cards
    # in each hidden hand, so they refuse its first move themselves
    plays = ["joker@1", "spy@1", "shield_bearer@2", "joker@2", "mud_fight@3", "blind_mans_bluff@4"]
    clan = iter(["R1@5", "O1@5", "R2@5", "O2@5", "R3@6", "O3@6", "R4@6", "O4@6", "R5@7", "O5@7"])
    moves: list[str] = []
    for text in plays:
        moves += [text, "draw clan"]
    for text in clan:
        moves += [text, "draw tactic"]
    record = Record("schotten-totten", tuple(moves), {"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None
    assert (report.error.ply, report.error.move, report.error.reason) == (
        1,
        "joker@1",
        "card_not_in_hand",
    )
    # the deal check alone refuses it at the same ply, whole or cut short
    for plies in (None, 1, len(moves) - 1):
        answer = check_record(record, plies)
        assert answer is not None and not answer.fits
        assert (answer.ply, answer.reason) == (1, "card_never_held")
        assert answer.message == (
            "no deal fits: player 1 plays joker but has drawn no tactic card that could be it"
        )


def test_a_card_put_back_under_the_pile_cannot_be_played_by_the_opponent() -> None:
    moves = (
        "R1@1",
        "draw tactic",
        "O1@1",
        "draw clan",
        "recruiter draw clan clan clan return R2 R3",
        "done",
        "R2@2",
    )
    record = Record("schotten-totten", moves, {"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None
    assert (report.error.ply, report.error.reason) == (7, "card_never_held")
    assert report.error.message == (
        "illegal move 'R2@2': no deal fits: player 2 plays R2, but R2 was put under the clan pile "
        "by player 1"
    )
    # before that ply a deal fits, and the witness names it
    assert validate(dataclasses.replace(record, moves=moves[:6])).legal


def test_hidden_recruiter_returns_are_named_by_the_witness() -> None:
    moves = (
        "R1@1",
        "draw tactic",
        "O1@1",
        "draw clan",
        "recruiter draw clan tactic clan return clan tactic",
        "done",
        "Y1@1",
    )
    record = Record("schotten-totten", moves, {"variants": ["tactics"]})
    assert validate(record).legal
    full = witness(record)
    assert full is not None
    assert "clan" not in full.moves[4].split(" return ")[1]
    assert validate(full).legal


def test_exchanged_cards_are_in_the_other_hand() -> None:
    record = Record("schotten-totten-2", (), {"variants": ["tactics"]})
    # player 1 draws the exchange and offers R2,R3,R4; player 2 answers with
    # R5,R6,R7 in its own ply, then plays R5, which is now in player 1's hand
    moves = (
        "R0@1", "draw tactic", "R1@1", "draw",
        "exchange R2,R3,R4", "give R5,R6,R7", "draw", "R5@2",
    )  # fmt: skip
    state = find_game("schotten-totten-2").start(record)
    for text in moves:
        state = state.play(text)  # the rules alone accept every move
    report = validate(dataclasses.replace(record, moves=moves))
    assert report.error is not None
    assert (report.error.ply, report.error.move, report.error.reason) == (
        8,
        "R5@2",
        "card_never_held",
    )
    assert report.error.message.endswith("player 2 plays R5, but R5 is in player 1's hand")
    before = dataclasses.replace(record, moves=moves[:7])
    assert validate(before).legal
    full = witness(before)
    assert full is not None and validate(full).legal


def test_an_exchange_offers_only_cards_its_mover_can_hold() -> None:
    # player 1's only tactic card drawn is the exchange itself, so it cannot
    # offer the spy: refused at the offer, not at the answer
    moves = ("R0@1", "draw tactic", "R1@1", "draw", "exchange spy,R3,R4", "give R5,R6,R7")
    record = Record("schotten-totten-2", moves, {"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None
    # the rules count the tactic cards in the hidden hand, so they refuse it first
    assert (report.error.ply, report.error.reason) == (5, "card_not_in_hand")
    # and the deal check alone refuses it at the same ply
    for plies in (None, 5):
        answer = check_record(record, plies)
        assert answer is not None and not answer.fits
        assert (answer.ply, answer.reason) == (5, "no_consistent_deal")
        assert answer.message is not None and "player 1 plays spy" in answer.message
    fits = check_record(record, 4)
    assert fits is not None and fits.fits


def test_the_old_one_ply_exchange_is_refused() -> None:
    state = find_game("schotten-totten-2").start(
        Record("schotten-totten-2", (), {"variants": ["tactics"]})
    )
    with pytest.raises(InvalidMoveError, match="give B4,B5,B6"):
        state.play("exchange R2,R3,R4 for R5,R6,R7")


def test_full_records_and_games_without_a_deal_model_are_not_checked() -> None:
    full = find_game("schotten-totten").random_record(1, {})
    assert check_record(full) is None
    assert witness(full) is None


def _known_elsewhere(record: Record) -> list[tuple[int, str]]:
    """Plies where the mover could be made to play a card the record shows is
    elsewhere: a clan card the recruiter just put under the clan pile (at the
    opponent's next turn), or a card just given away by an exchange (at the
    giver's next turn: both sides of an exchange give). Each with the card to play."""
    found = []
    waiting: list[tuple[int, str]] = []  # (player who cannot hold it, card)
    state = find_game(record.game).start(record)
    for ply, text in enumerate(record.moves, start=1):
        player = state.to_move
        at_start = state.phase.value in ("play", "opening")
        if at_start:
            found += [(ply, card) for who, card in waiting if who == player]
            waiting = [(who, card) for who, card in waiting if who != player]
        if text.startswith("recruiter") and " return " in text and state.deck_size > 4:
            named = [w for w in text.split(" return ")[1].split() if w[:1].isupper()]
            waiting = [(1 - player, card) for card in named]
        elif text.startswith(("exchange ", "give ")):
            # the offer (by the mover), then the answer (by the opponent, in its
            # own ply): each side's cards are now in the other hand
            give = text.split(" ", 1)[1].split(",")
            waiting += [(player, card) for card in give if card[:1].isupper()]
        state = state.play(text)
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(ELITE)), seed=st.integers(0, 10_000))
def test_a_card_known_to_be_elsewhere_is_caught_at_its_ply(game: str, seed: int) -> None:
    public = _public(game, {"variants": ["tactics"]}, seed)
    fmt = find_game(game)
    states = [fmt.start(public)]
    for text in public.moves:
        states.append(states[-1].play(text))
    for ply, card in _known_elsewhere(public):
        state = states[ply - 1]
        for place in range(1, PLACES[game] + 1):
            mutant = f"{card}@{place}"
            try:
                state.play(mutant)
            except RefereeError:
                continue
            moves = (*public.moves[: ply - 1], mutant, *public.moves[ply:])
            report = validate(dataclasses.replace(public, moves=moves))
            assert report.error is not None, report.summary()
            assert (report.error.ply, report.error.reason) == (ply, "card_never_held")
            assert f"but {card} " in report.error.message
            return


def test_a_hidden_return_is_never_the_second_joker_of_a_player_who_played_one() -> None:
    # player 1 plays a joker, later recruits and puts one tactic card back hidden:
    # that card cannot be the second joker (RULINGS 14: it stays in hand), so the
    # witness names another one
    moves = (
        "R1@1", "draw tactic", "O1@1", "draw tactic",
        "joker@2", "draw tactic", "spy@2", "draw tactic",
        "R3@3", "draw tactic", "O3@3", "draw clan",
        "recruiter draw clan clan clan return tactic clan", "done",
    )  # fmt: skip
    record = Record("schotten-totten", moves, {"variants": ["tactics"]})
    assert validate(record).legal
    full = witness(record)
    assert full is not None
    returned = full.moves[12].split(" return ")[1].split()
    assert returned[0] not in ("joker", "tactic") and returned[1] != "clan"
    assert validate(full).legal
    # the solver is told so: the hidden tactic card put back excludes the joker
    from referee.deals import PutBack
    from referee.schotten_totten.deals import problem

    hidden = [e for e in problem(record).events if isinstance(e, PutBack)]
    assert [(e.pile, e.card, e.excluded) for e in hidden] == [
        ("tactic", None, ("joker",)),
        ("clan", None, ()),
    ]


def test_a_player_who_passes_with_room_holds_no_clan_card() -> None:
    # the first player passes with every stone open: its hand is 7 clan cards.
    # The rules now count the tactic cards in each hidden hand, so they refuse it
    record = Record("schotten-totten", ("pass", "done"), {"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None
    assert (report.error.ply, report.error.move, report.error.reason) == (
        1,
        "pass",
        "pass_not_allowed",
    )
    # and the deal check alone refuses it at the same ply
    answer = check_record(record)
    assert answer is not None and not answer.fits
    assert (answer.ply, answer.reason) == (1, "no_consistent_deal")
    assert answer.message == "no deal fits: player 1 passes, but would hold a card it could play"


@pytest.mark.parametrize("seed", [1128, 1364])
def test_the_witness_of_a_pass_holds_no_card_the_passer_could_play(seed: int) -> None:
    # Schotten Totten 2: these games end with a pass by a player whose side is
    # full; a witness holding an action card it could still play would not replay
    public = _public("schotten-totten-2", {"variants": ["tactics"]}, seed)
    assert "pass" in public.moves and validate(public).legal
    full = witness(public)
    assert full is not None and validate(full).legal


# --- public records that keep their result -------------------------------------------------

ALL_CONFIGS = [
    *CONFIGS,
    ("schotten-totten", {"variants": ["early-bird"]}),
    ("schotten-totten", {"variants": ["tactics", "early-bird"]}),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(ALL_CONFIGS), seed=st.integers(0, 10_000))
@example(config=("schotten-totten-2", {"variants": ["tactics"]}), seed=791)
@example(config=("schotten-totten-2", {"variants": ["tactics"]}), seed=3285)
def test_the_public_version_of_a_finished_game_ends_as_the_full_record(
    config: tuple[str, dict[str, Any]], seed: int
) -> None:
    # A public record keeps the result: the replay without the hands must end
    # the game where the full record does, with the same result.
    game, rules = config
    full = find_game(game).random_record(seed, rules)
    public = dataclasses.replace(full, deal=None)
    report = validate(public)
    assert report.legal and report.result_mismatch is None, report.summary()
    assert report.outcome == validate(full).outcome


FAILED_SIEGES = [791, 3285]  # demo games (tactics) that end in a failed siege


@pytest.mark.parametrize("seed", FAILED_SIEGES)
def test_a_failed_siege_ends_the_public_record_where_the_full_one_ends(seed: int) -> None:
    # The last pass leaves both players unable to play with the hands dealt;
    # a public replay cannot see that, so the record says it: it ends there
    # with a failed siege (it was refused: "result mismatch ... not over").
    full = find_game("schotten-totten-2").random_record(seed, {"variants": ["tactics"]})
    assert full.result == {"winner": 1, "reason": "siege_failed"}
    public = dataclasses.replace(full, deal=None)
    report = validate(public)
    assert report.legal and report.result_mismatch is None, report.summary()
    assert report.outcome == validate(full).outcome
    # the deal asks for hands that play nothing more: both players lack every
    # card they could play on their next turn, and the witness ends the same way
    from referee.deals import Lacks
    from referee.schotten_totten_2.deals import problem

    last = problem(public).events[-2:]
    assert all(isinstance(e, Lacks) and e.ply == len(public.moves) for e in last)
    assert {e.player for e in last} == {0, 1}
    found = witness(public)
    assert found is not None
    replayed = validate(found)
    assert replayed.legal and replayed.result_mismatch is None
    assert replayed.outcome == report.outcome
    # without the result the record is simply unfinished, as before
    unfinished = validate(dataclasses.replace(public, result=None))
    assert unfinished.legal and unfinished.outcome is None


@pytest.mark.parametrize("seed", FAILED_SIEGES)
def test_a_failed_siege_claimed_where_a_player_must_still_play_is_refused(seed: int) -> None:
    full = find_game("schotten-totten-2").random_record(seed, {"variants": ["tactics"]})
    public = dataclasses.replace(full, deal=None)
    # an earlier turn's end with the same result: a hand is known to hold a
    # card it can play there, so the game is not over
    for cut in (len(public.moves) - 2, len(public.moves) - 4):
        report = validate(dataclasses.replace(public, moves=public.moves[:cut]))
        assert report.result_mismatch is not None and "not over" in report.result_mismatch


def test_a_failed_siege_needs_hands_that_play_nothing() -> None:
    # The deal question of a failed siege: give the defender a card it could
    # play (here, received in the open) and no deal fits the end any more.
    from referee.deals import Lacks, Receive, solve
    from referee.schotten_totten_2.deals import problem

    full = find_game("schotten-totten-2").random_record(791, {"variants": ["tactics"]})
    found = problem(dataclasses.replace(full, deal=None))
    lacked = [e for e in found.events if isinstance(e, Lacks)][-2:]
    defender = next(e for e in lacked if e.player == 1)
    playable = sorted(defender.cards)[0]
    assert solve(found).fits
    extra = Receive(len(full.moves), 1, playable)
    spoiled = dataclasses.replace(found, events=(*found.events[:-2], extra, *found.events[-2:]))
    answer = solve(spoiled)
    assert (answer.fits, answer.ply, answer.reason) == (
        False,
        len(full.moves),
        "no_consistent_deal",
    )
    assert answer.message == (
        f"no deal fits: player 2 can play nothing more (the siege failed), but holds {playable}"
    )


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.sampled_from(
        [
            ("schotten-totten", {"variants": ["clanfehde", "tactics"], "rounds": 3}),
            ("schotten-totten-2", {"variants": ["rache", "tactics"], "rounds": 2}),
            ("schotten-totten-2", {"variants": ["rache"], "rounds": 2}),
        ]
    ),
    seed=st.integers(0, 10_000),
)
def test_the_public_version_of_a_match_is_decided_as_the_full_match(
    config: tuple[str, dict[str, Any]], seed: int
) -> None:
    game, rules = config
    full = find_game(game).random_match(seed, rules)
    public = dataclasses.replace(
        full, games=tuple(dataclasses.replace(g, deal=None) for g in full.games)
    )
    report = validate(public)
    assert report.legal and report.result_mismatch is None, report.summary()
    assert report.match_result == validate(full).match_result
