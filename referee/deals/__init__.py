"""Deals that fit a public record: could anyone have held the cards they played?

A public record shows every move but not the deal. It is legal only if *some*
deal makes every visible move possible. This module decides that question for
any card game described as a :class:`DealProblem`: piles of cards in an unknown
order, and the visible events that move cards between piles and hands.

The events, in record order (``ply`` 0 is the set-up):

* :class:`Draw`: a player takes the top card of a pile (dealing is drawing);
* :class:`Spend`: a named card leaves a player's hand (played, given away);
* :class:`PutBack`: a card goes from a hand under a pile, named or hidden;
* :class:`Receive`: a named card enters a player's hand;
* :class:`Insert`: named cards go into a pile at given (or unknown) places;
* :class:`Lacks`: a hand holds none of some cards (a player who passed holds
  no card it could have played).

The solver is exact. Cards never change pile, so each pile is solved on its
own. Within a pile, a place of the deal stays anonymous until a move pins it
down: every card that leaves a hand needs a place its player drew earlier, each
place holding one card. That is a bipartite matching between the named cards
and the places, grown by augmenting paths as the record goes on, so the first
event no deal fits is found at once. Cards shuffled in at unrecorded places are
not given places either: the stretch of the pile they join is again a multiset
in unknown order, and the matching only asks that a place drawn from it take a
card it can hold (a flow over the places settles the cards no move pins down).
What a hidden put-back put back is tried one choice at a time, one place per
group that no later event can tell apart (see ``_Sim.put_back_options``); so are
the stretch of the pile between put-back cards an unrecorded insert joins, and,
for a card both dealt and shuffled in, which copy a move used. The record fits
if one combination does.

The work is bounded: a problem with more than :data:`MAX_CASES` combinations of
hidden choices is refused at once with :class:`DealSearchLimitError` (a game's
record never comes near: Schotten Totten has at most two hidden returns, and
Schotten Totten 2 shuffles into a pile that holds no put-back card). A
malformed problem raises :class:`DealProblemError`. ``tests/deals/test_solver.py``
checks all of it against brute force.

    >>> problem = DealProblem(
    ...     piles={"deck": ("A", "B", "C", "D")},
    ...     events=(Draw(0, 0, "deck"), Draw(0, 1, "deck"), Spend(1, 0, "B"), Spend(2, 1, "B")),
    ...     players=2,
    ... )
    >>> answer = solve(problem)
    >>> answer.fits, answer.ply, answer.reason
    (False, 2, 'card_never_held')
    >>> print(answer.message)
    no deal fits: player 2 plays B, but B was played by player 1
    >>> solve(DealProblem({"deck": ("A", "B")}, (Draw(0, 0, "deck"), Spend(1, 0, "B")), 2)).deal
    {'deck': ('B', 'A')}
"""

# The package by job: _problem (the types), _check (checking a problem), _sim (a
# pile played through with its hidden choices made), _match (the named cards
# matched to places), _place (every card placed: the flow), _solve (pile by pile,
# case by case, the answer) and _records (public records: check, witness, JSON).
from referee.deals._problem import (
    MAX_CASES,
    DealAnswer,
    DealProblem,
    DealProblemError,
    DealSearchLimitError,
    Draw,
    Event,
    Insert,
    Lacks,
    PutBack,
    Receive,
    Spend,
)
from referee.deals._records import check_record, witness, witness_json
from referee.deals._solve import solve

__all__ = [
    "MAX_CASES",
    "DealAnswer",
    "DealProblem",
    "DealProblemError",
    "DealSearchLimitError",
    "Draw",
    "Event",
    "Insert",
    "Lacks",
    "PutBack",
    "Receive",
    "Spend",
    "check_record",
    "solve",
    "witness",
    "witness_json",
]
