"""SVG pictures of positions: well-formed, one group per stone/tile/seat, the right cards."""

from __future__ import annotations

import html
import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.cli import main
from referee.svg import register_renderer, render_svg

ROOT = Path(__file__).resolve().parents[1]
NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(picture: str) -> ET.Element:
    assert picture.startswith("<svg")
    return ET.fromstring(picture)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{NS['svg']}}}g") if cls in g.get("class", "").split()]


def cards_in(element: ET.Element) -> list[str]:
    return [
        g.get("data-card", "")
        for g in element.iter(f"{{{NS['svg']}}}g")
        if "card" in g.get("class", "").split()
    ]


def docs_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_schotten_totten_nine_stones_and_the_cards_in_play_order() -> None:
    game = st.new_game(seed=2024)
    reply = game.hands[1][0]  # type: ignore[index]
    game = game.play("R8@5").play("draw").play(f"{reply}@5").play("draw").play("R9@5")
    root = parse(render_svg(game))
    stones = groups(root, "stone")
    assert [s.get("data-stone") for s in stones] == [str(n) for n in range(1, 10)]
    five = stones[4]
    assert cards_in(five) == ["R8", "R9", str(reply)]
    assert all(cards_in(s) == [] for i, s in enumerate(stones) if i != 4)


def test_schotten_totten_claimed_stone_style_and_first_marker() -> None:
    hooks = docs_hooks()
    root = parse(hooks.picture("schotten-totten/claim-2024.svg"))
    nine = groups(root, "stone")[8]
    assert "claimed" in nine.get("class", "") and nine.get("data-owner") == "1"
    assert cards_in(nine) == ["G7", "P4", "B3", "G5", "R5", "B5"]
    assert [g.get("data-player") for g in groups(nine, "first-complete")] == ["0"]
    muddy = parse(hooks.picture("schotten-totten/mud-fight.svg"))
    styles = {s.get("data-stone"): s.get("data-style") for s in groups(muddy, "stone")}
    assert styles["6"] == "mud_fight" and styles["3"] == "blind_mans_bluff"
    assert "joker" in cards_in(groups(muddy, "stone")[4])
    assert cards_in(groups(muddy, "discards")[0]) == ["banshee", "B9"]


def test_schotten_totten_2_seven_tiles_attacker_above() -> None:
    root = parse(docs_hooks().picture("schotten-totten-2/wall.svg"))
    tiles = groups(root, "tile")
    assert [t.get("data-tile") for t in tiles] == [str(n) for n in range(1, 8)]
    assert "damaged" in tiles[0].get("class", "") and "intact" in tiles[1].get("class", "")
    assert cards_in(tiles[1]) == ["G7", "G8", "G9", "G10", "B3", "B4"]
    assert groups(root, "oil")[0].get("data-left") == "2"
    game = st2.new_game(seed=3)
    game = game.play(game.legal_moves()[-1])
    assert len(groups(parse(render_svg(game)), "tile")) == 7


def test_clans_and_glory_one_group_per_seat_and_shield_stacks() -> None:
    game = cg.new_game(players=3, seed=2)
    for move in cg.random_playout(2, players=3)[:10]:
        game = game.play(move)
    root = parse(render_svg(game))
    seats = groups(root, "seat")
    assert [s.get("data-seat") for s in seats] == [str(s) for s in game.layout.seats]
    for seat, placed in zip(seats, game.table, strict=True):
        expected = [] if placed is None else [str(placed.card)]
        assert cards_in(seat) == expected
    stacks = groups(root, "shields")
    assert len(stacks) == game.layout.tableaus
    assert [s.get("data-stack") for s in stacks] == [
        " ".join(map(str, stack)) for stack in game.shields
    ]


def test_clans_and_glory_face_down_cards_hidden_in_a_view() -> None:
    hooks = docs_hooks()
    root = parse(hooks.picture("clans-and-glory/54-points.svg"))
    assert "54 points" in ET.tostring(root, encoding="unicode")
    game = cg.new_game(players=2, seed=1)
    seat = next(s for s in game.free_seats())
    state = cg.State(
        num_players=2,
        layout=game.layout,
        deal=game.deal,
        removed=game.removed,
        table=tuple(
            cg.Placed(game.hands[0][0], 0, face_up=False) if s == seat else p
            for s, p in zip(game.layout.seats, game.table, strict=True)
        ),
        hands=(game.hands[0][1:], game.hands[1]),
        shields=game.shields,
        to_move=1,
    )
    own = groups(parse(render_svg(state, show_hands=False)), "face-down")
    assert [g.get("data-card") for g in own] == [str(game.hands[0][0])]
    view = parse(render_svg(state.view(1)))
    hidden = [g for seat in groups(view, "seat") for g in groups(seat, "face-down")]
    assert len(hidden) == 1 and hidden[0].get("data-card") is None
    # In player 2's view, player 1's hand is card backs and player 2's is face up.
    first, second = groups(view, "hand")
    assert "hidden" in first.get("class", "") and set(cards_in(first)) == {""}
    assert cards_in(second) == [str(card) for card in state.hands[1]]


def test_every_documentation_picture_is_well_formed() -> None:
    hooks = docs_hooks()
    for name in hooks.PICTURES:
        root = parse(hooks.picture(name))
        assert root.find("svg:title", NS) is not None, name


def test_register_renderer_and_unknown_states_refused() -> None:
    class Marked:
        pass

    register_renderer(Marked, lambda state: "<svg/>")
    assert render_svg(Marked()) == "<svg/>"
    with pytest.raises(TypeError, match="no SVG picture for a int"):
        render_svg(7)


def test_show_svg_prints_the_picture(capsys: pytest.CaptureFixture[str]) -> None:
    position = ROOT / "examples" / "positions" / "blue-seven.json"
    assert main(["show", "--svg", str(position)]) == 0
    out = capsys.readouterr().out
    root = parse(out)
    assert cards_in(groups(root, "stone")[1]) == ["R6", "O6", "Y6", "B8", "B9"]
    record = ROOT / "examples" / "records" / "schotten-totten" / "full-2024.json"
    assert main(["show", "--svg", "--ply", "1", str(record)]) == 0
    root = parse(capsys.readouterr().out)
    assert sum(len(cards_in(stone)) for stone in groups(root, "stone")) == 1
    assert [len(cards_in(hand)) for hand in groups(root, "hand")] == [5, 6]


# --- options, text sizes, notebooks ----------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def font_sizes(root: ET.Element) -> list[float]:
    return [float(t.get("font-size", "0")) for t in root.iter(f"{SVG}text")]


def sample_states() -> list[object]:
    from referee.records import load_record, replay

    states: list[object] = [PICTURE() for PICTURE in docs_hooks().PICTURES.values()]
    for name, plies in [
        ("schotten-totten/full-2024-tactics.json", (20, 60, 118)),
        ("schotten-totten/public-2024.json", (30,)),
        ("schotten-totten-2/full-tactics.json", (40, 122)),
        ("clans-and-glory/full-4-players.json", (12, 28)),
    ]:
        record = load_record(ROOT / "examples" / "records" / name)
        states.extend(replay(record, ply) for ply in plies)
    return states


def test_every_text_is_at_least_ten_pixels_at_the_default_size() -> None:
    for state in sample_states():
        for options in ({}, {"claims": True, "last_move": "R7@3", "highlight": [3]}):
            root = parse(render_svg(state, **options))  # type: ignore[arg-type]
            sizes = font_sizes(root)
            assert sizes and min(sizes) >= 10, (root.find(f"{SVG}title"), min(sizes))
            # The default size is the drawing's own: no scaling shrinks the text.
            assert root.get("width") == root.get("viewBox", "").split()[2]


def test_size_scales_the_picture_and_keeps_its_drawing() -> None:
    game = st.new_game(seed=3)
    small, big = parse(render_svg(game, size=300)), parse(render_svg(game))
    assert small.get("width") == "300" and small.get("viewBox") == big.get("viewBox")
    width, height = (float(big.get(k, "0")) for k in ("width", "height"))
    assert float(small.get("height", "0")) == pytest.approx(height * 300 / width, abs=0.1)


def test_last_move_highlight_and_perspective() -> None:
    game = st.new_game(seed=2024).play("R8@5").play("draw")
    root = parse(render_svg(game, last_move="R8@5", highlight=[2, 9]))
    rings = groups(root, "last-move")
    assert len(rings) == 1 and "stone 5" in (rings[0].findtext(f"{SVG}title") or "")
    assert "last move: R8@5" in ET.tostring(root, encoding="unicode")
    assert [(h.findtext(f"{SVG}title")) for h in groups(root, "highlight")] == [
        "stone 2",
        "stone 9",
    ]

    def card_and_stone_y(picture: str) -> tuple[float, float]:
        five = groups(parse(picture), "stone")[4]
        card = groups(five, "card")[0]
        placed = next(g for g in card.iter(f"{SVG}g") if g.get("transform"))
        card_y = float(placed.get("transform", "").split(",")[1].rstrip(")"))
        stone = next(r for r in five.findall(f"{SVG}rect") if r.get("rx") == "14")
        return card_y, float(stone.get("y", "0"))

    # Player 1's card is above the stone by default, below it from player 1's side.
    card_y, stone_y = card_and_stone_y(render_svg(game))
    assert card_y < stone_y
    card_y, stone_y = card_and_stone_y(render_svg(game, perspective=0))
    assert card_y > stone_y


def test_hands_shown_hidden_and_chosen() -> None:
    game = st.new_game(seed=5)
    every = groups(parse(render_svg(game)), "hand")
    assert [h.get("data-player") for h in every] == ["0", "1"]
    assert [cards_in(h) for h in every] == [[str(c) for c in hand] for hand in game.hands]  # type: ignore[union-attr]
    assert groups(parse(render_svg(game, show_hands=False)), "hand") == []
    assert [
        h.get("data-player") for h in groups(parse(render_svg(game, show_hands=[1])), "hand")
    ] == ["1"]
    view = groups(parse(render_svg(game.view(0))), "hand")
    assert "hidden" in view[1].get("class", "") and set(cards_in(view[1])) == {""}
    assert len(cards_in(view[1])) == game.hand_sizes[1]


def test_claims_marks_each_complete_formation_with_the_provers_verdict() -> None:
    state = docs_hooks().PICTURES["schotten-totten/mid-game.svg"]()
    root = parse(render_svg(state, claims=True))
    from referee.records import find_game

    answers = [
        a for a in find_game("schotten-totten").claimability(state) if a.claimable is not None
    ]
    badges = groups(root, "verdict")
    assert len(badges) == len(answers) and any(a.claimable for a in answers)
    for badge, answer in zip(badges, answers, strict=True):
        assert badge.get("data-place") == str(answer.place)
        words = badge.get("data-explanation") or ""
        assert ("not-claimable" in badge.get("class", "")) is not answer.claimable
        assert badge.findtext(f"{SVG}title") == words
        # Plain words, not codes: no underscores, the sums said to be sums.
        assert "_" not in words and "(24)" not in words
        who = "can claim" if answer.claimable else "cannot claim"
        assert words.startswith(f"player {answer.player + 1} {who} {answer.label}"), words
        best = answer.evidence.get("opponent_best") or {}
        if best.get("added"):  # the opponent's best hope names its cards
            assert " ".join(best["added"]) in words
        odds = answer.evidence["odds"]
        if answer.claimable or answer.evidence.get("opponent_complete"):
            assert "Odds" not in words  # nothing left to complete, or proven
        else:  # how many completions would beat it
            assert f"Odds: {odds['beating']:,} of the {odds['total']:,} ways" in words
    assert groups(parse(render_svg(state)), "verdict") == []


def test_states_and_records_show_themselves_in_notebooks() -> None:
    from referee.records import load_record

    for state in (st.new_game(seed=1), st2.new_game(seed=1), cg.new_game(players=3, seed=1)):
        assert state._repr_svg_() == render_svg(state)
    view = cg.new_game(players=2, seed=1).view(0)
    assert view._repr_svg_().startswith("<svg")
    record = load_record(ROOT / "examples" / "records" / "schotten-totten" / "public-2024.json")
    html = record._repr_html_()
    assert html.startswith("<style>") and 'class="referee-replay"' in html
    assert "<html" not in html


def test_docs_pages_get_pictures_inline_claim_lists_and_replay_links() -> None:
    hooks = docs_hooks()

    class Page:
        class file:  # the shape of an mkdocs page's file
            src_uri = "replay.md"

    text = (
        "![A position](images/schotten-totten/mid-game.svg)\n\n"
        "<!-- claims: schotten-totten/mid-game.svg -->\n\n<!-- replays -->\n"
    )
    out = hooks.on_page_markdown(text, Page(), None, None)
    assert "<img" not in out and "](images/" not in out
    inline = out.split('<div class="referee-picture"', 1)[1].split("</div>", 1)[0]
    assert '<g class="verdict claimable"' in inline and "\n\n" not in inline
    # The claim list says what the picture's tooltips say, in words.
    assert "- player 1 can claim stone 8: player 1's colour totalling 12 cannot be beaten" in out
    tips = re.findall(r'data-explanation="([^"]*)"', inline)
    listed = [line[2:] for line in out.splitlines() if line.startswith("- ")]
    assert [html.unescape(t) for t in tips] == listed
    records = sorted(
        [
            *(ROOT / "examples" / "records").glob("*/*.json"),
            *(ROOT / "examples" / "illegal-records").glob("*/*.json"),
        ]
    )
    links = [line for line in out.splitlines() if "[step through](" in line]
    assert len(links) == len(records) == len(hooks.example_replays())
    assert "(replays/schotten-totten/full-2024-tactics.html)" in out
