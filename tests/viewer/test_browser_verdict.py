"""The replay page in a real browser: hostile text stays text, and an illegal
record's page says so before anything else."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from referee.records import Match, Record, load_record, loads_document, validate
from referee.replay import replay_html

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"
ILLEGAL = ROOT / "examples" / "illegal-records"

#: Text that once blanked the page (``<!--<script`` in the data block), and
#: more that can end or change a script, a CDATA section or a JavaScript string.
HOSTILE = [
    "<!--<script",
    "</script><script>window.hacked = 1</script>",
    "]]><!--",
    "line\u2028separator\u2029paragraph",
    "<!--<script>x</script>-->",
]


def open_page(browser: Any, tmp_path: Path, item: Record | Match, name: str = "page.html") -> None:
    page = tmp_path / name
    page.write_text(replay_html(item), encoding="utf-8")
    browser.get(page.as_uri())


def css(browser: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, selector)


def css_all(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def script_errors(browser: Any) -> list[str]:
    return [
        entry["message"]
        for entry in browser.get_log("browser")
        if entry.get("level") == "SEVERE" and "favicon" not in entry["message"]
    ]


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_names_and_meta_stay_text(browser: Any, tmp_path: Path, hostile: str) -> None:
    base = load_record(RECORDS / "schotten-totten" / "full-2024.json")
    names = (hostile, f"b {hostile} b")
    record = dataclasses.replace(
        base, players=names, meta={"note": hostile, hostile: [hostile]}, where=f"x{hostile}.json"
    )
    assert validate(record).legal
    open_page(browser, tmp_path, record)
    # The script ran to the end: the page is stepped through, nothing injected.
    total = len(record.moves)
    assert css(browser, ".ply-counter").text == f"ply 0 / {total}"
    assert browser.execute_script("return window.hacked === undefined")
    assert css_all(browser, ".verdict") == []
    labels = [label.get_attribute("textContent") for label in css_all(browser, ".hand-toggle")]
    assert labels == [f" {name}'s hand face up" for name in names]
    moves = css_all(browser, "table.moves .move")
    assert (moves[0].get_attribute("title") or "").startswith(f"{names[record.first]} plays ")
    # The names are text on the board too, never markup.
    assert (
        browser.execute_script("return document.querySelector('.board svg').textContent").count(
            names[0][:8]
        )
        >= 1
    )
    # Every script element holds what the page wrote: the data parses back.
    data = browser.execute_script(
        "return JSON.parse(document.querySelector('script.replay-data').textContent)"
    )
    assert data["games"][0]["players"] == list(names)
    title = f"Schotten Totten record: {Path(record.where).name}"
    assert css(browser, "h1").get_attribute("textContent") == title
    assert browser.execute_script("return document.querySelector('title').textContent") == title
    assert script_errors(browser) == []


def test_a_hostile_illegal_move_is_shown_as_text_in_the_verdict(
    browser: Any, tmp_path: Path
) -> None:
    hostile = "</script><!--<script>window.hacked=1</script>"
    record = Record("schotten-totten", ("R7@3", hostile), players=(HOSTILE[0], HOSTILE[2]))
    report = validate(record)
    assert not report.legal
    open_page(browser, tmp_path, record)
    assert browser.execute_script("return window.hacked === undefined")
    verdict = css(browser, ".verdict")
    assert verdict.is_displayed()
    assert verdict.get_attribute("textContent") == (
        "This record is illegal: the referee refuses it." + report.summary()
    )
    assert css(browser, ".ply-counter").text == "ply 0 / 1"  # the legal move before it
    assert script_errors(browser) == []


@pytest.mark.parametrize(
    ("name", "kind", "words"),
    [
        (
            "schotten-totten/illegal-claim-not-proven.json",
            "record",
            "illegal at ply 24 'claim 4' [claim_not_proven]",
        ),
        ("schotten-totten/illegal-wrong-result.json", "record", "result mismatch"),
        ("clans-and-glory/illegal-wrong-result.json", "record", "result mismatch"),
        (
            "schotten-totten/illegal-match-extra-round.json",
            "match",
            "illegal match: the match has 3 games but 2 rounds were agreed",
        ),
        (
            "schotten-totten-2/illegal-match-roles-not-swapped.json",
            "match",
            "illegal match: game 2 must be attacked by player 2",
        ),
    ],
)
def test_an_illegal_record_opens_with_its_verdict(
    browser: Any, tmp_path: Path, name: str, kind: str, words: str
) -> None:
    path = ILLEGAL / name
    item = loads_document(path.read_bytes(), str(path))
    summary = validate(item).summary()
    assert words in summary
    open_page(browser, tmp_path, item)
    verdict = css(browser, ".verdict")
    # First on the page, above the board, and visible without scrolling.
    assert verdict.is_displayed() and verdict.location["y"] < css(browser, ".board").location["y"]
    assert verdict.location["y"] < browser.execute_script("return window.innerHeight")
    assert css(browser, ".verdict-head").text == f"This {kind} is illegal: the referee refuses it."
    assert css(browser, ".verdict-line").text == summary
    assert browser.title.endswith("(illegal)")
    assert css(browser, ".game-verdict").text == f"Illegal: {summary}"
    if kind == "match":
        from selenium.webdriver.support.ui import Select

        picker = Select(css(browser, ".game-picker"))
        assert all(option.text.endswith("(illegal)") for option in picker.options)
        picker.select_by_index(1)
        assert css(browser, ".game-verdict").text == f"Illegal: {summary}"


def test_a_corpus_page_marks_its_illegal_documents(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    legal = load_record(RECORDS / "schotten-totten" / "public-2024.json")
    wrong_path = ILLEGAL / "schotten-totten" / "illegal-wrong-result.json"
    wrong = dataclasses.replace(load_record(wrong_path), where="corpus.jsonl:2")
    open_page(browser, tmp_path, [legal, wrong])
    assert css(browser, ".verdict-head").text == (
        "1 of these 2 documents are illegal: the referee refuses them."
    )
    assert [p.text for p in css_all(browser, ".verdict-line")] == [validate(wrong).summary()]
    picker = Select(css(browser, ".game-picker"))
    assert "illegal" not in picker.options[0].text
    assert picker.options[1].text == "game 2 (illegal)"
    assert css(browser, ".game-verdict").text == ""
    picker.select_by_index(1)
    assert css(browser, ".game-verdict").text.startswith("Illegal: corpus.jsonl:2: result mismatch")


def test_a_legal_page_has_no_verdict(browser: Any, tmp_path: Path) -> None:
    match = loads_document(
        (RECORDS / "schotten-totten-2" / "match-rache.json").read_bytes(), "match-rache.json"
    )
    open_page(browser, tmp_path, match)
    assert css_all(browser, ".verdict") == []
    assert css(browser, ".game-verdict").text == ""
    assert not browser.title.endswith("(illegal)")
    assert (
        json.loads(
            browser.execute_script(
                "return document.querySelector('script.replay-data').textContent"
            )
        )["refusals"]
        == []
    )
