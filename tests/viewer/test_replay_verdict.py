"""The replay page without a browser: the verdict in plain HTML, and data that
cannot end its script element."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.records import Record, load_record, loads_document, validate
from referee.replay import _script_json, replay_data, replay_html

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"
ILLEGAL = ROOT / "examples" / "illegal-records"

DATA_BLOCK = re.compile(r'<script type="application/json" class="replay-data">(.*?)</script>', re.S)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=12,
    )
)
def test_script_json_holds_no_less_than_sign_and_reads_back(value: object) -> None:
    text = _script_json(value)
    assert "<" not in text and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == value


def test_the_data_block_ends_where_the_page_ends_it() -> None:
    base = load_record(RECORDS / "schotten-totten" / "full-2024.json")
    hostile = "<!--<script </script> ]]> \u2028\u2029"
    record = dataclasses.replace(base, players=(hostile, hostile), meta={"note": hostile})
    page = replay_html(record)
    blocks = DATA_BLOCK.findall(page)
    assert len(blocks) == 1 and "<" not in blocks[0]
    assert json.loads(blocks[0])["games"][0]["players"] == [hostile, hostile]
    # Outside the data block, the names appear nowhere unescaped.
    assert page.count("<!--") == 0


@pytest.mark.parametrize(
    "name",
    [
        "schotten-totten/illegal-claim-not-proven.json",
        "schotten-totten/illegal-wrong-result.json",
        "schotten-totten/illegal-match-extra-round.json",
        "schotten-totten-2/illegal-match-roles-not-swapped.json",
        "clans-and-glory/illegal-no-match.json",
    ],
)
def test_an_illegal_page_says_so_in_plain_html_before_the_board(name: str) -> None:
    path = ILLEGAL / name
    item = loads_document(path.read_bytes(), str(path))
    summary = validate(item).summary()
    page = replay_html(item)
    kind = "match" if "illegal-match-" in name else "record"
    banner = (
        '<div class="verdict" role="alert"><p class="verdict-head">'
        f"This {kind} is illegal: the referee refuses it.</p>"
        f'<p class="verdict-line">{summary.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")}</p></div>'
    )
    assert banner in page
    assert page.index(banner) < page.index('<div class="board">')
    assert "(illegal)</title>" in page
    data = replay_data(item)
    assert data["refusals"] == [summary]
    assert {game["verdict"] for game in data["games"]} == {summary}


def test_a_legal_page_has_no_verdict() -> None:
    record = load_record(RECORDS / "schotten-totten" / "public-2024.json")
    page = replay_html(record)
    assert 'class="verdict"' not in page and "(illegal)</title>" not in page
    assert replay_data(record)["refusals"] == []


def test_replay_writes_the_page_of_an_illegal_record_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = ILLEGAL / "schotten-totten" / "illegal-match-extra-round.json"
    line = f"referee: {validate(loads_document(path.read_bytes(), str(path))).summary()}\n"
    out = tmp_path / "page.html"
    assert main(["replay", str(path), "-o", str(out)]) == 1
    assert capsys.readouterr().err == line
    assert 'class="verdict"' in out.read_text(encoding="utf-8")
    assert main(["replay", str(path)]) == 1  # to standard output, the same page
    written, err = capsys.readouterr()
    assert err == line and 'class="verdict"' in written


def test_the_public_records_no_deal_fits_end_at_their_refused_move() -> None:
    record = Record(
        "schotten-totten",
        (
            "R1@1",
            "draw tactic",
            "O1@1",
            "draw clan",
            "recruiter draw clan clan clan return R2 R3",
            "done",
            "R2@2",
        ),
        {"variants": ["tactics"]},
    )
    game = replay_data(record)["games"][0]
    assert game["illegal"]["ply"] == 7 and game["illegal"]["reason"] == "card_never_held"
    assert game["verdict"] == validate(record).summary()
    assert game["frames"][-1]["refused"] is True and len(game["frames"]) == 8
