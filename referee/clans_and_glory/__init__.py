"""Clans and Glory (Bubola & Colovini, 2024) for 2 to 4 players.

Set up a game from a seed or a deck order, play moves as text, read the result::

    >>> from referee.clans_and_glory import new_game, random_playout
    >>> game = new_game(players=2, seed=1)
    >>> for text in random_playout(1, players=2):
    ...     game = game.play(text)
    >>> game.outcome.reason in ("most_points", "most_cards", "shared")
    True
    >>> len(game.outcome.scores)
    2

The modules: :mod:`.setup` (cards and set-up per player count), :mod:`.cards`
(the cards as small integers), :mod:`.layout` (seats and which touch),
:mod:`.moves` (the notation), :mod:`.dealing` (new games), :mod:`.state` (the
position and its questions), :mod:`.made` (a state made from another: by a
move, an end, a view), :mod:`.rules` (a turn, in rulebook order),
:mod:`.scoring`, :mod:`.status` (position checks) and :mod:`.render` (the text
picture); for programs that play, :mod:`.playout` (fast games to the end),
:mod:`.determinize` (a full state sampled from a view) and :mod:`.actions`
(action ids, masks, observations).
"""

from referee.clans_and_glory.dealing import new_game, random_playout, state_from_deal
from referee.clans_and_glory.layout import (
    HEAD_SEAT,
    MAX_SEATS_PER_TABLEAU,
    MAX_TABLEAUS,
    Layout,
    Seat,
    default_layout,
)
from referee.clans_and_glory.moves import Placement, parse_move
from referee.clans_and_glory.playout import playout
from referee.clans_and_glory.rules import Reason
from referee.clans_and_glory.scoring import (
    Award,
    ScoreSheet,
    TableauScore,
    score_sheet,
    score_tableau,
)
from referee.clans_and_glory.setup import (
    CLAN_CARDS,
    SETUPS,
    SHIELDS_PER_PLAYER,
    InvalidDealError,
    Setup,
    setup_for,
)
from referee.clans_and_glory.state import InvalidStateError, Placed, State

__all__ = [
    "CLAN_CARDS",
    "HEAD_SEAT",
    "MAX_SEATS_PER_TABLEAU",
    "MAX_TABLEAUS",
    "SETUPS",
    "SHIELDS_PER_PLAYER",
    "Award",
    "InvalidDealError",
    "InvalidStateError",
    "Layout",
    "Placed",
    "Placement",
    "Reason",
    "ScoreSheet",
    "Seat",
    "Setup",
    "State",
    "TableauScore",
    "default_layout",
    "new_game",
    "parse_move",
    "playout",
    "random_playout",
    "score_sheet",
    "score_tableau",
    "setup_for",
    "state_from_deal",
]
