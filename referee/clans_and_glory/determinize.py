"""Full Clans and Glory states sampled from what one player sees.

A :meth:`~referee.clans_and_glory.State.view` hides the other players' hands,
the faces of their face-down cards and the cards removed at set-up.
:func:`determinize` fills them in: the cards nobody has shown (not face up on the
table, not in the viewer's hand, not among the viewer's own face-down cards) are
shuffled uniformly and dealt into those slots, whose sizes are public. The
result is a full state that any player can play forward, and whose view is the
view it came from:

>>> import random
>>> from referee.clans_and_glory import new_game
>>> game = new_game(players=3, seed=3)
>>> view = game.view(1)
>>> guess = determinize(view, random.Random(1))
>>> guess.view(1) == view, guess.hands[1] == game.hands[1]
(True, True)
>>> [len(hand) for hand in guess.hands], len(guess.removed)
([9, 9, 8], 4)
>>> guess = guess.play(guess.legal_moves()[0])
>>> guess.to_move
1

A spectator's view (``view(None)``) works too: then every hand is sampled.

Not modelled:

- *inference*: a face-down card tells that its player had no card that fitted
  anywhere at that moment; the deal ignores what may be deduced from that and
  samples from what was seen only;
- *the history*: a view does not carry the moves (their order is not on the
  table), so the sampled state starts a fresh history (``history`` is empty).
  Its ``deal`` is one deck order that deals its hands, start cards and removed
  cards.
"""

from __future__ import annotations

import random

from referee.cards import Card
from referee.clans_and_glory.cards import CARDS, IN_PLAY, ids_of
from referee.clans_and_glory.rules import HIDDEN, START, Board
from referee.clans_and_glory.setup import setup_for
from referee.clans_and_glory.state import State
from referee.game import check_rng, check_view

__all__ = ["determinize"]


def determinize(view: State, rng: random.Random) -> State:
    """A full state consistent with ``view``, the unseen cards dealt uniformly.

    The unseen cards go, uniformly at random, into the hidden hands (each of its
    public size, kept in card-set order like every hand), onto the other
    players' face-down seats, and into the cards removed at set-up. Raises
    ``ValueError`` when the counts of ``view`` cannot be met by the unseen cards
    (a view no game can show), and ``TypeError`` if ``view`` is not a Clans and
    Glory state (another game's view, say) or ``rng`` not a ``random.Random``.
    A full state hides nothing: it is returned as it is, as in the other games.

    >>> from referee.clans_and_glory import new_game
    >>> game = new_game(players=2, seed=1)
    >>> determinize(game, random.Random(0)) is game
    True
    >>> from referee import schotten_totten
    >>> determinize(schotten_totten.new_game(seed=1).view(0), random.Random(0))
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Clans and Glory view (state.view(player)) or state, not a referee.schotten_totten.state.State
    """
    check_rng(rng)
    check_view(view, State, "Clans and Glory")
    board = view.board
    if None not in board.hands and HIDDEN not in board.seat_cards and view.removed_ids is not None:
        return view
    players = view.num_players
    setup = setup_for(players)
    # What the viewer knows: its hand and every card whose face it sees.
    known = 0
    for hand in board.hands:
        for card in hand or ():
            known |= 1 << card
    for card in board.seat_cards:
        if card >= 0:
            known |= 1 << card
    unseen = list(ids_of(IN_PLAY[players] & ~known))
    hidden_seats = [seat for seat, card in enumerate(board.seat_cards) if card == HIDDEN]
    hidden_hands = [p for p, hand in enumerate(board.hands) if hand is None]
    sizes = board.hand_sizes
    wanted = sum(sizes[p] for p in hidden_hands) + len(hidden_seats) + setup.random_removals
    if wanted != len(unseen):
        raise ValueError(
            f"cannot determinize: {len(unseen)} cards are unseen, but the hidden hands, "
            f"face-down cards and removed cards hold {wanted}"
        )
    rng.shuffle(unseen)
    # Deal: the removed cards, the face-down seats, then the hidden hands.
    removals = setup.random_removals
    removed = tuple(sorted(unseen[:removals]))
    at = removals
    cards = list(board.seat_cards)
    for seat in hidden_seats:
        cards[seat] = unseen[at]
        at += 1
    hands = list(board.hands)
    for player in hidden_hands:
        hands[player] = tuple(sorted(unseen[at : at + sizes[player]]))
        at += sizes[player]
    full = board._replace(seat_cards=tuple(cards), hands=tuple(hands))
    return State._made(
        players, view.layout, full, view.outcome, (), _deal(view, full, removed), removed
    )


def _deal(view: State, board: Board, removed: tuple[int, ...]) -> tuple[Card, ...]:
    """A deck order that deals this state: removed, start cards, then each hand as
    dealt (the cards its player placed and the cards it holds, in card-set order)."""
    layout = view.layout
    starts = [board.seat_cards[layout.index(seat)] for seat in layout.start_seats]
    dealt: list[list[int]] = [list(hand or ()) for hand in board.hands]
    for card, placer in zip(board.seat_cards, board.seat_placers, strict=True):
        if placer != START:
            dealt[placer].append(card)
    return (
        *(CARDS[c] for c in removed),
        *(CARDS[c] for c in starts if c >= 0),
        *(CARDS[c] for cards in dealt for c in sorted(cards)),
    )
