"""The kernel pieces every line game shares: plain moves and their action ids,
checked move values, observation helpers, the plain game's claim rule and
integer core against the prover and the game's own rules, and the claim
answers of records."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import schotten_totten as st1
from referee import schotten_totten_2 as st2
from referee.cards import CardSet
from referee.errors import InvalidMoveError
from referee.formations import FormationRule
from referee.games import find_game
from referee.line.actions import PlaceActions, first_complete, laid_out
from referee.line.moves import CheckedMove, Claim, Pass, Play, plain_reader
from referee.line.plain import OwnedPlace, PlainGame, PlainTable
from referee.prover import Pool, decide_claim

CARDS = CardSet("RBG", ("red", "blue", "green"), range(1, 7))
GAME = PlainGame(CARDS, FormationRule(3), places=5, hand=4, adjacent=3, total=3)
READ = plain_reader(CARDS)


def test_plain_moves_read_and_write_one_text_each() -> None:
    for text in ("R3@2", "G6@12", "claim 5", "pass"):
        assert str(READ(text)) == text
    assert READ("B4@3") == Play(CARDS.parse("B4"), 3) and READ("claim 1") == Claim(1)
    assert READ("pass") == Pass()
    for bad in ("R3@02", "R9@1", "claim 0", "Pass", "R3 @2"):
        with pytest.raises(InvalidMoveError, match="malformed move"):
            READ(bad)


def test_plain_action_ids_number_every_move_once() -> None:
    actions = PlaceActions("Game", GAME.index, GAME.places, ())
    moves = [actions.move_of(i) for i in range(actions.num_actions)]
    assert [actions.action_of(m) for m in moves] == list(range(actions.num_actions))
    assert len({str(m) for m in moves}) == actions.num_actions == 18 * 5 + 5 + 1
    assert actions.observation_layout[-1] == ("pile", 18 + 5, 1)
    with pytest.raises(ValueError, match="no action"):
        actions.move_of(actions.num_actions)


def test_an_observation_is_laid_out_block_after_block() -> None:
    layout = laid_out([("a", 2), ("b", 0), ("c", 3)])
    assert layout == (("a", 0, 2), ("b", 2, 0), ("c", 2, 3))
    assert first_complete((None, None), 0) == (0, 0) and first_complete((7, 3), 1) == (1, 0)


class _Strict(CheckedMove):
    __slots__ = ()

    def _check_card(self, name: str, value: object) -> None:
        if not isinstance(value, str):
            raise InvalidMoveError(f"{name}: not a card")

    def _check_number(self, name: str, value: object) -> None:
        if type(value) is not int:
            raise InvalidMoveError(f"{name}: not a number")


AnyCard = str


@dataclass(frozen=True, slots=True, repr=False)
class _Swap(_Strict):
    card: AnyCard
    source: int
    target: int | None
    _TEXT = "swap {card}@{source}>{target}"


def test_a_checked_move_checks_its_fields_by_their_annotations() -> None:
    assert str(_Swap("R7", 2, 5)) == "swap R7@2>5" and repr(_Swap("R7", 2, 5)).startswith("parse")
    assert _Swap("R7", 2, None).target is None
    with pytest.raises(InvalidMoveError, match="card: not a card"):
        _Swap(7, 2, 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="source: not a number"):
        _Swap("R7", True, 5)
    with pytest.raises(InvalidMoveError, match="target: not a number"):
        _Swap("R7", 2, "5")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "parse"), [("schotten-totten", st1.parse_move), ("schotten-totten-2", st2.parse_move)]
)
def test_every_move_of_both_line_games_round_trips_through_its_text(name: str, parse: Any) -> None:
    rng = random.Random(3)
    state = find_game(name).deal(rng, {"variants": ["tactics"]})  # type: ignore[misc]
    for _ in range(300):
        if state.is_game_over():
            break
        for move in state.legal_moves():
            again = parse(str(move))
            assert again == move and str(again) == str(move) and hash(again) == hash(move)
        state = state.play(rng.choice(list(state.legal_moves())))


@dataclass(frozen=True, slots=True)
class _Place(OwnedPlace):
    _INDEX, _RULE = GAME.index, GAME.rule


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_claim_rule_over_masks_is_the_provers(rng: random.Random) -> None:
    cards = list(CARDS.cards)
    rng.shuffle(cards)
    mine, theirs = tuple(cards[:3]), tuple(cards[3 : 3 + rng.randrange(4)])
    place = _Place((mine, theirs), (2, 5 if len(theirs) == 3 else None))
    seen_cards = [*mine, *theirs, *cards[6 : 6 + rng.randrange(6)]]
    seen = GAME.index.mask(seen_cards)
    pool = Pool([CARDS.as_pair(c) for c in cards if c not in seen_cards])
    pairs = [CARDS.as_pair(c) for c in mine], [CARDS.as_pair(c) for c in theirs]
    expected = decide_claim(*pairs, pool, GAME.rule, colours=3).holds
    assert GAME.holds(place, 0, seen) == GAME.verdict(place, 0, seen).holds == expected


def test_the_integer_core_refuses_a_view() -> None:
    @dataclass
    class View:
        hands: tuple[object, object] = (None, ())
        deck: object = None

    with pytest.raises(ValueError, match="determinize a view first"):
        PlainTable(GAME, View())


def test_claim_answers_say_an_incomplete_side_in_both_games() -> None:
    state = st1.new_game(deck=st1.CLAN_CARDS.cards).play("R2@5").play("draw")
    answers = find_game("schotten-totten").format.claimability(state)
    assert answers[8].explanation == "formation incomplete (1 of 3 cards)"
    assert answers[8].label == "stone 5" and answers[8].claimable is None
    start = st2.new_game(seed=1)
    tiles = find_game("schotten-totten-2").format.claimability(start)
    assert [a.label for a in tiles] == [f"tile {n}" for n in range(1, 8)]
    assert all(a.player == start.attacker and a.claimable is None for a in tiles)
