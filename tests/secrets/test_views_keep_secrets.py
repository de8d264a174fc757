"""A view is exactly what its player may know (issue #22).

For every game and variant, deep into random games: two full states that one
player cannot tell apart (two cards it never saw swapped in the deal and in
every move naming them) must give that player (and a spectator) the same view
in every form a program can read it: equality, ``repr``, ``str``, SVG, record,
history node by node, pickle bytes, copies, legal moves, observation and the
states ``determinize`` samples from it. And nothing reachable from a view, live
or unpickled, names a card its player never saw.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.clans_and_glory import State as CgState
from referee.clans_and_glory.cards import CARDS as CG_CARDS
from referee.game import History
from referee.schotten_totten_2.moves import Shuffle
from tests.secrets.worlds import CARD_TYPES, GAMES, Game, Twins, random_game, reachable, twins

# A game or two of each kind per example: a few milliseconds each.
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def _twins(data: st.DataObject, game: Game) -> Twins:
    seed = data.draw(st.integers(0, 2**32), label="seed")
    first = data.draw(st.integers(0, 1), label="first") if game.players == 2 else 0
    plies = data.draw(
        st.one_of(st.integers(0, 60), st.integers(60, 160), st.integers(160, 2000)), label="plies"
    )
    stop_at_secret = data.draw(st.booleans(), label="stop_at_secret")
    viewer = data.draw(st.sampled_from(game.viewers), label="viewer")
    pick = data.draw(st.integers(0, 2**16), label="pick")
    salts = data.draw(st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)), label="salts")
    state = random_game(game, seed, first, plies, stop_at_secret)
    pair = twins(game, state, viewer, pick, salts)
    assume(pair is not None)
    assert pair is not None
    return pair


def _nodes(past: History[Any]) -> list[tuple[Any, ...]]:
    """Every node of a history, newest first, as (move, size) and the start's
    picture at the root."""
    out: list[tuple[Any, ...]] = []
    node: Any = past
    while node is not None:
        if node[0] is None:
            start = node[3]
            out.append(("start", node[1], node[2], repr(start), pickle.dumps(start)))
        else:
            out.append((node[1], node[2]))
        node = node[0]
    return out


def _answer(ask: Any) -> Any:
    """What ``ask()`` gives, or the error it raises (type and message)."""
    try:
        return ask()
    except ValueError as error:
        return type(error), str(error)


def _same(one: Any, other: Any, what: str) -> None:
    """``one`` and ``other`` are the same in every form a program can read."""
    assert one == other, what
    assert repr(one) == repr(other), what
    assert str(one) == str(other), what
    assert pickle.dumps(one) == pickle.dumps(other), what
    assert pickle.dumps(copy.deepcopy(one)) == pickle.dumps(copy.deepcopy(other)), what
    assert pickle.dumps(copy.copy(one)) == pickle.dumps(copy.copy(other)), what
    assert one._repr_svg_() == other._repr_svg_(), what
    if hasattr(one, "past"):
        assert one.history == other.history, what
        assert _nodes(one.past) == _nodes(other.past), what


def _check_views_agree(game: Game, pair: Twins) -> None:
    viewer = pair.viewer
    real, twin = pair.real.view(viewer), pair.twin.view(viewer)
    _same(real, twin, "the view")
    if hasattr(real, "to_record"):
        assert _answer(real.to_record) == _answer(twin.to_record)
    assert list(real.legal_moves()) == list(twin.legal_moves())
    actions = game.module("actions")
    space = actions.action_space(pair.real)
    assert space.legal_action_mask(real) == space.legal_action_mask(twin)
    if viewer is not None:
        assert space.observation(pair.real, viewer) == space.observation(pair.twin, viewer)
    determinize = game.module("determinize").determinize
    for salt in (0, 1):
        one = determinize(real, random.Random(salt))
        other = determinize(twin, random.Random(salt))
        _same(one, other, f"the state determinized with seed {salt}")
        assert _answer(one.to_record) == _answer(other.to_record)


def _check_nothing_reaches_a_secret(pair: Twins) -> None:
    viewer = pair.viewer
    secrets = set(pair.secrets)
    view = pair.real.view(viewer)
    chance = getattr(pair.real, "chance_seed", 0)
    # A number equal to the chance seed that the twin's view holds too, while the
    # twin was dealt with another seed, is not the seed (a mask of visible cards
    # can equal it: a seed of 2**32 and one card, bit 32, on a tile).
    twin_chance = getattr(pair.twin, "chance_seed", 0)
    public = (
        {o for o in reachable(pair.twin.view(viewer)) if type(o) is int}
        if twin_chance != chance
        else set()
    )
    for root in (view, pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
        for obj in reachable(root):
            if isinstance(obj, CARD_TYPES):
                assert obj not in secrets, f"a view of player {viewer} reaches {obj}"
            elif type(obj) is Shuffle:
                assert obj.positions is None, f"a view reaches where support's cards went: {obj}"
            elif type(obj) is int and chance > 1 << 20 and obj not in public:
                assert obj != chance, "a view reaches the deal's chance_seed"
            hands = getattr(obj, "hands", None)
            if type(hands) is tuple and type(obj).__name__ == "State":
                others = [p for p in range(len(hands)) if p != viewer]
                assert all(hands[p] is None for p in others), "a view reaches a hidden hand"
            if type(obj) is CgState:  # its cards are small integers: read them as cards
                assert obj.deal is None and obj.removed_ids is None, "a view reaches the deal"
                board = obj.board
                ids = [c for c in board.seat_cards if c >= 0]
                ids += [c for hand in board.hands if hand is not None for c in hand]
                named = {CG_CARDS[c] for c in ids} & secrets
                assert not named, f"a view of player {viewer} names {named} by their ids"


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(SETTINGS, max_examples=50)
@given(data=st.data())
def test_two_worlds_a_player_cannot_tell_apart_give_it_the_same_view(
    name: str, data: st.DataObject
) -> None:
    game = GAMES[name]
    _check_views_agree(game, _twins(data, game))


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(SETTINGS, max_examples=25)
@given(data=st.data())
def test_nothing_reachable_from_a_view_names_a_card_its_player_never_saw(
    name: str, data: st.DataObject
) -> None:
    game = GAMES[name]
    pair = _twins(data, game)
    assert pair.secrets, "the twins differ in two secret cards"
    _check_nothing_reaches_a_secret(pair)
