"""The assumed seat layout (ruling 2) and user-supplied layouts."""

from __future__ import annotations

import pytest

from referee.clans_and_glory import HEAD_SEAT, InvalidDealError, Layout, Seat, default_layout
from referee.errors import InvalidMoveError


def names(seats: frozenset[Seat]) -> list[str]:
    return sorted(map(str, seats))


@pytest.mark.parametrize(("players", "seats"), [(2, 26), (3, 32), (4, 38)])
def test_plain_tableaus_have_six_seats_campfires_seven(players: int, seats: int) -> None:
    layout = default_layout(players)
    assert len(layout.seats) == seats
    for tableau in range(1, layout.tableaus + 1):
        ends = tableau in (1, layout.tableaus)
        assert len(layout.seats_of(tableau)) == (7 if ends else 6)
        assert (Seat(tableau, HEAD_SEAT) in layout) == ends


def test_columns_face_each_other() -> None:
    layout = default_layout(3)
    for tableau in range(1, 6):
        for top in (1, 2, 3):
            assert layout.opposite(Seat(tableau, top)) == {Seat(tableau, top + 3)}
            assert layout.opposite(Seat(tableau, top + 3)) == {Seat(tableau, top)}


def test_rows_run_on_across_tableau_edges() -> None:
    layout = default_layout(4)
    assert names(layout.neighbours(Seat(2, 3))) == ["t2s2", "t3s1"]
    assert names(layout.neighbours(Seat(3, 4))) == ["t2s6", "t3s5"]
    assert names(layout.neighbours(Seat(2, 2))) == ["t2s1", "t2s3"]
    # top and bottom rows are not neighbours of each other
    assert Seat(2, 5) not in layout.neighbours(Seat(2, 2))


def test_faq_head_seats_have_the_two_corner_seats_as_neighbours() -> None:
    layout = default_layout(4)
    assert names(layout.neighbours(Seat(1, 7))) == ["t1s1", "t1s4"]
    assert names(layout.neighbours(Seat(6, 7))) == ["t6s3", "t6s6"]
    assert Seat(1, 7) in layout.neighbours(Seat(1, 1))
    assert Seat(6, 7) in layout.neighbours(Seat(6, 6))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_faq_the_two_head_seats_face_each_other(players: int) -> None:
    layout = default_layout(players)
    last = layout.tableaus
    assert layout.opposite(Seat(1, 7)) == {Seat(last, 7)}
    assert layout.opposite(Seat(last, 7)) == {Seat(1, 7)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_relations_are_symmetric_and_irreflexive(players: int) -> None:
    layout = default_layout(players)
    for seat in layout.seats:
        assert seat not in layout.touching(seat)
        for other in layout.neighbours(seat):
            assert seat in layout.neighbours(other)
        for other in layout.opposite(seat):
            assert seat in layout.opposite(other)


def test_start_seats_documented() -> None:
    assert [str(s) for s in default_layout(4).start_seats] == [f"t{t}s2" for t in range(1, 7)]
    assert [str(s) for s in default_layout(2).start_seats] == [
        f"t{t}s{n}" for t in range(1, 5) for n in (2, 5)
    ]


def test_layout_json_round_trip_and_equality() -> None:
    for players in (2, 3, 4):
        layout = default_layout(players)
        assert Layout.from_json(layout.to_json()) == layout
        assert hash(Layout.from_json(layout.to_json())) == hash(layout)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"tableaus": 0}, "at least one tableau"),
        ({"seats": (Seat(1, 1), Seat(1, 1))}, "listed twice"),
        ({"seats": (Seat(2, 1),)}, "outside tableaus 1-1"),
        ({"neighbour_pairs": ((Seat(1, 1), Seat(1, 1)),)}, "to itself"),
        ({"opposite_pairs": ((Seat(1, 1), Seat(1, 9)),)}, "not in the layout"),
        (
            {"neighbour_pairs": ((Seat(1, 1), Seat(1, 2)), (Seat(1, 2), Seat(1, 1)))},
            "listed twice",
        ),
        ({"start_seats": (Seat(1, 9),)}, "start seat t1s9"),
        ({"grid": ((0, 0),)}, "grid"),
    ],
)
def test_bad_layouts_refused(kwargs: dict[str, object], words: str) -> None:
    fields: dict[str, object] = {
        "tableaus": 1,
        "seats": (Seat(1, 1), Seat(1, 2)),
        "neighbour_pairs": (),
        "opposite_pairs": (),
        "start_seats": (),
    }
    fields.update(kwargs)
    with pytest.raises(InvalidDealError, match=words) as info:
        Layout(**fields)  # type: ignore[arg-type]
    assert info.value.reason == "layout"


@pytest.mark.parametrize("text", ["t0s1", "t1s0", "t01s1", "T1S1", "t1", "1s1", "t1s1 "])
def test_malformed_seats(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Seat.parse(text)
