"""A plain game on a line: places of one formation rule, cards of one
:class:`~referee.cards.CardSet`, no tactic cards. What such a game declares
(:class:`PlainGame`) and what the kernel derives from it: its places with an
owner (:class:`OwnedPlace`), the claim rule over masks with the verdict kept on
the place, the prover's verdict for evidence, the winning patterns, a view
determinized, and the integer core of its playout (:class:`PlainTable`).

The playout's turn is the plain one: claim any provable places (the turn
goes on), then play a card and draw the top card of the pile while it has
any; a player who cannot play passes, and a pass after a pass blocks the game.

>>> from referee.cards import CardSet
>>> from referee.formations import FormationRule
>>> game = PlainGame(CardSet("RB", ("red", "blue"), range(1, 6)), FormationRule(2), 3, 2, 2, 2)
>>> game.index.everything.bit_count(), game.winner(0b011), game.winner(0b001)
(10, <Termination.ADJACENT_PLACES: 'adjacent_places'>, None)
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from referee.cards import CardSet
from referee.formations import FormationRule
from referee.game import (
    NO_HISTORY,
    History,
    Outcome,
    Termination,
    check_max_plies,
    check_player,
    check_rng,
    check_view,
)
from referee.line.cards import CardIndex
from referee.line.claims import plain_verdict, verdict_at
from referee.line.place import Place
from referee.line.playout import Policy, choose, ply_limit, winner_pattern
from referee.line.state import LineState, MoveT, place_at, replaced
from referee.prover import ClaimVerdict, Piece, Pool

__all__ = ["OwnedPlace", "PlainGame", "PlainRules", "PlainState", "PlainTable"]


#: The winning patterns in the kernel's words.
_PATTERNS = {
    Termination.THREE_ADJACENT: Termination.ADJACENT_PLACES,
    Termination.FIVE_STONES: Termination.PLACES_HELD,
}


@dataclass(frozen=True, slots=True)
class OwnedPlace(Place):
    """A place that a claim gives to a player (``owner``), every one under the
    formation rule ``_RULE``; no card is added to a claimed place."""

    owner: int | None = None

    _RULE: ClassVar[FormationRule]

    @property
    def rule(self) -> FormationRule:
        return self._RULE

    def room(self, player: int) -> bool:
        return self.owner is None and len(self.sides[player]) < self.size

    def _remade(self, sides: Any, completed: Any, masks: Any) -> Self:
        return type(self)(sides, completed, self.owner)


@dataclass(frozen=True)
class PlainGame:
    """What a plain game declares: its ``cards``, the formation ``rule`` of
    every place, how many ``places`` and the ``hand`` size; a player holding
    ``adjacent`` neighbouring places or ``total`` places wins."""

    cards: CardSet
    rule: FormationRule
    places: int
    hand: int
    adjacent: int
    total: int
    index: CardIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", CardIndex(self.cards))

    def proved(
        self, mine: int, theirs: int, count: int, done: tuple[int, int], seen: int
    ) -> tuple[bool, int]:
        """The claim rule over masks for the complete side ``mine`` against
        ``theirs`` of ``count`` cards; ``done`` are the sides' completion plies
        (-1: incomplete), ``seen`` the visible cards (see
        :func:`~referee.line.claims.plain_verdict`)."""
        first = 0 <= done[0] < done[1]
        rank = self.index.rank_of(mine, self.rule)
        return plain_verdict(self.index, self.rule, rank, theirs, count, first, seen)

    def holds(self, place: Place, player: int, seen: int) -> bool:
        """Whether ``player``'s complete side at ``place`` can be claimed while
        the cards of mask ``seen`` are visible (the verdict kept on the place)."""
        kept = place.kept.answer(player, seen)
        if kept is None:
            done = [-1 if at is None else at for at in place.completed]
            other = 1 - player
            answer = self.proved(
                place.masks[player],
                place.masks[other],
                len(place.sides[other]),
                (done[player], done[other]),
                seen,
            )
            place.kept.verdicts[player] = answer
            kept = answer[0]
        return kept

    def verdict(self, place: Place, player: int, seen: int) -> ClaimVerdict:
        """The prover's verdict on ``player``'s claim at ``place``, with its
        evidence (``ValueError``: the side is incomplete)."""
        index = self.index
        pool = Pool([index.pairs[i] for i in range(len(index.cards)) if not seen >> i & 1])

        def pieces(side: Iterable[Any]) -> list[Piece]:
            return [index.pairs[index.ids[c]] for c in side]

        return verdict_at(place, player, pieces=pieces, pool=pool, colours=len(self.cards.colours))

    def winner(self, owned: int) -> Termination | None:
        """How a player holding the places of mask ``owned`` has won, if it
        has: ``adjacent_places`` or ``places_held`` (the kernel's words for
        :func:`~referee.line.playout.winner_pattern`'s patterns)."""
        won = winner_pattern(owned, self.adjacent, self.total)
        return None if won is None else _PATTERNS[won]

    def determinize(self, view: Any, rng: random.Random) -> Any:
        """A full state the viewer of ``view`` cannot tell from it: the other
        hand and the pile dealt at random from the cards it has not seen."""
        check_view(view, PlainState, "plain line game's")
        check_rng(rng)
        if view.hands[0] is None and view.hands[1] is None:
            raise ValueError(
                "determinize needs a player's view (it holds one hand), not a spectator's"
            )
        mine = 0 if view.hands[0] is not None else 1
        index = self.index
        unseen = index.everything & ~view.seen & ~index.mask(view.hands[mine] or ())
        hidden = list(index.cards_of(unseen))
        rng.shuffle(hidden)
        theirs = tuple(sorted(hidden[: view.hand_sizes[1 - mine]]))
        hands = replaced(view.hands, 1 - mine, theirs)
        return replace(view, hands=hands, deck=tuple(hidden[len(theirs) :]))

    def playout(
        self,
        state: Any,
        rng: random.Random,
        policy: Policy | None = None,
        *,
        max_plies: int | None = None,
        trace: list[int] | None = None,
    ) -> Outcome:
        """``state`` played to its end on :class:`PlainTable`: by default each
        provable place claimed (the lowest first), else a uniform choice
        (:func:`referee.line.playout.choose`); ``trace`` gets the action ids."""
        if not isinstance(state, PlainState):
            raise TypeError(f"playout takes a plain line game's State, not {type(state).__name__}")
        check_rng(rng)
        check_max_plies(max_plies)
        table = PlainTable(self, state)
        plies, claim, pass_ = 0, table.claim, table.pass_
        while table.outcome is None:
            if plies == max_plies:
                return ply_limit()
            legal = table.legal()
            claims = [a for a in legal if claim <= a < pass_]
            action = claims[0] if claims and policy is None else choose(legal, rng, table, policy)
            if trace is not None:
                trace.append(action)
            table.play(action)
            plies += 1
        return table.outcome


@dataclass(frozen=True)
class PlainRules:
    """The rules of a plain game: its hand size, and no tactic cards (what the
    kernel's deals, views and records ask)."""

    hand_size: int
    tactics: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class PlainState(LineState[MoveT]):
    """The fields and queries of a plain game's state (views hide the other
    hand and the pile as ``None``): a game sets ``_GAME`` (its
    :class:`PlainGame`), the default of ``stones`` (its places) and the
    class attributes :class:`~referee.line.state.LineState` asks, and writes
    its rules (``_apply``, ``generate_legal_moves``)."""

    rules: PlainRules = PlainRules(0)
    stones: tuple[Any, ...] = ()
    hands: tuple[tuple[Any, ...] | None, ...] = ((), ())
    hand_sizes: tuple[int, ...] = (0, 0)
    deck: tuple[Any, ...] | None = ()
    deck_size: int = 0
    tactic_deck: tuple[()] | None = ()
    tactic_deck_size: int = 0
    to_move: int = 0
    ply: int = 0
    passes: int = 0
    outcome: Outcome | None = None
    past: History[MoveT] = field(default=NO_HISTORY, compare=False, repr=False)

    _GAME: ClassVar[PlainGame]

    @property
    def seen(self) -> int:
        """The mask of the cards on the places (the only visible ones)."""
        return sum(s.masks[0] | s.masks[1] for s in self.stones)

    def tactics_in_hand(self, player: int) -> int:
        """The tactic cards in ``player``'s hand: none in a plain game."""
        return 0

    def visible_cards(self) -> Counter[Any]:
        """The cards every player sees: those on the places, counted."""
        return Counter(self._GAME.index.cards_of(self.seen))

    def status(self) -> tuple[str, ...]:
        """Every reason this position cannot arise from a deal by legal play
        (empty: none), all at once, as every game's ``status()``: a card not of
        the game or in two places, a part whose size is wrong, a side over the
        place's size, a place owned by a player whose side is not complete.
        (Three Stones, under ``tests/line_game/``, shows it at work.)"""
        found: list[str] = []
        game, known = self._GAME, Counter[Any]()
        for n, place in enumerate(self.stones, 1):
            for player, side in enumerate(place.sides):
                known.update(side)
                if len(side) > game.rule.size:
                    found.append(f"place {n}: player {player + 1} has {len(side)} cards there")
            owner = place.owner
            if owner is not None and len(place.sides[owner]) < game.rule.size:
                found.append(f"place {n} is owned by player {owner + 1}, whose side is incomplete")
        for player, (hand, size) in enumerate(zip(self.hands, self.hand_sizes, strict=True)):
            if hand is not None:
                known.update(hand)
                if len(hand) != size:
                    found.append(f"player {player + 1} holds {len(hand)} cards, not {size}")
            if size > game.hand:
                found.append(f"player {player + 1} holds {size} cards, more than {game.hand}")
        if self.deck is not None:
            known.update(self.deck)
            if len(self.deck) != self.deck_size:
                found.append(f"the pile has {len(self.deck)} cards, not {self.deck_size}")
        ids = game.index.ids
        found += [f"{card} is not a card of this game" for card in known if card not in ids]
        found += [f"{card} is in {count} places" for card, count in known.items() if count > 1]
        missing = len(ids) - sum(1 for card in known if card in ids)
        if self.deck is not None and None not in self.hands and missing > 0:
            found.append(f"{missing} of the game's cards {'is' if missing == 1 else 'are'} nowhere")
        return tuple(found)

    def parse_move(self, text: str) -> MoveT:
        """The move ``text`` writes (see :mod:`referee.line.moves`)."""
        move: MoveT = self._parse(text)
        return move

    def view(self, player: int | None) -> Self:
        """What ``player`` (``None``: a spectator) can see."""
        return self._viewed(player)

    def holds(self, number: int, player: int) -> bool:
        """Whether ``player``'s complete side at place ``number`` can be
        claimed now (:meth:`PlainGame.holds`)."""
        return self._GAME.holds(self.stones[number - 1], player, self.seen)

    def claim_verdict(self, number: int, *, player: int | None = None) -> ClaimVerdict:
        """The prover's verdict on a claim of place ``number`` by ``player``
        (default: the player to move), with its evidence (``ValueError``: the
        side is incomplete)."""
        claimant = self.to_move if player is None else check_player(player, 2)
        place = place_at(f"claim {number}", number, self.stones, "no_such_stone", "stone")
        return self._GAME.verdict(place, claimant, self.seen)

    def _render(self) -> str:
        status = self.outcome.result() if self.outcome else f"player {self.to_move + 1} to move"
        lines = [f"{self._NAME}, ply {self.ply}: {status}"]
        for n, s in enumerate(self.stones, 1):
            sides = [" ".join(map(str, side)) or "-" for side in s.sides]
            held = "" if s.owner is None else f" (player {s.owner + 1})"
            lines.append(f"stone {n}{held}: {sides[0]} | {sides[1]}")
        hands = [
            " ".join(map(str, h)) if h is not None else "?" * n
            for h, n in zip(self.hands, self.hand_sizes, strict=True)
        ]
        lines.append(f"hands: {hands[0] or '-'} | {hands[1] or '-'}; pile {self.deck_size}")
        return "\n".join(lines)


class PlainTable:
    """A full position of a plain game on integers, changed in place: the
    sides ``sides[2p + player]`` as masks with their ``counts`` and
    completion plies ``done`` (-1: incomplete), the ``owners`` (-1: none),
    the ``hands`` as card ids (increasing) and the ``deck`` (top last). Its
    action ids are :class:`~referee.line.actions.PlaceActions`'."""

    def __init__(self, game: PlainGame, state: Any) -> None:
        if state.hands[0] is None or state.hands[1] is None or state.deck is None:
            raise ValueError("a playout needs a full state: determinize a view first")
        ids = game.index.ids
        self.game, self.places, self.size = game, game.places, game.rule.size
        self.claim = len(game.index.cards) * game.places
        self.pass_ = self.claim + game.places
        self.hands = [sorted(ids[c] for c in h or ()) for h in state.hands]
        self.deck = [ids[c] for c in reversed(state.deck)]
        places = state.stones
        self.sides = [s.masks[p] for s in places for p in (0, 1)]
        self.counts = [len(s.sides[p]) for s in places for p in (0, 1)]
        self.done = [-1 if at is None else at for s in places for at in s.completed]
        self.owners = [-1 if s.owner is None else s.owner for s in places]
        self.to_move, self.ply, self.passes = state.to_move, state.ply, state.passes
        self.outcome: Outcome | None = state.outcome

    def legal(self) -> list[int]:
        """The legal action ids, increasing (the plays, the claims, else the pass)."""
        p, sides, counts, size, done = self.to_move, self.sides, self.counts, self.size, self.done
        seen, proved = sum(sides), self.game.proved
        free = [s for s in range(self.places) if self.owners[s] < 0]
        open_ = [s for s in free if counts[2 * s + p] < size]
        plays = [c * self.places + s for c in self.hands[p] for s in open_]
        claims = [
            self.claim + s
            for s in free
            if counts[2 * s + p] == size
            and proved(
                sides[2 * s + p],
                sides[2 * s + 1 - p],
                counts[2 * s + 1 - p],
                (done[2 * s + p], done[2 * s + 1 - p]),
                seen,
            )[0]
        ]
        return plays + claims + ([] if plays else [self.pass_])

    def play(self, action: int) -> None:
        """Play a legal action (as the game's ``State.play`` does, on integers)."""
        p = self.to_move
        if action < self.claim:
            card, s = divmod(action, self.places)
            self.hands[p].remove(card)
            self.sides[2 * s + p] |= 1 << card
            self.counts[2 * s + p] += 1
            if self.counts[2 * s + p] == self.size:
                self.done[2 * s + p] = self.ply
            if self.deck:
                insort(self.hands[p], self.deck.pop())
        elif action < self.pass_:
            self.owners[action - self.claim] = p
            owned = sum(1 << s for s in range(self.places) if self.owners[s] == p)
            won = self.game.winner(owned)
            self.outcome = None if won is None else Outcome(won, p)
        elif self.passes:
            self.outcome = Outcome(Termination.BLOCKED, None)
        self.ply += 1
        self.passes = int(action == self.pass_)
        self.to_move = p if self.claim <= action < self.pass_ else 1 - p
