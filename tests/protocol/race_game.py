"""A whole third-party game in one file, declared by its descriptor alone (for tests).

Race to Ten: twelve cards (1 to 6, twice) are shuffled; each player holds two,
hidden from the other, and the rest is a face-down pile. In turn, a player
plays one card (``play N``), adding its value to a running total, then draws
the top card of the pile if any is left. Whoever brings the total to 10 or more
wins; when the player to move has no card left, nobody does.

Nothing here is known to the library: the tests install it as if through the
``referee.games`` entry point group (``race_game:GAME``) and then use it by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.actions import MoveSpace
from referee.errors import IllegalMoveError, InvalidMoveError
from referee.game import LegalMoves, Outcome, Termination, referee_end
from referee.games import GameDescriptor
from referee.records import ClaimAnswer, Match, Position, Record, RecordError

NAME = "race-to-ten"
CARDS = tuple(range(1, 7)) * 2
HAND = 2
TARGET = 10


@dataclass(frozen=True)
class State:
    """A position of Race to Ten (a view hides the other hand and the pile as ``None``)."""

    deal: tuple[int, ...] | None
    pile: tuple[int, ...] | None
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int = len(CARDS) - 2 * HAND
    total: int = 0
    to_move: int = 0
    history: tuple[str, ...] = ()
    outcome: Outcome | None = None

    @property
    def num_players(self) -> int:
        return 2

    def is_game_over(self) -> bool:
        return self.outcome is not None

    def generate_legal_moves(self) -> list[str]:
        hand = self.hands[self.to_move]
        if self.outcome is not None or hand is None:
            return []
        return [f"play {n}" for n in sorted(set(hand))]

    def legal_moves(self) -> LegalMoves[str]:
        return LegalMoves(self.generate_legal_moves)

    def parse_move(self, text: str) -> str:
        words = str(text).split()
        if len(words) != 2 or words[0] != "play" or words[1] not in ("1", "2", "3", "4", "5", "6"):
            raise InvalidMoveError(f"not a move: {text!r} (write 'play N', N from 1 to 6)")
        return f"play {words[1]}"

    def is_legal(self, move: str) -> bool:
        return self.parse_move(move) in self.generate_legal_moves()

    def play(self, move: str, *, player: int | None = None) -> State:
        move = self.parse_move(move)
        if self.outcome is not None:
            raise IllegalMoveError("game_over", f"illegal move {move!r}: the game is over")
        mover = self.to_move
        if player is not None and player != mover:
            raise IllegalMoveError("not_your_turn", f"illegal move {move!r}: player {mover} moves")
        hand = self.hands[mover]
        card = int(move.split()[1])
        if hand is not None and card not in hand:
            raise IllegalMoveError("not_in_hand", f"illegal move {move!r}: no {card} in hand")
        kept = None if hand is None else _without(hand, card)
        pile, pile_size, sizes = self.pile, self.pile_size, list(self.hand_sizes)
        if pile_size:  # draw the top card (unknown in a view)
            top = None if pile is None else pile[0]
            kept = None if kept is None or top is None else (*kept, top)
            pile, pile_size = (None if pile is None else pile[1:]), pile_size - 1
        else:
            sizes[mover] -= 1
        hands = list(self.hands)
        hands[mover] = kept
        total = self.total + card
        outcome = None
        if total >= TARGET:
            outcome = Outcome(Termination.MOST_POINTS, mover)
        elif sizes[1 - mover] == 0:
            outcome = Outcome(Termination.BLOCKED, None)
        return replace(
            self,
            pile=pile,
            pile_size=pile_size,
            hands=tuple(hands),
            hand_sizes=tuple(sizes),
            total=total,
            to_move=1 - mover,
            history=(*self.history, move),
            outcome=outcome,
        )

    def view(self, player: int | None) -> State:
        hands = tuple(h if p == player else None for p, h in enumerate(self.hands))
        return replace(self, deal=None, pile=None, hands=hands)

    def resign(self, player: int) -> State:
        return self.end(Termination.RESIGNATION, loser=player)

    def end(self, termination: Termination, *, loser: int | None = None) -> State:
        return replace(self, outcome=referee_end(termination, loser, 2))

    def to_record(self) -> Record:
        if self.deal is None:
            raise ValueError("a view has no deal to record")
        result = None if self.outcome is None else FORMAT.result_of(self.outcome)
        deal = {"deck": [str(c) for c in self.deal]}
        return Record(NAME, self.history, {}, first=0, deal=deal, result=result)

    def __str__(self) -> str:
        hands = " | ".join("?" if h is None else " ".join(map(str, h)) for h in self.hands)
        return f"total {self.total}, player {self.to_move + 1} to move\nhands: {hands}"


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def new_game(*, seed: int | None = None, deck: Sequence[int] | None = None) -> State:
    """A game from a seed (shuffled) or a deck order (first two cards to player 0...)."""
    order = list(CARDS)
    if deck is None:
        random.Random(seed).shuffle(order)
    elif sorted(deck) != sorted(CARDS):
        raise ValueError(f"a deck is the twelve cards 1-6 twice, not {list(deck)!r}")
    else:
        order = list(deck)
    hands = (tuple(order[:HAND]), tuple(order[HAND : 2 * HAND]))
    return State(tuple(order), tuple(order[2 * HAND :]), hands, (HAND, HAND))


class RaceFormat:
    """How Race to Ten is recorded: full records only, no claims, no matches."""

    name = NAME
    title = "Race to Ten"
    has_claims = False

    def start(self, record: Record) -> State:
        if record.rules:
            raise RecordError("Race to Ten has no rules to choose", record.where, "rules")
        if record.first != 0:
            raise RecordError("player 0 always starts", record.where, "first")
        deck = (record.deal or {}).get("deck")
        if not isinstance(deck, list):
            raise RecordError("a full record's deal has the 'deck'", record.where, "deal")
        try:
            return new_game(deck=[int(c) for c in deck])
        except ValueError as error:
            raise RecordError(str(error), record.where, "deal.deck") from None

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        return {"winner": outcome.winner, "reason": outcome.reason}

    def load_position(self, position: Position) -> State:
        data = position.data
        sizes = tuple(data["hand_sizes"])
        return State(
            None, None, (None, None), sizes, data["pile_size"], data["total"], data["to_move"]
        )

    def position_of(self, state: State) -> Position:
        data = {
            "total": state.total,
            "to_move": state.to_move,
            "hand_sizes": [*state.hand_sizes],
            "pile_size": state.pile_size,
        }
        return Position(NAME, data, {})

    def claimability(self, state: State) -> list[ClaimAnswer]:
        return []

    def describe_verdict(self, state: State, verdict: Any) -> Mapping[str, Any]:
        return {}

    def match_result(
        self, match: Match, finals: Sequence[State]
    ) -> tuple[dict[str, Any] | None, str | None]:
        return None, "Race to Ten has no matches"

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        rng = random.Random(seed)
        state = _deal(rng, rules)
        while state.outcome is None:
            state = state.play(rng.choice(state.generate_legal_moves()))
        return state.to_record()

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        raise RecordError("Race to Ten has no matches", "", "rules.rounds")


FORMAT = RaceFormat()


class RaceActions(MoveSpace):
    """Ids 0-5: play the card 1-6. The observation: the total, then the
    observer's two cards (0 for none)."""

    num_actions = 6
    observation_size = 3
    observation_layout = (("total", 0, 1), ("hand", 1, 2))
    game = "Race to Ten"
    state_types = (State,)

    def action_of(self, move: Any) -> int:
        return int(str(move).split()[1]) - 1

    def move_of(self, action: int) -> str:
        if not 0 <= action < 6:
            raise ValueError(f"no action {action!r}: ids are 0-5")
        return f"play {action + 1}"

    def observation(self, state: State, player: int) -> tuple[int, ...]:
        self.check(state)
        hand = state.hands[player] or ()
        return (min(state.total, TARGET + 5), *hand, *(0,) * (HAND - len(hand)))


ACTIONS = RaceActions()


def _deal(rng: random.Random, rules: Mapping[str, Any]) -> State:
    if rules:
        raise RecordError("Race to Ten has no rules to choose", "", "rules")
    return new_game(seed=rng.getrandbits(32))


GAME: GameDescriptor[State] = GameDescriptor(
    name=NAME,
    title="Race to Ten",
    format=FORMAT,
    state_type=State,
    new_game=new_game,
    deal=_deal,
    action_space=lambda state: ACTIONS,
    observation_high=TARGET + 5,
)
