"""A replay page made for one player holds nothing that player did not see.

Two checks, on every bundled full record of every game and for each player:
the page's bytes name no card the player never saw (in its data, pictures,
tooltips or words), and two deals that differ only in cards the player never
saw give the same page, byte for byte.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.records import Match, Record, find_game, iter_records, validate
from referee.replay import replay_html
from tests.viewer.pages import ILLEGAL, RECORDS, mentions


def full_documents() -> list[Record | Match]:
    """Every bundled record or match that holds its deals."""
    found: list[Record | Match] = []
    for path in sorted(RECORDS.rglob("*.json")):
        for item in iter_records(path):
            assert isinstance(item, Record | Match), item
            if not item.is_public:
                found.append(item)
    return found


FULL = full_documents()


def games_of(item: Record | Match) -> tuple[Record, ...]:
    return item.games if isinstance(item, Match) else (item,)


def states_of(record: Record) -> list[Any]:
    state = find_game(record.game).start(record)
    states = [state]
    for move in record.moves:
        state = state.play(move)
        states.append(state)
    return states


def cards_seen(record: Record, viewer: int) -> set[str]:
    """Every card ``viewer`` saw at some point: its own hand, the table, the
    discards, the action cards played."""
    seen: set[str] = set()
    for state in states_of(record):
        view = state.view(viewer)
        if record.game == "clans-and-glory":
            seen |= {str(c) for c in view.hands[viewer]}
            seen |= {str(p.card) for p in view.table if p is not None and p.card is not None}
            continue
        for hand in view.hands:
            seen |= {str(c) for c in hand or ()}
        for place in getattr(view, "stones", None) or view.tiles:
            for side in place.sides:
                seen |= {str(c) for c in side}
            if getattr(place, "style", None) is not None:
                seen.add(str(place.style))
        seen |= {str(c) for c in view.discards}
        for played in getattr(view, "actions", ()):
            seen |= {str(c) for c in played}
    return seen


def all_cards(record: Record) -> set[str]:
    deal = record.deal or {}
    return {str(c) for key in ("deck", "tactics") for c in deal.get(key, ())}


def unseen(item: Record | Match, viewer: int) -> set[str]:
    """The cards of the deals that ``viewer`` saw in none of the games."""
    games = games_of(item)
    cards = set().union(*(all_cards(game) for game in games))
    return cards - set().union(*(cards_seen(game, viewer) for game in games))


def players_of(item: Record | Match) -> range:
    return range(states_of(games_of(item)[0])[0].num_players)


CASES = [
    pytest.param(item, viewer, id=f"{Path(item.where).name}-as{viewer + 1}")
    for item in FULL
    for viewer in players_of(item)
]


def page_for(item: Record | Match, viewer: int) -> str:
    return replay_html(item, viewer=viewer)


@pytest.mark.parametrize(("record", "viewer"), CASES)
def test_the_page_names_no_card_its_player_never_saw(record: Record | Match, viewer: int) -> None:
    hidden = unseen(record, viewer)
    page = page_for(record, viewer)
    leaked = sorted(card for card in hidden if mentions(page, card))
    assert leaked == [], f"player {viewer + 1} never saw {leaked}"
    # The full page of the same game does show some of them (the check can fail).
    if any(card[0].isupper() for card in hidden):
        full = full_page(record)
        assert any(mentions(full, card) for card in hidden)


_FULL_PAGES: dict[str, str] = {}


def full_page(item: Record | Match) -> str:
    """The referee's page of a bundled document (built once)."""
    if item.where not in _FULL_PAGES:
        _FULL_PAGES[item.where] = replay_html(item)
    return _FULL_PAGES[item.where]


def held(record: Record) -> set[str]:
    """The cards some hand held at some point of the game."""
    cards: set[str] = set()
    for state in states_of(record):
        for hand in state.hands:
            cards |= {str(c) for c in hand or ()}
    return cards


def swapped(record: Record, viewer: int) -> Iterator[tuple[Record, bool]]:
    """The record dealt with two cards the viewer never saw swapped (and the
    moves that name them, which the viewer never saw either: another player's
    face-down card, cards put back under a pile), for each such pair that keeps
    the record legal, and whether another player held one of the two; pairs
    with such a card come first."""
    assert record.deal is not None
    hidden = unseen(record, viewer)
    in_hands = held(record)
    deck = list(record.deal["deck"])
    positions = [i for i, card in enumerate(deck) if card in hidden]
    pairs = [(a, b) for a in positions for b in positions if a < b]
    pairs.sort(key=lambda pair: -sum(deck[i] in in_hands for i in pair))
    for a, b in pairs:
        new = deck[:]
        new[a], new[b] = new[b], new[a]
        names = {deck[a]: deck[b], deck[b]: deck[a]}
        pattern = re.compile(
            r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, names)) + r")(?![0-9])"
        )
        moves = tuple(
            pattern.sub(lambda m, names=names: names[m.group(1)], move) for move in record.moves
        )
        other = dataclasses.replace(record, deal={**record.deal, "deck": new}, moves=moves)
        if validate(other).legal:
            yield other, deck[a] in in_hands or deck[b] in in_hands


_ID = re.compile(r"referee-replay-[0-9]+")


RECORD_CASES = [case for case in CASES if isinstance(case.values[0], Record)]


@pytest.mark.parametrize(("record", "viewer"), RECORD_CASES)
def test_deals_that_differ_in_unseen_cards_give_the_same_page(record: Record, viewer: int) -> None:
    if len(unseen(record, viewer)) < 2:
        pytest.skip("the player saw every card but one: there is nothing to swap")
    found = next(swapped(record, viewer), None)
    assert found is not None, "some pair of unseen cards can be swapped"
    other, held_by_another = found
    mine, theirs = page_for(record, viewer), page_for(other, viewer)
    assert _ID.sub("", mine) == _ID.sub("", theirs)
    if held_by_another:  # while the referee's page tells the two deals apart
        assert _ID.sub("", full_page(record)) != _ID.sub("", replay_html(other))


def test_the_command_writes_a_page_for_one_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = RECORDS / "schotten-totten" / "full-2024.json"
    out = tmp_path / "mine.html"
    assert main(["replay", str(path), "--as", "2", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    record = next(r for r in FULL if r.where == str(path))
    assert isinstance(record, Record)
    assert page == _ID.sub(_ID.search(page)[0], replay_html(record, viewer=1))  # type: ignore[index]
    assert "as Thomas saw it" in page or "as player 2 saw it" in page
    # An illegal record gets its verdict and no page: the reason could name
    # a card the player never saw.
    illegal = ILLEGAL / "schotten-totten" / "illegal-card-not-in-hand.json"
    gone = tmp_path / "none.html"
    assert main(["replay", str(illegal), "--as", "1", "-o", str(gone)]) == 1
    err = capsys.readouterr().err
    assert "illegal at ply" in err and "no page written" in err and not gone.exists()
    assert main(["replay", str(path), "--as", "3", "-o", str(gone)]) == 2
    assert "--as 3: the game has 2 players" in capsys.readouterr().err
    assert main(["replay", str(path), "--as", "0"]) == 2
    three = RECORDS / "clans-and-glory" / "full-3-players.json"
    assert main(["replay", str(three), "--as", "3", "-o", str(out)]) == 0
