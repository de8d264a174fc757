"""MkDocs hook: draw the documentation's pictures with :mod:`referee.svg` at build time.

It also holds :class:`DocstringMarkdown`, the griffe extension that lets the API
reference show the library's reStructuredText-flavoured docstrings as Markdown.

Every picture on the site is a position built here from the library's public
API and drawn by :func:`referee.svg.render_svg` while the site is built. The
pages refer to them as ``images/<name>.svg``; the files exist only in the built
site, so a picture can never fall behind the code that draws it. Each such
image in a page is replaced by the SVG itself, inline, so its tooltips work.
``tests/test_svg.py`` draws each of them too.

A replay page (:mod:`referee.replay`) of every bundled example record is
written as ``replays/<game>/<name>.html``; the marker ``<!-- replays -->``
in a page becomes the list of links to them, and ``<!-- claims: NAME -->``
the prover's answers on the picture ``NAME``. When a Chromium is installed,
one position of a replay page is photographed as ``replays/screenshot.png``
and the marker ``<!-- replay-screenshot -->`` shows it (else says why not;
``REFEREE_DOCS_NO_SCREENSHOT=1`` skips it, for quick rebuilds).

The site works offline: no web fonts (``theme.font: false``), and
:func:`on_post_build` refuses (a warning, so ``--strict`` fails) a built page
that would load a style sheet, a script or a font from the network.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from referee.cards import Card
from referee.clans_and_glory import Placed, Seat, default_layout, setup_for
from referee.clans_and_glory import State as ClansAndGloryState
from referee.records import Match, Record, find_game, iter_records, parse_position, replay
from referee.replay import replay_html
from referee.svg import render_svg

__all__ = [
    "PICTURES",
    "PICTURE_OPTIONS",
    "DocstringMarkdown",
    "docstring_markdown",
    "example_replays",
    "external_resources",
    "on_files",
    "on_page_markdown",
    "on_post_build",
    "picture",
    "screenshot",
]

_ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("mkdocs.hooks.referee")

#: A Schotten Totten stone as ``(player 1's cards, player 2's cards, extra fields)``.
_StoneSpec = tuple[str, str, Mapping[str, Any]]


def _schotten_totten(
    stones: Mapping[int, _StoneSpec], rules: Mapping[str, Any] | None = None, **extra: Any
) -> object:
    """A Schotten Totten position from its stones (numbered 1-9), through the
    position format of :mod:`referee.records`."""
    rows: list[dict[str, Any]] = [{"sides": [[], []]} for _ in range(9)]
    for number, (mine, theirs, fields) in stones.items():
        rows[number - 1] = {"sides": [mine.split(), theirs.split()], **fields}
    data = {"game": "schotten-totten", "rules": rules or {}, "stones": rows, **extra}
    return find_game("schotten-totten").load_position(parse_position(data, "docs"))


def _position_file(path: str) -> Callable[[], object]:
    def load() -> object:
        data = json.loads((_ROOT / path).read_text(encoding="utf-8"))
        position = parse_position(data, path)
        return find_game(position.game).load_position(position)

    return load


def _schotten_totten_2() -> object:
    """An invented siege position: tile 1 already damaged, the gate under pressure."""
    tiles: list[dict[str, Any]] = [{"sides": [[], []]} for _ in range(7)]
    tiles[0] = {"damaged": True, "sides": [["R2"], []]}
    tiles[1] = {"sides": [["G7", "G8", "G9", "G10"], ["B3", "B4"]], "first": 0}
    tiles[2] = {"sides": [[], ["P8", "P9", "P10"]]}
    tiles[3] = {"sides": [["Y11", "P11"], ["R1"]], "first": 0}
    tiles[4] = {"sides": [[], ["Y5", "Y6"]]}
    tiles[6] = {"sides": [["B0", "Y1"], ["P5", "G6", "R7"]], "first": 1}
    data = {
        "game": "schotten-totten-2",
        "tiles": tiles,
        "attacker": 0,
        "to_move": 1,
        "oil": 2,
        # the control that damaged tile 1, then a cauldron of oil (the R9)
        "discards": ["B6", "B7", "B8", "Y4", "R9"],
    }
    return find_game("schotten-totten-2").load_position(parse_position(data, "docs"))


def _clans_and_glory_54_points() -> ClansAndGloryState:
    """The scoring example of the rulebook (8+8+7+7+7+6+6+5 = 54) laid out on a
    3-player table, as on the Clans and Glory page."""
    cards = {
        "t1s1": "R5", "t1s2": "G6", "t1s3": "B6",
        "t2s1": "R7", "t2s4": "G7", "t2s6": "Y7",
        "t3s1": "R3", "t3s5": "R8", "t3s6": "G8",
    }  # fmt: skip
    layout = default_layout(3)
    table: list[Placed | None] = [None] * len(layout.seats)
    for seat, text in cards.items():
        table[layout.index(Seat.parse(seat))] = Placed(Card.parse(text))
    stacks: dict[int, Sequence[int]] = {1: (0, 0), 2: (0,), 3: (1, 0)}
    return ClansAndGloryState(
        num_players=3,
        layout=layout,
        deal=setup_for(3).deck(),
        removed=(),
        table=tuple(table),
        hands=((), (), ()),
        shields=tuple(tuple(stacks.get(t, ())) for t in range(1, layout.tableaus + 1)),
    )


def _mid_game() -> object:
    """Ply 48 of the bundled 2024 game: player 2's Y7 at stone 8 leaves player 1's
    colour there unbeatable, while player 1's stone 7 can still be beaten."""
    record = _bundled("schotten-totten/full-2024.json")
    return replay(record, 48)


def _bundled(name: str) -> Any:
    items = list(iter_records(_ROOT / "examples" / "records" / name))
    return items[0]


def _readme_game() -> object:
    from referee import schotten_totten as st

    return st.new_game(seed=2024).play("R8@5").play("draw")


#: Every picture of the site: its path under ``images/`` and how to set up its position.
PICTURES: dict[str, Callable[[], object]] = {
    "schotten-totten/first-move.svg": _readme_game,
    "schotten-totten/mid-game.svg": _mid_game,
    "schotten-totten/claim-2024.svg": lambda: _schotten_totten(
        {9: ("G7 P4 B3", "G5 R5 B5", {"first": 0, "owner": 1})}
    ),
    "schotten-totten/thirteen-beats-eleven.svg": lambda: _schotten_totten(
        {4: ("R9 O3 Y1", "G6 B4 P1", {"first": 1, "owner": 0})}, {"edition": "1999"}
    ),
    "schotten-totten/blue-seven-unseen.svg": lambda: _schotten_totten(
        {2: ("R6 O6 Y6", "B8 B9", {}), 5: ("", "P1", {})}, {"edition": "1999"}
    ),
    "schotten-totten/blue-seven.svg": _position_file("examples/positions/blue-seven.json"),
    "schotten-totten/nine-only-ties.svg": lambda: _schotten_totten(
        {6: ("R9 O6 B5", "Y4 G7", {}), 1: ("", "P1", {})}, {"edition": "1999"}
    ),
    "schotten-totten/mud-fight.svg": lambda: _schotten_totten(
        {
            6: ("R1 R2 R3 R4", "B7", {"style": "mud_fight"}),
            3: ("R9 O8 G8", "B1 B2 B3", {"style": "blind_mans_bluff", "first": 1}),
            5: ("joker", "", {}),
            1: ("", "P1 P2", {}),
            2: ("", "P3", {}),
        },
        {"variants": ["tactics"]},
        tactics_played=[2, 2],
        discards=["banshee", "B9"],
    ),
    "schotten-totten-2/wall.svg": _schotten_totten_2,
    "schotten-totten-2/mid-game.svg": lambda: replay(
        _bundled("schotten-totten-2/full-tactics.json"), 97
    ),
    "clans-and-glory/54-points.svg": _clans_and_glory_54_points,
    "clans-and-glory/mid-game.svg": lambda: replay(
        _bundled("clans-and-glory/full-3-players.json"), 13
    ),
}


#: The drawing options of the pictures that use any (the default: none).
PICTURE_OPTIONS: dict[str, dict[str, Any]] = {
    "schotten-totten/first-move.svg": {"last_move": "R8@5", "show_hands": [0]},
    "schotten-totten/mid-game.svg": {"last_move": "Y7@8", "claims": True, "show_hands": False},
    "schotten-totten-2/mid-game.svg": {"last_move": "R10@7", "claims": True, "show_hands": False},
    "clans-and-glory/mid-game.svg": {
        "last_move": "W7@t1s6",
        "show_hands": False,
        "names": ["Ada", "Bruno", "Chiara"],
    },
}


def picture(name: str) -> str:
    """The SVG text of the picture ``name`` (a key of :data:`PICTURES`)."""
    return render_svg(PICTURES[name](), **PICTURE_OPTIONS.get(name, {}))


def example_replays() -> dict[str, Path]:
    """The site path of each bundled example's replay page, and its record file."""
    folders = [_ROOT / "examples" / "records", _ROOT / "examples" / "illegal-records"]
    return {
        f"replays/{path.parent.name}/{path.stem}.html": path
        for path in sorted(p for folder in folders for p in folder.glob("*/*.json"))
    }


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every picture to the site as ``images/<name>``, every example's replay,
    and the photograph of one replay page (when a Chromium is installed)."""
    for name in PICTURES:
        files.append(File.generated(config, f"images/{name}", content=picture(name)))
    for target, path in example_replays().items():
        item = next(iter(iter_records(path)))
        assert isinstance(item, Record | Match), item
        files.append(File.generated(config, target, content=replay_html(item)))
    shot = screenshot()
    _SHOTS.clear()
    if shot is not None:
        files.append(File.generated(config, SCREENSHOT[2], content=shot))
        _SHOTS.append(SCREENSHOT[2])
    return files


#: The position the docs build photographs: a card just placed, with verdicts.
SCREENSHOT = ("schotten-totten/full-2024-tactics.json", 85, "replays/screenshot.png")
#: The photographs this build took (none without a Chromium).
_SHOTS: list[str] = []
_CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
)  # fmt: skip


def screenshot() -> bytes | None:
    """A PNG photograph of the replay page at :data:`SCREENSHOT`'s position, or
    ``None`` (with a note) when no Chromium is installed or it fails."""
    chromium = next(
        (shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None
    )
    if chromium is None or os.environ.get("REFEREE_DOCS_NO_SCREENSHOT"):
        log.info("no chromium: the replay screenshot is skipped")
        return None
    name, ply, _ = SCREENSHOT
    item = _bundled(name)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "replay.html"
        out = Path(folder) / "shot.png"
        page.write_text(replay_html(item, ply=ply), encoding="utf-8")
        try:
            subprocess.run(
                [chromium, *_CHROMIUM_FLAGS, f"--screenshot={out}", "--window-size=1280,900",
                 f"{page.as_uri()}#ply={ply}"],
                capture_output=True, timeout=60, check=True,
            )  # fmt: skip
            return out.read_bytes()
        except (OSError, subprocess.SubprocessError) as error:
            log.info("the replay screenshot failed: %s", error)
            return None


_IMAGE = re.compile(r"^!\[([^\]]*)\]\(((?:\.\./)*)images/([^)]+\.svg)\)$", re.MULTILINE)
_CLAIMS = re.compile(r"^<!-- claims: (\S+) -->$", re.MULTILINE)
_SCREENSHOT_MARK = "<!-- replay-screenshot -->"


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Pictures inline (so their tooltips work), the replay links, the claim lists."""

    def inline(match: re.Match[str]) -> str:
        svg = picture(match.group(3)).strip()
        return f'<div class="referee-picture" role="figure" aria-label="{match.group(1)}">\n{svg}\n</div>'

    def claims(match: re.Match[str]) -> str:
        """The verdicts on the picture, as its tooltips say them."""
        name = match.group(1)
        root = ET.fromstring(picture(name))
        said = [
            g.get("data-explanation", "")
            for g in root.iter("{http://www.w3.org/2000/svg}g")
            if "verdict" in g.get("class", "").split()
        ]
        return "\n".join(f"- {text}" for text in said)

    markdown = _IMAGE.sub(inline, markdown)
    markdown = _CLAIMS.sub(claims, markdown)
    if "<!-- replays -->" in markdown:
        depth = "../" * page.file.src_uri.count("/")
        rows = ["| game | record | replay |", "|---|---|---|"]
        for target, path in example_replays().items():
            rows.append(f"| {path.parent.name} | `{path.name}` | [step through]({depth}{target}) |")
        markdown = markdown.replace("<!-- replays -->", "\n".join(rows))
    if _SCREENSHOT_MARK in markdown:
        depth = "../" * page.file.src_uri.count("/")
        name, ply, target = SCREENSHOT
        shown = (
            f"![The replay page of `{Path(name).name}` at ply {ply}]({depth}{target})"
            if target in _SHOTS
            else "(No screenshot in this build: no Chromium was installed to take it.)"
        )
        markdown = markdown.replace(_SCREENSHOT_MARK, shown)
    return markdown


_EXTERNAL = re.compile(
    r"""<link\b[^>]*\bhref=["']?(?:https?:)?//|<script\b[^>]*\bsrc=["']?(?:https?:)?//"""
    r"""|@import\s+(?:url\()?["']?(?:https?:)?//|url\(["']?(?:https?:)?//[^)]*\.(?:woff2?|ttf|otf|css)""",
    re.IGNORECASE,
)


def external_resources(site: Path) -> list[str]:
    """Every built page or style sheet that would load a resource (a style
    sheet, a script, a font) from the network: the site must work offline."""
    found = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in (".html", ".css") or not path.is_file():
            continue
        for match in _EXTERNAL.finditer(path.read_text(encoding="utf-8", errors="replace")):
            found.append(f"{path.relative_to(site)}: {match.group(0)[:80]}")
    return found


def on_post_build(config: MkDocsConfig) -> None:
    """Check that the built site loads nothing from the network."""
    for problem in external_resources(Path(config.site_dir)):
        log.warning("the site must work offline, but %s", problem)


# --- docstrings for the API reference -------------------------------------------------

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`~?([^`]+)`")
_TABLE_BORDER = re.compile(r"^( *)(=+)( +=+)+ *$")


def docstring_markdown(text: str) -> str:
    r"""Docstring text made readable as Markdown: roles become code, ``::`` a colon,
    bare ``>>>`` examples fenced as ``pycon``, and simple reST tables Markdown tables.

    >>> print(docstring_markdown("See :class:`~referee.cards.Card`::\n\n    x"))
    See `Card`:
    <BLANKLINE>
        x
    >>> docstring_markdown(">>> 1 + 1\n2").splitlines()
    ['```pycon', '>>> 1 + 1', '2', '```']
    """
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = re.sub(r"(\S)::$", r"\1:", text, flags=re.MULTILINE)
    text = re.sub(r"^::$\n?", "", text, flags=re.MULTILINE)
    out: list[str] = []
    in_fence = False  # inside a fenced block the docstring wrote itself
    in_example = False  # inside a pycon block opened here
    for line in _tables(text.split("\n")):
        if in_example:
            if not line.strip():
                out.append("```")
                in_example = False
            out.append(line)
            continue
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and line.startswith(">>>"):
            if out and out[-1].strip():
                out.append("")
            out.append("```pycon")
            in_example = True
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


def _tables(lines: list[str]) -> list[str]:
    """Turn simple reST tables (``====  ====`` borders) into Markdown tables."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        border = _TABLE_BORDER.match(lines[i])
        end = (
            next((j for j in range(i + 2, len(lines)) if lines[j] == lines[i]), None)
            if border
            else None
        )
        if border is None or end is None or i + 2 >= len(lines) or lines[i + 2] != lines[i]:
            out.append(lines[i])
            i += 1
            continue
        spans = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[i])]

        def cells(row: str, spans: list[tuple[int, int]] = spans) -> str:
            parts = []
            for k, (a, _) in enumerate(spans):
                b = spans[k + 1][0] if k + 1 < len(spans) else len(row)
                parts.append(row[a:b].strip().replace("|", "\\|"))
            return "| " + " | ".join(parts) + " |"

        out.append(cells(lines[i + 1]))
        out.append("|" + "---|" * len(spans))
        out.extend(cells(row) for row in lines[i + 3 : end] if row.strip())
        i = end + 1
    return out


class DocstringMarkdown(griffe.Extension):
    """Griffe extension: rewrite every docstring with :func:`docstring_markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring as it is loaded."""
        if obj.docstring is not None:
            obj.docstring.value = docstring_markdown(obj.docstring.value)
