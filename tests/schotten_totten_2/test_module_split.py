"""Names that moved when modules were split stay importable where they were,
as the very same objects (``table`` -> ``table_actions``, ``rules`` ->
``fast_paths``), and the split modules keep to their jobs."""

from __future__ import annotations

import importlib
import random

import pytest

from referee import schotten_totten_2 as st2
from referee.schotten_totten_2 import fast_paths, rules, table, table_actions
from referee.schotten_totten_2.actions import ACTIONS, KINDS
from referee.schotten_totten_2.moves import (
    Desertion,
    Exchange,
    ExchangeReply,
    Explosion,
    Recruitment,
    Redeploy,
    Support,
    Treason,
)
from referee.schotten_totten_2.wall import TacticCard

#: (old module, new module, names that moved)
MOVED = [
    (
        "table",
        "table_actions",
        [
            "SIEGE",
            "JOKER",
            "REDEPLOY_CARD",
            "RECRUITMENT_CARD",
            "DESERTION_CARD",
            "TREASON_CARD",
            "EXPLOSION_CARD",
            "SUPPORT_CARD",
            "EXCHANGE_CARD",
            "REDEPLOY",
            "RECRUITMENT",
            "DESERTION",
            "TREASON",
            "EXPLOSION",
            "SUPPORT",
            "OFFER",
            "GIVE",
            "action_count",
            "action_move",
            "action_moves",
            "replies",
        ],
    ),
    ("rules", "fast_paths", ["fast_card", "fast_draw"]),
]


@pytest.mark.parametrize(("old", "new", "names"), MOVED)
def test_moved_names_are_importable_from_their_old_module(
    old: str, new: str, names: list[str]
) -> None:
    before = importlib.import_module(f"referee.schotten_totten_2.{old}")
    after = importlib.import_module(f"referee.schotten_totten_2.{new}")
    for name in names:
        assert getattr(before, name) is getattr(after, name), name


def test_the_public_lists_keep_their_names() -> None:
    assert {"action_count", "action_move", "action_moves", "replies"} <= set(table.__all__)
    assert set(table_actions.__all__) <= set(table.__all__)
    assert {"fast_card", "fast_draw"} <= set(rules.__all__)
    assert set(fast_paths.__all__) <= set(rules.__all__)


def test_action_card_kinds_and_blocks_match_the_action_space() -> None:
    kinds = [table_actions.REDEPLOY_CARD + i for i in range(7)]
    assert [KINDS[k] for k in kinds] == [
        TacticCard.REDEPLOY,
        TacticCard.RECRUITMENT,
        TacticCard.DESERTION,
        TacticCard.TREASON,
        TacticCard.EXPLOSION,
        TacticCard.SUPPORT,
        TacticCard.EXCHANGE,
    ]
    assert len(KINDS) - 1 == table_actions.EXCHANGE_CARD
    assert KINDS[table_actions.JOKER] is TacticCard.JOKER
    assert all(type(KINDS[k]) is not TacticCard for k in range(table_actions.SIEGE))
    assert type(KINDS[table_actions.SIEGE]) is TacticCard
    for move, start in [
        (Redeploy, table_actions.REDEPLOY),
        (Recruitment, table_actions.RECRUITMENT),
        (Desertion, table_actions.DESERTION),
        (Treason, table_actions.TREASON),
        (Explosion, table_actions.EXPLOSION),
    ]:
        assert type(ACTIONS.move_of(start)) is move
        assert type(ACTIONS.move_of(start - 1)) is not move
    assert type(ACTIONS.move_of(table_actions.SUPPORT)) is Support
    assert type(ACTIONS.move_of(table_actions.OFFER)) is Exchange
    assert type(ACTIONS.move_of(table_actions.GIVE)) is ExchangeReply


@pytest.mark.parametrize("seed", range(4))
def test_counted_action_card_moves_agree_with_the_listed_ones(seed: int) -> None:
    """On positions of random tactics games, with every action card the mover
    lacks put in its hand: the count, each indexed move and the list agree."""
    rng = random.Random(seed)
    state = st2.new_game(seed=seed, rules=st2.Rules(tactics=True))
    checked = 0
    while state.outcome is None:
        if state.phase.value in ("opening", "play"):
            t = table.Table(state)
            player = t.to_move
            missing = set(range(table_actions.REDEPLOY_CARD, len(KINDS))) - set(t.hands[player])
            t.hands[player] = sorted(t.hands[player] + list(missing))
            opened = [s for s in range(7) if t.completed[2 * s + player] < 0]
            listed = table_actions.action_moves(t, player, opened)
            assert listed == sorted(listed)
            assert table_actions.action_count(t, player, opened) == len(listed)
            for index in rng.sample(range(len(listed)), min(5, len(listed))):
                assert table_actions.action_move(t, player, opened, index) == listed[index]
            checked += 1
        state = state.play(rng.choice(state.legal_moves()))
    assert checked > 10
