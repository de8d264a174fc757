"""Build hand-made Clans and Glory positions for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.clans_and_glory import CLAN_CARDS, Placed, Seat, State, default_layout, setup_for


def position(
    players: int,
    table: Mapping[str, str],
    hands: Sequence[str],
    *,
    shields: Mapping[int, Sequence[int]] | None = None,
    to_move: int = 0,
) -> State:
    """A state with ``table`` ({"t2s4": "G5", "t1s1": "g5" face down by player 0}).

    Lower-case card text is a face-down card (placed by player 0); upper-case
    is face up (a start card). ``hands`` are space-separated card texts.
    """
    layout = default_layout(players)
    cells: list[Placed | None] = [None] * len(layout.seats)
    for seat_text, card_text in table.items():
        seat = Seat.parse(seat_text)
        face_up = card_text == card_text.upper()
        placed = Placed(CLAN_CARDS.parse(card_text.upper()), None if face_up else 0, face_up)
        cells[layout.index(seat)] = placed
    stacks = [tuple((shields or {}).get(t, ())) for t in range(1, layout.tableaus + 1)]
    return State(
        num_players=players,
        layout=layout,
        deal=setup_for(players).deck(),
        removed=(),
        table=tuple(cells),
        hands=tuple(tuple(CLAN_CARDS.parse(c) for c in hand.split()) for hand in hands),
        shields=tuple(stacks),
        to_move=to_move,
    )
