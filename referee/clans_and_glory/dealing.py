"""Setting up a Clans and Glory game: from a seed, a deck order or a deal's JSON.

>>> from referee.clans_and_glory import setup_for
>>> game = new_game(players=3, deck=setup_for(3).deck())
>>> [str(c) for c in game.removed], [len(h) for h in game.hands]
(['R3', 'R4', 'R5', 'R6'], [9, 9, 8])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from referee.cards import Card, InvalidCardError
from referee.clans_and_glory.cards import CARDS, DECK_IDS, ID, TRAIT_COUNT, TRAITS
from referee.clans_and_glory.layout import Layout, default_layout
from referee.clans_and_glory.rules import FREE, START, Board
from referee.clans_and_glory.setup import CLAN_CARDS, SHIELDS_PER_PLAYER, Setup, setup_for
from referee.clans_and_glory.state import GAME_NAME, State
from referee.errors import InvalidDealError
from referee.game import check_seed

__all__ = ["new_game", "random_playout", "state_from_deal"]

_DEAL_FIELDS = frozenset({"game", "players", "deck", "layout"})
#: The default layout of each player count (a layout is immutable data: one serves every game).
_LAYOUTS = {players: default_layout(players) for players in (2, 3, 4)}


def new_game(
    *,
    players: int = 2,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    layout: Layout | None = None,
) -> State:
    """Set up a game for 2-4 players from a seed or an explicit deck order.

    With ``seed``, the cards in play (:meth:`Setup.deck`) are shuffled with
    ``random.Random(seed)``. ``deck`` gives the order directly, top first: the
    cards removed face down, then the start cards in start-seat order, then
    each player's hand in turn order. Player 0 moves first; the last player
    holds one card fewer and moves last.

    >>> new_game(players=2, seed=11) == new_game(players=2, seed=11)
    True

    Bad arguments are refused at once, each with an ``InvalidDealError`` (a
    ``ValueError``), as in every game:

    >>> new_game(players=2, seed=1.0)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: seed must be a whole number or None, not 1.0
    """
    setup = setup_for(players)
    check_seed(seed, given=deck)
    if layout is not None and not isinstance(layout, Layout):
        raise InvalidDealError("layout", f"the layout must be a Layout, not {layout!r}")
    if deck is None:
        # the cards in play in card-set order, shuffled: ids shuffle as the cards would
        ids = list(DECK_IDS[players])
        random.Random(seed).shuffle(ids)
    else:
        if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
            raise InvalidDealError(
                "field_type", f"the deck must be a sequence of cards, not {type(deck).__name__}"
            )
        _check_deck(setup, deck)
        ids = [ID[card] for card in deck]
    if layout is None:
        layout = _LAYOUTS[players]
    else:
        _check_layout(setup, layout)
    return _dealt(setup, layout, ids)


def _dealt(setup: Setup, layout: Layout, ids: list[int]) -> State:
    """The first state of a game dealt from a checked deck order (card ids) on a
    checked layout."""
    removals, starts = setup.random_removals, setup.start_cards
    cards = [FREE] * len(layout.seats)
    traits = [0] * TRAIT_COUNT
    free = (1 << len(cards)) - 1
    face_up = 0
    touch_masks = layout.touch_masks
    for at, card in zip(layout.start_indices, ids[removals : removals + starts], strict=True):
        cards[at] = card
        free ^= 1 << at
        face_up |= 1 << at
        colour, rank = TRAITS[card]
        traits[colour] |= touch_masks[at]
        traits[rank] |= touch_masks[at]
    hands = []
    at = removals + starts
    for size in setup.hand_sizes:
        hands.append(tuple(sorted(ids[at : at + size])))
        at += size
    players = setup.players
    board = Board(
        tuple(cards),
        (START,) * len(cards),
        free,
        face_up,
        tuple(traits),
        tuple(hands),
        setup.hand_sizes,
        ((),) * layout.tableaus,
        (SHIELDS_PER_PLAYER,) * players,
        0,
    )
    deal = tuple(map(CARDS.__getitem__, ids))
    return State._made(players, layout, board, None, (), deal, tuple(sorted(ids[:removals])))


def _check_deck(setup: Setup, order: Sequence[object]) -> None:
    wanted = setup.deck()
    not_cards = [c for c in order if not (isinstance(c, Card) and c in CLAN_CARDS)]
    if not_cards:
        hint = (
            " (card texts must be read first: CLAN_CARDS.parse(text), or give the deal "
            "to state_from_deal)"
            if isinstance(not_cards[0], str)
            else ""
        )
        raise InvalidDealError(
            "field_type",
            f"the deck must hold Clans and Glory cards, not {not_cards[0]!r}{hint}",
        )
    foreign = [c for c in order if c not in wanted]
    missing = [c for c in wanted if c not in order]
    counts = Counter(order)
    repeated = sorted(c for c, n in counts.items() if n > 1)  # type: ignore[type-var]
    if foreign or missing or repeated:
        problems = []
        if foreign:
            problems.append("not in play " + " ".join(map(str, foreign[:5])))
        if missing:
            problems.append("missing " + " ".join(map(str, missing[:5])))
        if repeated:
            problems.append("repeated " + " ".join(map(str, repeated[:5])))
        raise InvalidDealError(
            "not_a_permutation",
            f"deal field 'deck' must hold each of the {len(wanted)} cards in play with "
            f"{setup.players} players exactly once: " + "; ".join(problems),
        )


def _check_layout(setup: Setup, layout: Layout) -> None:
    if layout.tableaus != setup.tableaus:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players play on {setup.tableaus} tableaus, "
            f"not {layout.tableaus}",
        )
    if len(layout.start_seats) != setup.start_cards:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players need {setup.start_cards} start seats, "
            f"not {len(layout.start_seats)}",
        )
    placements = setup.hand_sizes[setup.last_player] * setup.players
    if len(layout.seats) < setup.start_cards + placements:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players need at least "
            f"{setup.start_cards + placements} seats, not {len(layout.seats)}",
        )


def state_from_deal(players: int, deal: Mapping[str, object]) -> State:
    """Set up the game a deal describes (see :meth:`State.deal_to_json`), checking it.

    >>> state_from_deal(2, {"deck": ["R3"]})
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: deal field 'deck' must hold each of the 28 cards in play with 2 players exactly once: missing R4 R5 R6 O3 O4
    >>> state_from_deal(2, {"deck": "R3 R4"})
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: deal field 'deck' must be a list of card texts like 'R7'
    """
    setup = setup_for(players)
    if not isinstance(deal, Mapping):
        raise InvalidDealError("field_type", "the deal must be a JSON object (a mapping)")
    unknown = sorted(str(k) for k in deal if k not in _DEAL_FIELDS)
    if unknown:
        raise InvalidDealError(
            "field_unknown",
            f"deal field {unknown[0]!r} is unknown (known: deck, game, layout, players)",
        )
    if "game" in deal and deal["game"] != GAME_NAME:
        raise InvalidDealError(
            "field_type", f"deal field 'game' must be {GAME_NAME!r}, not {deal['game']!r}"
        )
    if "players" in deal and (isinstance(deal["players"], bool) or deal["players"] != players):
        raise InvalidDealError(
            "players", f"deal field 'players' is {deal['players']!r}, but the game has {players}"
        )
    if "deck" not in deal:
        raise InvalidDealError("field_missing", "deal field 'deck' is missing")
    texts = deal["deck"]
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InvalidDealError(
            "field_type", "deal field 'deck' must be a list of card texts like 'R7'"
        )
    try:
        cards = [CLAN_CARDS.parse(t) for t in texts]
    except InvalidCardError as error:
        raise InvalidDealError("field_type", f"deal field 'deck': {error}") from None
    layout = Layout.from_json(deal["layout"]) if "layout" in deal else None
    return new_game(players=setup.players, deck=cards, layout=layout)


def random_playout(seed: int, *, players: int = 3) -> list[str]:
    """The moves of a game dealt from ``seed`` and played with random legal moves.

    The same seed gives the same game, and the moves replay on ``new_game``:

    >>> moves = random_playout(4, players=2)
    >>> len(moves), moves == random_playout(4, players=2)
    (16, True)
    >>> game = new_game(players=2, seed=4)
    >>> for text in moves:
    ...     game = game.play(text)
    >>> game.outcome is not None
    True
    """
    game = new_game(players=players, seed=seed)
    chooser = random.Random(f"playout {seed}")
    moves: list[str] = []
    while not game.is_game_over():
        move = chooser.choice(game.legal_moves())
        moves.append(str(move))
        game = game.play(move)
    return moves
