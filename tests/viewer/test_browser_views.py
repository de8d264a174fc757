"""In a real browser: a page made for one player, and the replay a notebook
shows (a static picture where scripts do not run, the board where they do)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.records import Match, Record, replay
from tests.viewer.pages import (
    GAMES,
    board_text,
    counter,
    css,
    css_all,
    load,
    open_html,
    press,
    script_errors,
)


@pytest.mark.parametrize("name", GAMES)
def test_a_page_for_one_player_shows_the_others_face_down(
    desktop: Any, tmp_path: Path, name: str
) -> None:
    from referee.replay import replay_html

    record = load(name)
    assert isinstance(record, Record)
    viewer = 1
    open_html(desktop, tmp_path, replay_html(record, viewer=viewer), hash="ply=12")
    assert counter(desktop) == 12
    name_ = record.players[viewer] if record.players else f"player {viewer + 1}"
    assert f"{name_}'s page" in css(desktop, ".hand-toggles").text
    assert css_all(desktop, ".hand-toggle") == []
    state = replay(record, 12)
    for player in range(state.num_players):
        cards = css_all(desktop, f'.board g.hand[data-player="{player}"] g.card')
        faces = [c.get_attribute("data-card") for c in cards]
        if player == viewer:
            hand = state.hands[player]
            assert hand is not None and faces == [str(c) for c in hand]
        else:  # card backs that name nothing
            assert cards and all(f is None for f in faces)
            assert all("face-down" in c.get_attribute("class") for c in cards)
    if record.game != "clans-and-glory":  # the player's own side is below
        own = css(desktop, f'.board g.hand[data-player="{viewer}"]').rect["y"]
        other = css(desktop, f'.board g.hand[data-player="{1 - viewer}"]').rect["y"]
        assert own > other
    press(desktop, "END")
    assert script_errors(desktop) == []


def strip_scripts(html: str) -> str:
    """The output as GitHub or nbviewer keep it: without its scripts."""
    return re.sub(r"<script\b.*?</script>", "", html, flags=re.S)


@pytest.mark.parametrize("name", ["schotten-totten/match-clanfehde.json", GAMES[2]])
def test_a_notebook_shows_the_last_position_where_scripts_do_not_run(
    desktop: Any, tmp_path: Path, name: str
) -> None:
    item = load(name)
    html = item._repr_html_()
    assert len(html) < 200_000
    open_html(desktop, tmp_path, f"<html><body><p>cell</p>{strip_scripts(html)}</body></html>")
    still = css(desktop, ".replay-static svg")
    assert still.is_displayed()
    assert not css(desktop, ".replay-live").is_displayed()
    assert "Step through the game where scripts run" in css(desktop, ".replay-static").text
    # The static picture is the game's last position.
    record = item.games[0] if isinstance(item, Match) else item
    final = replay(record, len(record.moves))
    shown = desktop.execute_script(
        "return document.querySelector('.replay-static svg').textContent"
    )
    assert (final.outcome is not None) and "game over" in shown
    # Where scripts run, the board replaces it (its data unpacked first).
    open_html(desktop, tmp_path, f"<html><body><p>cell</p>{html}</body></html>", "live.html")
    css(desktop, ".replay-live .board svg")  # waits for the unpacked data
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(desktop, 10).until(lambda d: css(d, ".replay-live").is_displayed())
    assert not css(desktop, ".replay-static").is_displayed()
    assert counter(desktop) == 0
    css(desktop, ".forward").click()
    assert counter(desktop) == 1
    assert desktop.execute_script("return location.hash") == ""  # a cell never takes the address
    assert board_text(desktop)
    assert script_errors(desktop) == []
