"""Schotten Totten in the arena: its deal, a fast view text, and the moves as
each seat may see them (the descriptor's ``arena``, see :mod:`referee.games`).

>>> from referee.arena import arena_game
>>> game = arena_game("schotten-totten", {"variants": ["clanfehde"], "rounds": 2})
>>> type(game).__name__, game.rounds, game.rules["variants"]
('SchottenTottenArena', 2, ['clanfehde'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.arena._games import (
    cards_json,
    compact_json,
    json_text,
    move_json,
    move_text,
    number_json,
    numbers_json,
)
from referee.line.arena import LineArena
from referee.records import RecordError

__all__ = ["SchottenTottenArena"]


class SchottenTottenArena(LineArena):
    """Schotten Totten as the arena plays it (a Clanfehde match is ``rounds`` games)."""

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        data: dict[str, Any] = fmt.rules_json(fmt.rules_of(rules))
        self.tactics = "tactics" in data.get("variants", [])
        #: The stones last written and their texts (see :meth:`view_text`).
        self._written: tuple[tuple[Any, ...], list[str]] = ((), [])
        #: A 1999 match: the winner of a game starts the next one.
        self.older = data.get("edition") == "1999"
        if "clanfehde" in rules.get("variants", []) or "rounds" in rules:
            # A Clanfehde match (a 1999 match: "rounds" alone): every game is
            # played under the match's rules.
            rounds = rules.get("rounds", 3)
            if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 99:
                raise RecordError(f"expected 1 to 99 rounds, got {rounds!r}", "", "rules.rounds")
            self.rounds = rounds
            if not self.older:
                data["variants"] = [*data.get("variants", []), "clanfehde"]
            data["rounds"] = rounds
        return data

    def next_first(self, first: int, winner: int | None) -> int:
        # Clanfehde alternates; in 1999 the winner starts (after a game without
        # a winner, the player who did not start it).
        return winner if self.older and winner is not None else 1 - first

    def piles(self) -> tuple[Sequence[object], Sequence[object]]:
        from referee.schotten_totten.cards import CLAN_CARDS, TACTIC_CARDS

        return CLAN_CARDS.cards, TACTIC_CARDS

    def view_text(self, state: Any, seat: int) -> str:
        # What view_json gives, written piece by piece: the texts of the
        # stones last written are kept, so a turn encodes only what changed. It reads the state itself rather
        # than the seat's view (which costs as much as the rest): the table,
        # the counts and the seat's own hand, which the view shows alike.
        # tests/arena pins it to view_json, computed on the view.
        view = state
        # States share unchanged stones: a stone that is the very object
        # written last time has the same text (stones are immutable).
        written, before = self._written
        stones = view.stones
        if stones is written:
            texts = before
        elif len(written) == len(stones):
            texts = [
                text if stone is old else _stone_text(stone)
                for stone, old, text in zip(stones, written, before, strict=True)
            ]
        else:
            texts = [_stone_text(stone) for stone in stones]
        self._written = (stones, texts)
        parts = [
            '{"stones":[',
            ",".join(texts),
            '],"to_move":',
            number_json(view.to_move),
            ',"hand_sizes":',
            numbers_json(view.hand_sizes),
        ]
        if view.discards:
            parts += ',"discards":', compact_json([str(c) for c in view.discards])
        tactics = view.rules.tactics
        if tactics:
            parts += (
                ',"tactics_played":',
                numbers_json(view.tactics_played),
                ',"jokers_played":',
                numbers_json(view.jokers_played),
                ',"hand_tactics":',
                numbers_json((view.tactics_in_hand(0), view.tactics_in_hand(1))),
            )
        # the position's turn fields (a game in play writes its phase there
        # unless it is the start of a turn), then the seat's hand
        early = view.phase.value != "play"
        if early:
            parts += ',"phase":', json_text(view.phase.value)
        if view.blank_turns:
            parts += ',"blank_turns":', number_json(view.blank_turns)
        if view.under_piles[0] or view.under_piles[1]:
            parts += (
                ',"under_piles":',
                compact_json([[p for p, _ in pile] for pile in view.under_piles]),
            )
        hand = view.hands[seat]
        parts += ',"hand":[', "" if hand is None else cards_json(hand), "]"
        if not early:
            parts += ',"phase":', json_text(view.phase.value)
        parts += ',"deck_size":', number_json(view.deck_size)
        if tactics:
            parts += ',"tactic_deck_size":', number_json(view.tactic_deck_size)
        parts.append("}")
        return "".join(parts)

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # The mover's moves depend on its own hand and the table only, so the
        # full state lists the same moves as the mover's view (the recruiter is
        # two decisions: its draws, then, with the drawn cards in hand, the
        # cards it puts back).
        moves: list[Any] = state.generate_legal_moves()  # a new list, computed once
        return moves

    def visible_json(self, move: Any, mover: int, seat: int) -> str:
        if seat == mover or not self.tactics:
            return move_json(move)
        return json_text(self.visible_text(move, mover, seat))

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        if seat == mover or not self.tactics:
            return move_text(move)
        from referee.schotten_totten.state import as_seen_in_a_view

        # The cards the recruiter puts back are hidden: only their piles show.
        return str(as_seen_in_a_view(move))


def _stone_text(stone: Any) -> str:
    """A Schotten Totten stone as the visible position writes it (compact JSON)."""
    sides = ",".join(["[" + cards_json(side) + "]" for side in stone.sides])
    text = '{"sides":[' + sides + "]"
    done = stone.completed
    if done[0] is not None and done[1] is not None:
        text += ',"first":' + ("0" if done[0] < done[1] else "1")
    if stone.owner is not None:
        text += ',"owner":' + number_json(stone.owner)
    if stone.style is not None:
        text += ',"style":' + json_text(str(stone.style))
    return text + "}"
