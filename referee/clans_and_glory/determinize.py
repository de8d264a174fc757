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
>>> game = new_game(3, seed=3)
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
  table), so the sampled state starts a fresh history (``moves`` is empty). Its
  ``deal`` is one deck order that deals its hands, start cards and removed cards.
"""

from __future__ import annotations

import random

from referee.cards import Card
from referee.clans_and_glory.setup import CLAN_CARDS, setup_for
from referee.clans_and_glory.state import HiddenCard, Placed, State, View, _placed
from referee.game import check_rng, check_view

__all__ = ["determinize"]

#: players -> the cards in play (Setup.deck() builds a new tuple per call)
_DECKS = {players: setup_for(players).deck() for players in (2, 3, 4)}
_ORDER = {card: i for i, card in enumerate(CLAN_CARDS.cards)}


def determinize(view: View | State, rng: random.Random) -> State:
    """A full state consistent with ``view``, the unseen cards dealt uniformly.

    The unseen cards go, uniformly at random, into the hidden hands (each of its
    public size, kept in card-set order like every hand), onto the other
    players' face-down seats, and into the cards removed at set-up. Raises
    ``ValueError`` when the counts of ``view`` cannot be met by the unseen cards
    (a view no game can show), and ``TypeError`` if ``view`` is neither a
    :class:`View` nor a :class:`State` (another game's view, say) or ``rng`` not
    a ``random.Random``. A full :class:`State` hides nothing: it is returned as
    it is, as in the other games.

    >>> from referee.clans_and_glory import new_game
    >>> game = new_game(2, seed=1)
    >>> determinize(game, random.Random(0)) is game
    True
    >>> from referee import schotten_totten
    >>> determinize(schotten_totten.new_game(seed=1).view(0), random.Random(0))
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Clans and Glory view (state.view(player)) or state, not a referee.schotten_totten.state.State
    """
    check_rng(rng)
    check_view(view, (State, View), "Clans and Glory")
    if isinstance(view, State):
        return view
    assert isinstance(view, View)
    players = view.players
    setup = setup_for(players)
    viewer = view.viewer
    # What the viewer knows: its hand and every card whose face it sees.
    known = set(view.hand)
    hidden_seats: list[int] = []
    for index, placed in enumerate(view.table):
        if type(placed) is Placed:
            known.add(placed.card)
        elif type(placed) is HiddenCard:
            hidden_seats.append(index)
    unseen = [card for card in _DECKS[players] if card not in known]
    sizes = view.hand_sizes
    hidden_hands = [p for p in range(players) if p != viewer]
    if viewer is not None and len(view.hand) != sizes[viewer]:
        raise ValueError(
            f"cannot determinize: player {viewer + 1} holds {len(view.hand)} cards, "
            f"but the view counts {sizes[viewer]}"
        )
    wanted = sum(sizes[p] for p in hidden_hands) + len(hidden_seats) + setup.random_removals
    if wanted != len(unseen):
        raise ValueError(
            f"cannot determinize: {len(unseen)} cards are unseen, but the hidden hands, "
            f"face-down cards and removed cards hold {wanted}"
        )
    rng.shuffle(unseen)
    # Deal: the removed cards, the face-down seats, then the hidden hands.
    removals = setup.random_removals
    removed = tuple(unseen[:removals])
    at = removals
    table = list(view.table)
    for index in hidden_seats:
        hidden = table[index]
        assert type(hidden) is HiddenCard
        table[index] = _placed(unseen[at], hidden.player, False)
        at += 1
    hands: list[tuple[Card, ...]] = [view.hand] * players
    order = _ORDER.__getitem__
    for player in hidden_hands:
        size = sizes[player]
        hands[player] = tuple(sorted(unseen[at : at + size], key=order))
        at += size
    full_table: tuple[Placed | None, ...] = tuple(table)  # type: ignore[arg-type]
    return State._trusted(
        players=players,
        layout=view.layout,
        deal=_deal(view, full_table, removed, hands),
        removed=removed,
        table=full_table,
        hands=tuple(hands),
        shields=view.shields,
        to_move=view.to_move,
        moves=(),
        ended=view.outcome if view.outcome is not None and hands[players - 1] else None,
    )


def _deal(
    view: View,
    table: tuple[Placed | None, ...],
    removed: tuple[Card, ...],
    hands: list[tuple[Card, ...]],
) -> tuple[Card, ...]:
    """A deck order that deals this state: removed, start cards, then each hand as
    dealt (the cards its player placed and the cards it holds, in card-set order)."""
    layout = view.layout
    starts = [table[layout.index(seat)] for seat in layout.start_seats]
    dealt: list[list[Card]] = [list(hand) for hand in hands]
    for placed in table:
        if placed is not None and placed.player is not None:
            dealt[placed.player].append(placed.card)
    order = _ORDER.__getitem__
    return (
        *removed,
        *(placed.card for placed in starts if placed is not None),
        *(card for cards in dealt for card in sorted(cards, key=order)),
    )
