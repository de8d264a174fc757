"""The replay page in a phone-sized window (390 by 844 pixels), on every game:
card values at least 12 pixels tall, nothing wider than the screen, and the
step buttons at hand without moving the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.replay import replay_data, replay_html
from tests.viewer.pages import (
    GAMES,
    card_value_pixels,
    counter,
    css,
    load,
    open_html,
    script_errors,
)


@pytest.mark.parametrize("name", [*GAMES, "clans-and-glory/full-4-players.json"])
def test_a_phone_reads_the_cards_and_steps_without_moving_the_page(
    phone: Any, tmp_path: Path, name: str
) -> None:
    item = load(name)
    data = replay_data(item)
    open_html(phone, tmp_path, replay_html(item, ply=10))
    assert phone.execute_script("return window.innerWidth") <= 390
    assert card_value_pixels(phone, data["valueSize"]) >= 12
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= phone.execute_script("return window.innerWidth")
    bar = css(phone, ".replay-bar")
    assert bar.value_of_css_property("position") == "fixed"
    steps = ("forward", "forward", "next-turn", "back", "next-turn", "last", "first")

    def top(selector: str) -> float:
        return float(
            phone.execute_script(
                "return document.querySelector(arguments[0]).getBoundingClientRect().top", selector
            )
        )

    # Looking at the board, then stepping: neither the page nor the board moves.
    phone.execute_script("window.scrollTo(0, document.querySelector('.board').offsetTop)")
    before, board = phone.execute_script("return window.scrollY"), top(".board")
    assert before > 100
    for button in steps:
        css(phone, f".replay-bar .{button}").click()
        assert phone.execute_script("return window.scrollY") == before, button
        assert top(".board") == board, button
    # Looking at the move list: it stays where it is on the screen.
    phone.execute_script("document.querySelector('.moves-panel').scrollIntoView()")
    moves = top(".moves-panel")
    for button in steps:
        css(phone, f".replay-bar .{button}").click()
        assert abs(top(".moves-panel") - moves) <= 1, button
    assert counter(phone) == 0
    css(phone, ".replay-bar .last").click()  # nothing wider than the screen at the end either
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= phone.execute_script("return window.innerWidth")
    css(phone, ".replay-bar .first").click()
    css(phone, ".replay-bar .next-turn").click()
    assert counter(phone) == data["games"][0]["turns"][0][2]
    assert script_errors(phone) == []
