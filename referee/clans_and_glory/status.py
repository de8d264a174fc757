"""Position checks: what no state can hold, and what no game can reach.

:func:`checked_board` is the :class:`~referee.clans_and_glory.State`
constructor's check of its parts (duplicate cards, a wrong number of tableaus,
six shields of one player...), every problem at once; :func:`history_problems`
is ``State.status()``: a well-formed state checked against any game's history,
like python-chess's ``Board.status()``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.clans_and_glory.cards import ID, TRAIT_COUNT, TRAITS
from referee.clans_and_glory.layout import Layout, Seat
from referee.clans_and_glory.moves import Placement
from referee.clans_and_glory.placed import InvalidStateError, Placed, is_int
from referee.clans_and_glory.rules import FREE, HIDDEN, START, Board
from referee.clans_and_glory.setup import CLAN_CARDS, SHIELDS_PER_PLAYER, setup_for

if TYPE_CHECKING:
    from referee.clans_and_glory.state import State

__all__ = ["checked_board", "history_problems"]


# -- the constructor's checks ------------------------------------------------------------


def checked_board(
    num_players: object,
    layout: object,
    table: object,
    hands: object,
    shields: object,
    to_move: object,
    hand_sizes: object,
    removed: object,
    deal: object,
    history: object,
) -> tuple[Board, tuple[int, ...] | None, tuple[Card, ...] | None, tuple[Placement, ...]]:
    """The board of a state's parts, with its removed cards' ids, deal and history
    as tuples; an :class:`InvalidStateError` naming every problem if they cannot
    make a state."""
    if not is_int(num_players) or num_players not in (2, 3, 4):
        raise InvalidStateError(f"Clans and Glory is for 2 to 4 players, not {num_players!r}")
    assert isinstance(num_players, int)
    if not isinstance(layout, Layout):
        raise InvalidStateError(
            f"invalid Clans and Glory state: the layout must be a Layout, not {layout!r}"
        )
    parts = _Parts(num_players, layout)
    cells = parts.sequence("table", table)
    held = [
        None if h is None else parts.sequence("a hand", h) for h in parts.sequence("hands", hands)
    ]
    stacks = [parts.sequence("a shield stack", s) for s in parts.sequence("shields", shields or ())]
    if shields is None:
        stacks = [[] for _ in range(layout.tableaus)]
    gone = None if removed is None else parts.sequence("removed", removed)
    dealt = None if deal is None else parts.sequence("deal", deal)
    moves = parts.sequence("history", history)
    parts.check_table(cells)
    sizes = parts.check_hands(held, hand_sizes)
    parts.check_shields(stacks)
    parts.check_cards(cells, held, gone, dealt)
    if not is_int(to_move) or not 0 <= to_move < num_players:  # type: ignore[operator]
        parts.problems.append(f"to_move must be a player 0-{num_players - 1}, not {to_move!r}")
    if not all(isinstance(m, Placement) for m in moves):
        parts.problems.append("the history must hold Placements")
    if parts.problems:
        raise InvalidStateError("invalid Clans and Glory state: " + "; ".join(parts.problems))
    assert isinstance(to_move, int)
    board = _board(layout, cells, held, sizes, stacks, to_move)
    removed_ids = None if gone is None else tuple(sorted(ID[c] for c in gone))
    return board, removed_ids, None if dealt is None else tuple(dealt), tuple(moves)


class _Parts:
    """Collects every problem of a state's parts before refusing them."""

    def __init__(self, players: int, layout: Layout) -> None:
        self.players = players
        self.layout = layout
        self.problems: list[str] = []
        setup = setup_for(players)
        if layout.tableaus != setup.tableaus:
            self.problems.append(
                f"{players} players play on {setup.tableaus} tableaus, not {layout.tableaus}"
            )

    def sequence(self, name: str, value: object) -> list[Any]:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise InvalidStateError(
                f"invalid Clans and Glory state: {name} must be a tuple, not {type(value).__name__}"
            )
        return list(value)

    def check_table(self, cells: list[Any]) -> None:
        seats = self.layout.seats
        if len(cells) != len(seats):
            self.problems.append(f"the table has {len(cells)} entries for {len(seats)} seats")
        for seat, placed in zip(seats, cells, strict=False):
            if placed is not None and not isinstance(placed, Placed):
                self.problems.append(f"seat {seat} holds {placed!r}, not a Placed card or None")
            elif placed is not None and placed.player is not None and placed.player >= self.players:
                self.problems.append(f"seat {seat}: no player {placed.player} placed it")

    def check_hands(self, hands: list[list[Any] | None], sizes: object) -> list[int]:
        players = self.players
        if len(hands) != players:
            self.problems.append(f"{len(hands)} hands for {players} players")
        for player, hand in enumerate(hands):
            foreign = [c for c in hand or () if not _is_clan_card(c)]
            if foreign:
                self.problems.append(
                    f"player {player + 1}'s hand holds {foreign[0]!r}, not a Clans and Glory card"
                )
        known = [len(h) if h is not None else None for h in hands]
        if sizes is None:
            if None in known:
                self.problems.append("a hidden hand (None) needs its size in hand_sizes")
            return [n or 0 for n in known]
        counts = self.sequence("hand_sizes", sizes)
        if len(counts) != len(hands) or not all(is_int(n) and n >= 0 for n in counts):
            self.problems.append(f"hand_sizes must be one count per hand, not {sizes!r}")
            return [n or 0 for n in known]
        if any(k is not None and k != n for k, n in zip(known, counts, strict=True)):
            self.problems.append(f"hand_sizes {sizes!r} disagree with the hands")
        return counts

    def check_shields(self, stacks: list[list[Any]]) -> None:
        players, tableaus = self.players, self.layout.tableaus
        if len(stacks) != tableaus:
            self.problems.append(
                f"{len(stacks)} shield stacks for {tableaus} tableaus (one per tableau)"
            )
        owners = [p for stack in stacks for p in stack]
        strangers = [p for p in owners if not is_int(p) or not 0 <= p < players]
        if strangers:
            self.problems.append(
                f"a shield belongs to {strangers[0]!r}, not a player 0-{players - 1}"
            )
        for player in range(players):
            if owners.count(player) > SHIELDS_PER_PLAYER:
                self.problems.append(
                    f"player {player + 1} has {owners.count(player)} shields out, "
                    f"but only {SHIELDS_PER_PLAYER}"
                )

    def check_cards(
        self,
        cells: list[Any],
        hands: list[list[Any] | None],
        removed: list[Any] | None,
        deal: list[Any] | None,
    ) -> None:
        for name, cards in (("removed", removed), ("deal", deal)):
            foreign = [c for c in cards or () if not _is_clan_card(c)]
            if foreign:
                self.problems.append(f"{name} holds {foreign[0]!r}, not a Clans and Glory card")
        seen: Counter[Card] = Counter(
            [p.card for p in cells if isinstance(p, Placed) and p.card is not None]
            + [c for hand in hands for c in hand or () if _is_clan_card(c)]
            + [c for c in removed or () if _is_clan_card(c)]
        )
        repeated = sorted(c for c, n in seen.items() if n > 1)
        if repeated:
            self.problems.append(
                "a card lies in two places (table, hands, removed): " + " ".join(map(str, repeated))
            )


def _board(
    layout: Layout,
    cells: list[Placed | None],
    hands: list[list[Card] | None],
    sizes: list[int],
    stacks: list[list[int]],
    to_move: int,
) -> Board:
    """The integer board of checked parts."""
    cards = [FREE] * len(cells)
    placers = [START] * len(cells)
    traits = [0] * TRAIT_COUNT
    free = face_up = 0
    for seat, placed in enumerate(cells):
        if placed is None:
            free |= 1 << seat
            continue
        cards[seat] = HIDDEN if placed.card is None else ID[placed.card]
        placers[seat] = START if placed.player is None else placed.player
        if placed.face_up and placed.card is not None:
            face_up |= 1 << seat
            for trait in TRAITS[cards[seat]]:
                traits[trait] |= layout.touch_masks[seat]
    players = len(sizes)
    return Board(
        tuple(cards),
        tuple(placers),
        free,
        face_up,
        tuple(traits),
        tuple(None if h is None else tuple(sorted(ID[c] for c in h)) for h in hands),
        tuple(sizes),
        tuple(tuple(stack) for stack in stacks),
        tuple(SHIELDS_PER_PLAYER - sum(s.count(p) for s in stacks) for p in range(players)),
        to_move,
    )


def _is_clan_card(value: object) -> bool:
    return isinstance(value, Card) and value in CLAN_CARDS


# -- status(): a game's history --------------------------------------------------------


def _count(number: int, noun: str = "card") -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _fits(
    layout: Layout, face_up_at: Callable[[Seat], Card | None], card: Card, seat: Seat
) -> bool:
    """Whether ``card`` shares colour or rank with a face-up card touching ``seat``."""
    for other in layout.touching(seat):
        shown = face_up_at(other)
        if shown is not None and (shown.colour == card.colour or shown.value == card.value):
            return True
    return False


def history_problems(state: State) -> Iterator[str]:
    """Every way a well-formed state disagrees with any game's history: the cards
    in play for the player count, the start cards on the start seats, hand sizes
    against the cards each player placed, whose turn it is, a shield only where
    its owner placed a card and in an order the turns allow, every face-up card a
    player placed matching a card placed before it beside or opposite, every
    face-down card placed when no card in its player's hand fitted, and the
    removed cards. A view is checked for what it shows."""
    yield from _cards_and_turns(state)
    yield from _shield_problems(state)
    yield from _match_problems(state)
    yield from _face_down_problems(state)
    yield from _removed_problems(state)


def _on_table(state: State) -> list[tuple[Seat, Placed]]:
    return [(seat, p) for seat, p in zip(state.layout.seats, state.table, strict=True) if p]


def _cards_and_turns(state: State) -> Iterator[str]:
    setup, layout, players = state.setup, state.layout, state.num_players
    on_table = _on_table(state)
    known = {p.card for _, p in on_table if p.card is not None}
    out = sorted(
        known.union(*(h for h in state.hands if h), state.removed or ()) - set(setup.deck())
    )
    if out:
        yield f"not in play with {players} players: " + " ".join(map(str, out))
    starts = set(layout.start_seats)
    for seat, placed in zip(layout.seats, state.table, strict=True):
        if seat in starts and (placed is None or placed.player is not None or not placed.face_up):
            yield f"start seat {seat} must hold a face-up start card"
        elif seat not in starts and placed is not None and placed.player is None:
            yield f"seat {seat} holds a start card but is not a start seat"
    placed_by = _placed_by(state)
    total = sum(placed_by)
    for player in range(players):
        dealt, held = setup.hand_sizes[player], state.hand_sizes[player]
        if placed_by[player] + held != dealt:
            yield (
                f"player {player + 1} holds {_count(held)} and placed "
                f"{placed_by[player]}, but was dealt {dealt}"
            )
        turns = total // players + (1 if player < total % players else 0)
        if placed_by[player] != turns:
            yield (
                f"player {player + 1} placed {_count(placed_by[player])}, but after "
                f"{total} moves in turn order it must have placed {turns}"
            )
    if state.to_move != total % players:
        yield (
            f"player {state.to_move + 1} is to move, but {_count(total)} "
            f"{'has' if total == 1 else 'have'} been placed, "
            f"so player {total % players + 1} is"
        )


def _placed_by(state: State) -> list[int]:
    placers = state.board.seat_placers
    return [placers.count(player) for player in range(state.num_players)]


def _shield_problems(state: State) -> Iterator[str]:
    """Shields go only on a tableau just played to, in an order the turns allow."""
    on_table = _on_table(state)
    placed_by = _placed_by(state)
    for tableau, stack in enumerate(state.shields, start=1):
        counted = True
        for player in sorted(set(stack)):
            cards = sum(1 for seat, p in on_table if seat.tableau == tableau and p.player == player)
            if stack.count(player) > cards:
                counted = False
                yield (
                    f"player {player + 1} has a shield on tableau {tableau} "
                    f"but placed only {_count(cards)} there"
                )
        if counted and not _stack_in_turn_order(stack, placed_by, state.num_players):
            owners = " ".join(str(p + 1) for p in stack)
            yield (
                f"the shields on tableau {tableau} (players {owners}, first placed first) lie "
                "in an order the turns do not allow: player p's k-th card is the "
                "(k-1)*players+p-th placed"
            )


def _match_problems(state: State) -> Iterator[str]:
    """A face-up card must have matched when it was placed, and cards never leave
    the table: some order places each after a card it matches."""
    layout, on_table = state.layout, _on_table(state)
    face_up_at = {seat: p.card for seat, p in on_table if p.face_up and p.card is not None}
    unmatched = set()
    for seat, placed in on_table:
        card = placed.card
        if placed.player is None or not placed.face_up or card is None:
            continue
        if not _fits(layout, face_up_at.get, card, seat):
            unmatched.add(seat)
            yield f"{card} on {seat} matches no face-up card beside or opposite it"
    starts = set(layout.start_seats)
    early = {seat: card for seat, card in face_up_at.items() if seat in starts}
    waiting = {seat: card for seat, card in face_up_at.items() if seat not in early}
    grown = True
    while grown:
        grown = False
        for seat, card in list(waiting.items()):
            if _fits(layout, early.get, card, seat):
                early[seat] = waiting.pop(seat)
                grown = True
    circle = [f"{card} on {seat}" for seat, card in waiting.items() if seat not in unmatched]
    if circle:
        yield (
            f"{', '.join(circle)} match only one another: whichever was placed first "
            "matched no card already on the table"
        )


def _face_down_problems(state: State) -> Iterator[str]:
    """A face-down card goes down only when no card in hand fits a free seat; the
    start cards were on the table then, and its player held its current hand."""
    layout = state.layout
    table = list(zip(layout.seats, state.table, strict=True))
    starts = set(layout.start_seats)
    free = [seat for seat, p in table if p is None]
    start_up = {seat: p.card for seat, p in table if seat in starts and p and p.face_up}
    hands = state.hands
    for seat, placed in table:
        if placed is None or placed.face_up or placed.player is None or placed.card is None:
            continue
        hand = hands[placed.player]
        if hand is None:
            continue
        fit = next(
            (
                (card, there)
                for card in (placed.card, *hand)
                for there in (seat, *free)
                if _fits(layout, start_up.get, card, there)
            ),
            None,
        )
        if fit is not None:
            card, there = fit
            yield (
                f"{placed.card} lies face down on {seat}, but when it was placed player "
                f"{placed.player + 1} held {card}, which fitted {there} beside a start card "
                "(a card goes face down only when none fits)"
            )


def _removed_problems(state: State) -> Iterable[str]:
    """The cards removed at set-up: how many, and every card in play somewhere."""
    removed = state.removed
    if removed is None or None in state.hands:
        return
    setup = state.setup
    if len(removed) != setup.random_removals:
        yield f"{len(removed)} cards removed at set-up, not {setup.random_removals}"
    hands = [h for h in state.hands if h is not None]
    unaccounted = sorted(
        set(setup.deck())
        - {p.card for _, p in _on_table(state)}
        - set().union(*hands)
        - set(removed)
    )
    if unaccounted:
        yield "cards in play that are nowhere: " + " ".join(map(str, unaccounted))


def _stack_in_turn_order(stack: Sequence[int], placed_by: Sequence[int], players: int) -> bool:
    """Whether shields by ``stack``'s owners (first placed first) can have been
    placed in that order: player p's k-th card (from 0) was placed at turn
    ``k * players + p``, and each shield goes on with one of its owner's cards."""
    last = -1
    for player in stack:
        # the owner's first turn after the last shield's
        turn = player + max(0, (last - player) // players + 1) * players
        if turn >= player + placed_by[player] * players:
            return False
        last = turn
    return True
