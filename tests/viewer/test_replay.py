"""The replay page without a browser: its data, its size, the command line."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from referee.analysis import analyze
from referee.cli import main
from referee.records import Record, load_record
from referee.records import replay as replay_to
from referee.replay import MAX_PAGE_GAMES, replay_data, replay_html
from referee.svg import _draw, _Drawing, render_svg

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"


def frame_pieces(data: dict[str, object], game: int = 0) -> list[list[str]]:
    """Each frame's pieces, rebuilt from the diffs the page stores."""
    pieces = data["pieces"]
    rank = data["rank"]
    assert isinstance(pieces, list) and isinstance(rank, list)
    games = data["games"]
    assert isinstance(games, list)
    current: set[int] = set()
    frames = []
    for frame in games[game]["frames"]:
        current = (current - set(frame["out"])) | set(frame["in"])
        frames.append([pieces[i] for i in sorted(current, key=lambda i: rank[i])])
    return frames


def test_frames_rebuilt_from_diffs_are_the_pictures_of_the_positions() -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024-tactics.json")
    data = replay_data(record)
    analysis = analyze(record)
    frames = frame_pieces(data)
    assert len(frames) == len(record.moves) + 1
    symbols: dict[str, str] = {}
    movers = data["games"][0]["movers"]  # type: ignore[index]
    for ply in (0, 1, 37, 80, len(record.moves)):
        last = record.moves[ply - 1] if ply else None
        drawing = _draw(
            replay_to(record, ply),
            last_move=last,
            mover=movers[ply - 1] if ply else None,
            drawn=(movers[ply - 1], (last == "draw tactic",))
            if last and last.startswith("draw")
            else None,
            claims=analysis.answers[ply],
            highlight=[m.place for m in analysis.missed_at(ply)],
            symbols=symbols,
            names=["player 1", "player 2"],
            replay=True,
        )
        assert isinstance(drawing, _Drawing)
        # The same pieces (the page draws them by layer, in the order first seen).
        assert Counter(frames[ply]) == Counter(text for _, text in drawing.pieces), ply
        layers = {text: layer for layer, text in drawing.pieces}
        assert [layers[p] for p in frames[ply]] == sorted(layers[p] for p in frames[ply])
    assert set(symbols.values()) <= set(re.findall(r"<symbol.*?</symbol>", str(data["symbols"])))
    # A picture on its own draws each card in place instead of using a symbol.
    alone = render_svg(replay_to(record, 80))
    assert "<use" not in alone and "<symbol" not in alone


def test_each_card_face_is_drawn_once() -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024-tactics.json")
    page = replay_html(record)
    ids = re.findall(r'<symbol id="([^"]+)"', page)
    assert len(ids) == len(set(ids)) and "rc-R7" in ids
    assert page.count('<symbol id="rc-R7"') == 1


def size_for(record: Record, plies: int) -> int:
    prefix = replace(record, moves=record.moves[:plies], result=None)
    return len(replay_html(prefix).encode())


@pytest.mark.parametrize(
    "name", ["schotten-totten/full-2024-tactics.json", "schotten-totten-2/full-base.json"]
)
def test_page_size_grows_with_the_positions_not_their_square(name: str) -> None:
    record = load_record(RECORDS / name)
    n = len(record.moves)
    empty, half, full = size_for(record, 0), size_for(record, n // 2), size_for(record, n)
    first_half, second_half = half - empty, full - half
    # Quadratic growth would make the second half about three times the first.
    assert second_half < 1.6 * first_half, (first_half, second_half)
    assert (full - empty) / n < 4000  # bytes per move


def test_missed_claims_are_ringed_and_flagged() -> None:
    record = Record(
        game="schotten-totten",
        moves=("R9@1", "draw", "O1@2", "draw", "R8@1", "draw", "O2@2", "draw", "R7@1", "draw"),
    )
    data = replay_data(record)
    game = data["games"][0]
    missed = analyze(record).missed[0]
    assert [(m["ply"], m["end"], m["player"]) for m in game["missed"]] == [(9, 10, 0)]
    assert data["texts"][game["missed"][0]["text"]].startswith(
        f"player 1 could claim stone 1 from ply 9 and let {missed.turns} turn"
    )
    assert game["frames"][9]["missed"] and not game["frames"][8]["missed"]
    rings = [p for p in frame_pieces(data)[9] if 'class="highlight"' in p]
    assert len(rings) == 1 and "stone 1" in rings[0]


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-claim-not-proven.json"
    )
    out = tmp_path / "g.html"
    # An illegal record: the page is written and opens with the verdict; exit 1.
    assert main(["replay", str(record), "--ply", "5", "-o", str(out)]) == 1
    assert "illegal at ply 24 'claim 4' [claim_not_proven]" in capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    payload = re.search(r'<script type="application/json" class="replay-data">(.*?)</script>', page)
    assert payload is not None
    data = json.loads(payload[1])
    assert data["start"] == 5
    game = data["games"][0]
    assert game["illegal"]["move"] == "claim 4" and game["illegal"]["reason"] == "claim_not_proven"
    assert game["frames"][-1]["refused"] is True
    assert len(game["frames"]) == len(game["moves"]) + 2
    assert main(["replay", str(RECORDS / "schotten-totten" / "public-2024.json")]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def _corpus(tmp_path: Path) -> tuple[Path, list[str]]:
    """A JSON Lines corpus of three documents (two records and a match), as
    ``referee match --records`` and corpora are written."""
    paths = [
        RECORDS / "schotten-totten" / "public-2024.json",
        RECORDS / "schotten-totten-2" / "match-rache.json",
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-claim-not-proven.json",
    ]
    lines = [json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in paths]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return corpus, lines


def test_replay_of_a_corpus_picks_among_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus, _ = _corpus(tmp_path)
    out = tmp_path / "corpus.html"
    assert main(["replay", str(corpus), "-o", str(out)]) == 1  # its third document is illegal
    payload = re.search(
        r'<script type="application/json" class="replay-data">(.*?)</script>',
        out.read_text(encoding="utf-8"),
    )
    assert payload is not None
    data = json.loads(payload[1])
    names = [g["name"] for g in data["games"]]
    assert names == ["game 1", "document 2, game 1", "document 2, game 2", "game 3"]
    assert data["title"] == "Schotten Totten and Schotten Totten 2: 3 games from corpus.jsonl"
    assert data["games"][3]["illegal"]["reason"] == "claim_not_proven"
    # --document keeps one document: the page is that document's own, and its
    # commands name the document.
    assert main(["replay", str(corpus), "--document", "3", "-o", str(out)]) == 1
    page = out.read_text(encoding="utf-8")
    assert page.count('"name":"game"') == 1
    assert f'"command":"referee claimable {corpus} --document 3"' in page
    assert main(["replay", str(corpus), "--document", "2", "-o", str(out)]) == 0
    assert f'"command":"referee claimable {corpus} --document 2 --round 2"' in out.read_text(
        encoding="utf-8"
    )
    capsys.readouterr()
    # The old spelling still works, with a note; both at once are refused.
    assert main(["replay", str(corpus), "--game", "2", "-o", str(out)]) == 0
    assert "--game N is deprecated here: write --document N" in capsys.readouterr().err
    assert main(["replay", str(corpus), "--game", "2", "--document", "2"]) == 2
    assert "give --document N alone" in capsys.readouterr().err


def test_replay_of_a_corpus_refuses_what_it_cannot_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus, lines = _corpus(tmp_path)
    assert main(["replay", str(corpus), "--document", "4"]) == 2
    assert "there is no document 4" in capsys.readouterr().err
    assert main(["replay", str(corpus), "--document", "0"]) == 2
    assert "--document: expected a whole number of at least 1, got '0'" in capsys.readouterr().err
    big = tmp_path / "big.jsonl"
    big.write_text((lines[0] + "\n") * (MAX_PAGE_GAMES + 1), encoding="utf-8")
    assert main(["replay", str(big), "-o", str(tmp_path / "x.html")]) == 2
    assert "pick one with --document N" in capsys.readouterr().err
    assert (
        main(
            [
                "replay",
                str(big),
                "--document",
                str(MAX_PAGE_GAMES + 1),
                "-o",
                str(tmp_path / "x.html"),
            ]
        )
        == 0
    )
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    assert main(["replay", str(broken), "-o", str(tmp_path / "x.html")]) == 2
    assert "broken.jsonl:2" in capsys.readouterr().err
    assert main(["replay", str(broken), "--document", "1", "-o", str(tmp_path / "x.html")]) == 0
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main(["replay", str(empty)]) == 2
    assert "empty" in capsys.readouterr().err
    with pytest.raises(ValueError, match="nothing to replay"):
        replay_data([])
