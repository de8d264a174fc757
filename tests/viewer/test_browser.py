"""The replay page in a real browser, on every game: names, turns, the card
just placed, deep links, the prover's verdicts, missed claims, hands, export."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.analysis import analyze
from referee.cli import main
from referee.records import Match, Record, find_game, load_record, replay
from referee.replay import replay_data, replay_html
from tests.viewer.pages import (
    GAMES,
    ILLEGAL,
    MATCHES,
    RECORDS,
    board_text,
    counter,
    css,
    css_all,
    load,
    open_html,
    press,
    script_errors,
)

NAMES = ("Ada Lovelace", "Brunhilde", "Chiara")


def named(record: Record) -> Record:
    players = find_game(record.game).start(record).num_players
    return dataclasses.replace(record, players=NAMES[:players])


def first_card_play(record: Record) -> int:
    """The first move that puts a card on the table (its number, from 1)."""
    return next(
        k
        for k, move in enumerate(record.moves, start=1)
        if "@" in move and " " not in move and not move.startswith("?")
    )


@pytest.mark.parametrize("name", GAMES)
def test_names_turns_and_the_card_just_placed_on_every_game(
    desktop: Any, tmp_path: Path, name: str
) -> None:
    record = load(name)
    assert isinstance(record, Record)
    record = dataclasses.replace(named(record), where=str(RECORDS / name))
    game = replay_data(record)["games"][0]
    players = list(record.players)
    open_html(desktop, tmp_path, replay_html(record))
    assert counter(desktop) == 0
    # Who plays and who is winning: names in the result, the score strip, the
    # picture and the move list; the result in words, not codes.
    outcome = analyze(record).outcome
    assert outcome is not None and outcome.winner is not None
    result = css(desktop, ".result").text
    assert f"{players[outcome.winner]} wins: " in result and "_" not in result
    strip = [s.text for s in css_all(desktop, ".score-strip .score")]
    assert [s.split(":")[0] for s in strip] == players
    assert css(desktop, ".score-strip .to-move").text.startswith(players[game["movers"][0]])
    assert all(p[:8] in board_text(desktop) for p in players)
    header = [th.text for th in css_all(desktop, "table.moves th")][1:]
    assert header == [players[(game["first"] + c) % len(players)] for c in range(len(players))]
    # The move list pairs the turns as chess pairs white and black: round 1
    # holds each player's first turn.
    turns = game["turns"]
    first_row = css_all(desktop, "table.moves tr")[1]
    cells = first_row.find_elements("css selector", "td.turn")
    for cell, turn in zip(cells, turns, strict=False):
        moves = [s.text for s in cell.find_elements("css selector", ".move")]
        assert moves == list(record.moves[turn[1] - 1 : turn[2]])
    spans = css_all(desktop, "table.moves .move")
    assert len(spans) == len(record.moves)
    assert players[game["movers"][0]] in (spans[0].get_attribute("title") or "")
    # Stepping by turn stops where each turn ends; by move one ply at a time.
    press(desktop, "ARROW_DOWN")
    assert counter(desktop) == turns[0][2]
    press(desktop, "ARROW_DOWN")
    assert counter(desktop) == turns[1][2]
    press(desktop, "ARROW_UP")
    assert counter(desktop) == turns[0][2]
    css(desktop, ".next-turn").click()
    assert counter(desktop) == turns[1][2]
    css(desktop, ".first").click()
    # The card just placed is framed on the picture, and the move told in words.
    placed = first_card_play(record)
    press(desktop, "ARROW_RIGHT", placed)
    assert counter(desktop) == placed
    card = record.moves[placed - 1].split("@")[0]
    marks = css_all(desktop, ".board g.card-mark.placed")
    assert [m.get_attribute("data-card") for m in marks] == [card]
    mover = players[game["movers"][placed - 1]]
    said = css(desktop, ".happened").text
    assert f"{mover} plays {card}" in said or f"{mover} places {card}" in said
    assert f"{mover[:8]}" in board_text(desktop)
    # The current move is marked in the list; the address names the ply.
    current = css_all(desktop, "table.moves .move.current")
    assert [c.text for c in current] == [record.moves[placed - 1]]
    assert desktop.execute_script("return location.hash") == f"#ply={placed}"
    assert script_errors(desktop) == []


def test_the_command_writes_a_page_that_opens_where_its_link_says(
    desktop: Any, tmp_path: Path
) -> None:
    path = RECORDS / "schotten-totten" / "full-2024.json"
    page = tmp_path / "game.html"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path), "-o", str(page)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    desktop.get(page.as_uri() + "#ply=48")
    assert counter(desktop) == 48
    assert css(desktop, ".slider").get_attribute("value") == "48"
    # The address follows the steps, and a link opens a new page where it says.
    press(desktop, "ARROW_LEFT", 2)
    assert desktop.execute_script("return location.hash") == "#ply=46"
    desktop.get(page.as_uri() + "#ply=20")
    assert counter(desktop) == 20
    desktop.execute_script("location.hash = '#ply=7'")
    assert counter(desktop) == 7


@pytest.mark.parametrize("name", MATCHES)
def test_a_match_shows_its_score_and_winner(desktop: Any, tmp_path: Path, name: str) -> None:
    from selenium.webdriver.support.ui import Select

    match = load(name)
    assert isinstance(match, Match) and match.result is not None
    players = list(match.players)
    open_html(desktop, tmp_path, replay_html(match), hash="game=2&ply=10")
    picker = Select(css(desktop, ".game-picker"))
    assert picker.first_selected_option.get_attribute("value") == "1" and counter(desktop) == 10
    line = css(desktop, ".match-line").text
    scores = match.result["scores"]
    score = f"{players[0]} {scores[0]} – {scores[1]} {players[1]}"
    winner = match.result["winner"]
    if winner is None:
        assert f"no winner, {score}: level: a further game is needed" in line
    else:
        assert f"{players[winner]} wins the match, {score}" in line
    assert f"game 2 of {len(match.games)}" in line
    options = [o.text for o in picker.options]
    assert len(options) == len(match.games)
    if match.game == "schotten-totten":  # Clanfehde keeps a running score
        assert options[-1].endswith(
            f"after game 3: {players[0]} {scores[0]}, {players[1]} {scores[1]}"
        )
    picker.select_by_index(0)
    assert counter(desktop) == 0
    assert desktop.execute_script("return location.hash") in ("", "#game=1&ply=0")
    press(desktop, "ARROW_RIGHT")
    assert desktop.execute_script("return location.hash") == "#game=1&ply=1"


def test_verdicts_in_words_and_no_marks_once_the_game_is_over(desktop: Any, tmp_path: Path) -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024.json")
    analysis = analyze(record)
    ply, answer = next(
        (k, a) for k, answers in enumerate(analysis.answers) for a in answers if a.claimable
    )
    open_html(desktop, tmp_path, replay_html(record, ply=ply))
    assert counter(desktop) == ply
    claims = [li.text for li in css_all(desktop, "ul.claims li.claimable")]
    who = replay_data(record)["games"][0]["players"][answer.player]
    said = f"{who} can claim {answer.label}:"
    assert any(text.startswith(said) for text in claims), claims
    assert all("_" not in text for text in claims)
    badge = css(desktop, f'.board g.verdict.claimable[data-place="{answer.place}"]')
    desktop.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", badge
    )
    assert css(desktop, ".evidence").text in claims
    # Odds only while the opponent's side is open: a refused claim shows them.
    refused = [li.text for li in css_all(desktop, "ul.claims li.not-claimable")]
    assert all("Odds:" in text for text in refused if "still make" in text)
    assert all("Odds:" not in text for text in claims)
    press(desktop, "END")
    assert css_all(desktop, ".board g.verdict") == []
    assert css(desktop, "ul.claims").text == "the game is over: no claims left to make"


def test_a_refused_move_ends_the_game_and_keeps_the_claims(desktop: Any, tmp_path: Path) -> None:
    record = load_record(ILLEGAL / "schotten-totten" / "illegal-claim-not-proven.json")
    open_html(desktop, tmp_path, replay_html(record))
    press(desktop, "END")
    assert css(desktop, ".ply-counter").text == "ply 24 refused"
    current = css(desktop, "table.moves .move.current")
    assert "refused" in current.get_attribute("class") and current.text.startswith("claim 4")
    refusal = css(desktop, ".refusal").text
    assert "claim not proven" in refusal and "Refused at ply 24" in refusal
    assert css_all(desktop, ".board g.highlight")
    # The stone is complete: its verdict stays in the claims panel.
    claims = [li.text for li in css_all(desktop, "ul.claims li")]
    assert any("stone 4" in text and "cannot claim" in text for text in claims), claims
    press(desktop, "ARROW_LEFT")
    assert css(desktop, ".ply-counter").text.startswith("ply 23 / 23")
    assert css(desktop, ".refusal").text == ""


def test_missed_claims_jump_and_the_graph(desktop: Any, tmp_path: Path) -> None:
    moves = ["R9@1", "draw", "O1@2", "draw", "R8@1", "draw", "O2@2", "draw", "R7@1", "draw"]
    moves += ["B1@3", "draw", "O3@2", "draw", "B2@3", "draw", "Y1@4", "claim 1", "draw"]
    record = Record("schotten-totten", tuple(moves))
    analysis = analyze(record)
    assert [(m.ply, m.turns, m.claimed_at) for m in analysis.missed] == [(9, 2, 18)]
    open_html(desktop, tmp_path, replay_html(record))
    css(desktop, ".next-missed").click()
    assert counter(desktop) == 9
    assert "could claim stone 1 from ply 9 and let 2 turns pass" in css(desktop, ".missed").text
    assert css_all(desktop, ".board g.highlight")
    flagged = css_all(desktop, "table.moves .move.missed-claim")
    assert [f.get_attribute("data-ply") for f in flagged] == ["10"]
    press(desktop, "END")
    css(desktop, ".prev-missed").click()
    assert counter(desktop) == 9
    lines = css_all(desktop, ".graph polyline.series")
    assert len(lines) == 2 and len(css_all(desktop, ".graph .missed-mark")) == 1
    points = lines[0].get_attribute("points").split()
    assert len(points) == len(moves) + 1 and points[-1].endswith(points[9].split(",")[1])


def test_hands_turn_face_down_and_public_hands_are_card_backs(desktop: Any, tmp_path: Path) -> None:
    record = load_record(RECORDS / "schotten-totten" / "full-2024-tactics.json")
    open_html(desktop, tmp_path, replay_html(record, ply=30))
    hands = css_all(desktop, ".board g.hand")
    assert [h.get_attribute("data-player") for h in hands] == ["0", "1"]
    assert not css(desktop, '.board g.hand-backs[data-player="0"]').is_displayed()
    toggle = css(desktop, '.hand-toggle input[data-player="0"]')
    toggle.click()
    # Face down, not gone: the row of backs replaces the faces, the row stays.
    backs = css(desktop, '.board g.hand-backs[data-player="0"]')
    assert backs.is_displayed()
    faces = css_all(desktop, '.board g.hand[data-player="0"] g.card')
    assert faces and not any(card.is_displayed() for card in faces)
    state = replay(record, 30)
    hand = state.hands[0]
    assert hand is not None
    assert len(backs.find_elements("css selector", "use")) == len(hand)
    press(desktop, "ARROW_RIGHT")  # the check box does not keep the keys
    assert counter(desktop) == 31
    assert css(desktop, '.board g.hand-backs[data-player="0"]').is_displayed()
    toggle.click()
    assert not css(desktop, '.board g.hand-backs[data-player="0"]').is_displayed()
    # A public record has no hands to show: card backs, tactic backs told apart.
    public = load_record(RECORDS / "schotten-totten" / "public-2024-tactics.json")
    open_html(desktop, tmp_path, replay_html(public, ply=40))
    assert css_all(desktop, ".hand-toggle") == []
    assert "hands are not known" in css(desktop, ".hand-toggles").text
    seen = replay(public, 40)
    for player in (0, 1):
        hand_cards = css_all(desktop, f'.board g.hand[data-player="{player}"] g.card')
        assert hand_cards and all("face-down" in c.get_attribute("class") for c in hand_cards)
        tactic = [c for c in hand_cards if "tactic" in c.get_attribute("class").split()]
        assert len(tactic) == seen.tactics_in_hand(player)


def test_the_board_turns_around(desktop: Any, tmp_path: Path) -> None:
    record = load_record(RECORDS / "schotten-totten-2" / "full-tactics.json")
    open_html(desktop, tmp_path, replay_html(record, ply=52))  # after a treason

    attacker = replay(record, 52).attacker

    def tops() -> list[float]:
        return [
            float(
                desktop.execute_script(
                    "return arguments[0].getBoundingClientRect().top",
                    css(desktop, f'.board g.hand[data-player="{player}"]'),
                )
            )
            for player in (attacker, 1 - attacker)
        ]

    above, below = tops()
    tile = css(desktop, '.board g.tile[data-tile="1"]').rect["y"]
    assert above < tile < below  # the attacker above the wall
    css(desktop, ".flip").click()
    flipped = tops()
    assert flipped[0] > tile > flipped[1]
    assert css(desktop, ".board g.move-arrow.flip-only").is_displayed()
    css(desktop, ".flip").click()
    assert tops() == [above, below]
    # Clans and Glory's table does not turn: no button.
    open_html(desktop, tmp_path, replay_html(load("clans-and-glory/full-2-players.json")))
    assert not css(desktop, ".flip").is_displayed()
    assert not css(desktop, ".claims-panel").is_displayed()
    assert not css(desktop, ".missed-panel").is_displayed()


def test_export_the_position_and_the_claimable_command(
    desktop: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = RECORDS / "schotten-totten-2" / "match-rache.json"
    match = load("schotten-totten-2/match-rache.json")
    assert isinstance(match, Match)
    open_html(desktop, tmp_path, replay_html(match), hash="game=2&ply=33")
    css(desktop, ".copy-position").click()
    shown = json.loads(css(desktop, ".export-text").get_attribute("value"))
    fmt = find_game("schotten-totten-2")
    assert shown == fmt.position_of(replay(match.games[1], 33)).to_json()
    css(desktop, ".copy-command").click()
    command = css(desktop, ".export-text").get_attribute("value")
    assert command == f"referee claimable {path} --round 2 --ply 33"
    assert main([*shlex.split(command)[1:], "--json"]) == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    assert len(answers) == len(fmt.claimability(replay(match.games[1], 33)))
    press(desktop, "ARROW_RIGHT")  # the text follows the position
    assert css(desktop, ".export-text").get_attribute("value").endswith("--ply 34")
    css(desktop, ".copy-link").click()
    assert css(desktop, ".export-text").get_attribute("value").endswith("#game=2&ply=34")
