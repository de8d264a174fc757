"""The replay page in a real browser: keys, slider, move list, evidence, hands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.analysis import analyze
from referee.records import Match, Record, load_record, loads_document
from referee.replay import replay_html

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"


def open_page(browser: Any, tmp_path: Path, item: Record | Match, ply: int | None = None) -> None:
    page = tmp_path / "replay.html"
    page.write_text(replay_html(item, ply=ply), encoding="utf-8")
    browser.get(page.as_uri())


def css(browser: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, selector)


def css_all(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def press(browser: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    chain = ActionChains(browser)
    for _ in range(times):
        chain.send_keys(getattr(Keys, key))
    chain.perform()


def test_keyboard_steps_through_a_full_record(browser: Any, tmp_path: Path) -> None:
    path = RECORDS / "schotten-totten" / "full-2024-tactics.json"
    page = tmp_path / "game.html"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path), "-o", str(page)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    record = load_record(path)
    total = len(record.moves)
    browser.get(page.as_uri())
    assert css(browser, ".ply-counter").text == f"ply 0 / {total}"
    assert css_all(browser, "ol.moves li.current") == []
    press(browser, "ARROW_RIGHT", 3)
    assert css(browser, ".ply-counter").text == f"ply 3 / {total}"
    current = css_all(browser, "ol.moves li.current")
    assert [li.text for li in current] == [record.moves[2]]
    assert current[0].get_attribute("data-ply") == "3"
    assert css(browser, ".slider").get_attribute("value") == "3"
    # The third move is marked on the picture and named in its title bar.
    assert "last move: " + record.moves[2] in css(browser, ".board svg").text
    press(browser, "ARROW_LEFT")
    assert css(browser, ".ply-counter").text == f"ply 2 / {total}"
    assert [li.text for li in css_all(browser, "ol.moves li.current")] == [record.moves[1]]
    press(browser, "END")
    assert css(browser, ".ply-counter").text == f"ply {total} / {total}"
    assert "wins" in css(browser, ".board svg").text
    press(browser, "HOME")
    assert css(browser, ".ply-counter").text == f"ply 0 / {total}"
    # The cards on the table at every step are the ones the record put there.
    press(browser, "ARROW_RIGHT")
    stone = record.moves[0].split("@")[1]
    cards = css_all(browser, f'.board g.stone[data-stone="{stone}"] g.card')
    assert [c.get_attribute("data-card") for c in cards] == [record.moves[0].split("@")[0]]
    shot = Path(os.environ.get("REFEREE_SCREENSHOT_DIR", tmp_path)) / "replay-step.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000


def test_a_claimable_stone_shows_its_evidence(browser: Any, tmp_path: Path) -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024.json")
    analysis = analyze(record)
    ply, answer = next(
        (k, a) for k, answers in enumerate(analysis.answers) for a in answers if a.claimable
    )
    open_page(browser, tmp_path, record, ply=ply)
    assert css(browser, ".ply-counter").text.startswith(f"ply {ply} /")
    claims = [li.text for li in css_all(browser, "ul.claims li.claimable")]
    said = f"{answer.label}, player {answer.player + 1}: {answer.explanation}"
    assert any(text.startswith(said) for text in claims), claims
    badge = css(browser, f'.board g.verdict.claimable[data-place="{answer.place}"]')
    assert badge.get_attribute("data-explanation") == answer.explanation
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", badge
    )
    assert answer.explanation in css(browser, ".evidence").text
    odds = answer.evidence["odds"]  # the odds are part of the evidence shown
    assert (
        f"odds: {odds['beating']} of the opponent's {odds['total']} possible"
        in css(browser, ".evidence").text
    )
    # One step back the stone was not yet proven: no tick there.
    press(browser, "ARROW_LEFT")
    ticks = css_all(browser, f'.board g.verdict.claimable[data-place="{answer.place}"]')
    assert ticks == [] or ply - 1 in {
        k
        for k, answers in enumerate(analysis.answers)
        for a in answers
        if a.claimable and a.place == answer.place
    }


def test_hands_toggle_for_a_full_record_and_hidden_for_a_public_one(
    browser: Any, tmp_path: Path
) -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024.json")
    open_page(browser, tmp_path, record, ply=4)
    hands = css_all(browser, ".board g.hand")
    assert [h.get_attribute("data-player") for h in hands] == ["0", "1"]
    assert all(
        c.get_attribute("data-card")
        for h in hands
        for c in h.find_elements("css selector", "g.card")
    )
    toggle = css(browser, '.hand-toggle input[data-player="0"]')
    toggle.click()
    assert not css(browser, '.board g.hand[data-player="0"]').is_displayed()
    assert css(browser, '.board g.hand[data-player="1"]').is_displayed()
    press(browser, "ARROW_RIGHT")  # the check box does not keep the keys
    assert css(browser, ".ply-counter").text == f"ply 5 / {len(record.moves)}"
    assert not css(browser, '.board g.hand[data-player="0"]').is_displayed()
    toggle.click()
    assert css(browser, '.board g.hand[data-player="0"]').is_displayed()

    public = load_record(RECORDS / "schotten-totten" / "public-2024.json")
    open_page(browser, tmp_path, public, ply=10)
    assert css_all(browser, ".hand-toggle") == []
    assert "hands hidden" in css(browser, ".hand-toggles").text
    hands = css_all(browser, ".board g.hand")
    assert hands and all("hidden" in h.get_attribute("class") for h in hands)
    cards = [c for h in hands for c in h.find_elements("css selector", "g.card")]
    assert cards and all(c.get_attribute("data-card") is None for c in cards)
    assert all("face-down" in c.get_attribute("class") for c in cards)


def test_an_illegal_record_ends_with_the_refused_move(browser: Any, tmp_path: Path) -> None:
    record = load_record(
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-claim-not-proven.json"
    )
    open_page(browser, tmp_path, record)
    press(browser, "END")
    assert css(browser, ".ply-counter").text == "ply 24 refused"
    current = css(browser, "ol.moves li.current")
    assert "refused" in current.get_attribute("class") and current.text.startswith("claim 4")
    refusal = css(browser, ".refusal").text
    assert "claim_not_proven" in refusal and "Refused at ply 24" in refusal
    assert css_all(browser, '.board g.stone[data-stone="4"] ~ g.highlight, .board g.highlight')
    press(browser, "ARROW_LEFT")
    assert css(browser, ".ply-counter").text == "ply 23 / 23"
    assert css(browser, ".refusal").text == ""


def test_a_match_has_a_game_picker(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    path = RECORDS / "schotten-totten-2" / "match-rache.json"
    match = loads_document(path.read_bytes(), str(path))
    assert isinstance(match, Match)
    open_page(browser, tmp_path, match)
    picker = Select(css(browser, ".game-picker"))
    assert len(picker.options) == len(match.games)
    picker.select_by_index(1)
    second = match.games[1]
    assert css(browser, ".ply-counter").text == f"ply 0 / {len(second.moves)}"
    press(browser, "ARROW_RIGHT")
    assert [li.text for li in css_all(browser, "ol.moves li.current")] == [second.moves[0]]
    assert css_all(browser, ".board g.tile")


@pytest.mark.parametrize("name", ["clans-and-glory/full-3-players.json"])
def test_clans_and_glory_steps_seat_by_seat(browser: Any, tmp_path: Path, name: str) -> None:
    record = load_record(RECORDS / name)
    open_page(browser, tmp_path, record)
    press(browser, "ARROW_RIGHT", 2)
    seat = record.moves[1].split("@")[1].split("+")[0]
    assert css(browser, f'.board g.seat[data-seat="{seat}"] g.card')
    assert css_all(browser, ".board g.last-move")
