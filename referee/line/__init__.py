"""The shared kernel of games on a line of contested places: the stones of
Schotten Totten, the wall tiles of Schotten Totten 2.

It knows no game. Each game keeps only what its rulebook says differently and
builds on:

* :mod:`referee.line.state`: the shared base of the states
  (:class:`~referee.line.state.LineState`: play, history, views, ends,
  records), small tuple updates, refusals with evidence;
* :mod:`referee.line.cards`: cards as small integers, sets of cards as bit
  masks, formation ranks and the best completion of a side
  (:class:`~referee.line.cards.CardIndex`);
* :mod:`referee.line.place`: a contested place with its sides, completion
  plies and the verdicts last proved there;
* :mod:`referee.line.claims`: the claim rule over masks and through the
  prover, what one position shows, a refusal put in words;
* :mod:`referee.line.tactics`: the one tactic-card type, the tactic limit,
  the one-joker rule and the ruses every line game shares, by card name;
* :mod:`referee.line.playout`: what every game's ``playout`` shares: policies,
  choices, the winning patterns of a row of places;
* :mod:`referee.line.moves`: the moves every line game has (a card to a
  place, a claim, a pass) and :class:`~referee.line.moves.CheckedMove`, on
  which each game declares its own;
* :mod:`referee.line.actions`: action ids (card x place, then claims, then
  pass) and the parts of an observation every line game shares;
* :mod:`referee.line.records`, :mod:`referee.line.deals`,
  :mod:`referee.line.picture`, :mod:`referee.line.arena`: the shared parts of
  records, deal questions, pictures and the arena's adapter;
* :mod:`referee.line.plain`: a whole plain line game (no tactic cards) from
  one declaration, :class:`~referee.line.plain.PlainGame`: what a new game
  starts from (see the "Adding a game" page).

Both games are on the kernel: their states subclass
:class:`~referee.line.state.LineState`, their places
:class:`~referee.line.place.Place`; copies are hand-written and nothing is
remembered from ply to ply outside a state (what was proved at a place is
kept on the place).
"""

from __future__ import annotations

from referee.line.state import (
    LineState,
    check_viewer,
    illegal,
    not_your_turn,
    place_at,
    replaced,
)

__all__ = [
    "LineState",
    "check_viewer",
    "illegal",
    "not_your_turn",
    "place_at",
    "replaced",
]
