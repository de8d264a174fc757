"""Three Stones: a whole line game on the kernel (:mod:`referee.line`), for tests.

Ten cards (red and blue, 1 to 5) are shuffled; each player holds two, hidden
from the other, and the rest is a face-down pile. Three stones lie between the
players; two cards on one's side of a stone make a formation, ranked as in
Schotten Totten (colour run, pair, colour, run, sum; the higher sum breaks a
tie of kind, and then whoever completed first). A turn:

1. claim any unclaimed stone where one's formation is complete and cannot be
   beaten any more by the cards still unseen (``claim N``, any number of
   times); holding two stones wins at once;
2. play a card to one's side of an unclaimed stone with room (``R3@2``), then
   draw the top card of the pile if any is left; a player who cannot play
   passes (``pass``). A pass after a pass ends the game with no winner.

Nothing here is known to the library: the tests install it as if through the
``referee.games`` entry point group (``three_stones:GAME``) and use it by name.
What it declares is its cards, its formation rule, its stones, hand and
winning patterns (:class:`~referee.line.plain.PlainGame`), and its turn, the
checked path written here in the order above. Everything else is the
kernel's: the moves, the stone with its completion plies and kept verdicts,
the claim rule over masks, the prover's evidence, the records, the deal
questions, the action ids, the playout's integer core and the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.cards import CardSet
from referee.errors import ClaimRefusedError
from referee.formations import FormationRule
from referee.game import History, Outcome, Termination
from referee.games import GameDescriptor
from referee.line import illegal, place_at, replaced
from referee.line.actions import PlaceActions
from referee.line.claims import describe_refusal
from referee.line.deals import PlainDeals
from referee.line.moves import Claim, Pass, PlainMove, Play, plain_reader
from referee.line.picture import RowShape, draw_plain
from referee.line.plain import OwnedPlace, PlainGame, PlainRules, PlainState
from referee.line.records import PlainFormat
from referee.svg import Drawing, Options

NAME, TITLE = "three-stones", "Three Stones"
CARDS = CardSet("RB", ("red", "blue"), range(1, 6))
RULES = PlainGame(CARDS, FormationRule(2), places=3, hand=2, adjacent=2, total=2)
INDEX, STONES = RULES.index, RULES.places
parse_move = plain_reader(CARDS)


@dataclass(frozen=True, slots=True)
class Stone(OwnedPlace):
    _INDEX, _RULE = INDEX, RULES.rule


@dataclass(frozen=True, slots=True)
class State(PlainState[PlainMove]):
    """A position of Three Stones."""

    stones: tuple[Stone, ...] = (Stone(),) * STONES

    _NAME, _GAME_OVER, _NOT_YOUR_TURN, _GAME = TITLE, "game_over", "not_your_turn", RULES
    _MOVE_TYPES = frozenset((Play, Claim, Pass))
    _parse = staticmethod(parse_move)

    def can_play(self) -> bool:
        p = self.to_move
        return self.hand_sizes[p] > 0 and any(s.room(p) for s in self.stones)

    def generate_legal_moves(self) -> list[PlainMove]:
        p, hand = self.to_move, self.hands[self.to_move]
        if self.outcome is not None:
            return []
        claims: list[PlainMove] = [
            Claim(n)
            for n, s in enumerate(self.stones, 1)
            if s.owner is None and s.complete(p) and self.holds(n, p)
        ]
        cards = hand if hand is not None else INDEX.cards_of(INDEX.everything & ~self.seen)
        plays: list[PlainMove] = [
            Play(c, n) for c in sorted(cards) for n, s in enumerate(self.stones, 1) if s.room(p)
        ]
        return claims + (plays if self.can_play() else [Pass()])

    def _apply(self, move: PlainMove, past: History[PlainMove]) -> State:
        p = self.to_move
        if isinstance(move, Pass):
            if self.can_play():
                raise illegal(move, "pass_not_allowed", "you can still play a card")
            blocked = Outcome(Termination.BLOCKED, None) if self.passes else None
            return replace(
                self, to_move=1 - p, ply=self.ply + 1, passes=1, outcome=blocked, past=past
            )
        stone = place_at(move, move.place, self.stones, "no_such_stone", "stone")
        if stone.owner is not None:
            raise illegal(move, "stone_claimed", f"stone {move.place} is already claimed")
        if isinstance(move, Claim):
            return self._claim(move, stone, past)
        hand, card = self.hands[p], move.card
        if hand is not None and card not in hand:
            raise illegal(move, "card_not_in_hand", f"{card} is not in your hand")
        if hand is None and (INDEX.mask([card]) & self.seen or not self.hand_sizes[p]):
            raise illegal(move, "card_already_played", f"{card} cannot be in your hand")
        if not stone.room(p):
            raise illegal(move, "side_full", f"your side of stone {move.place} is full")
        kept = None if hand is None else tuple(c for c in hand if c != card)
        sizes, deck = list(self.hand_sizes), self.deck
        if self.deck_size:  # draw the top card (unknown to a view)
            kept = None if kept is None or not deck else (*kept, deck[0])
            deck = None if deck is None else deck[1:]
        else:
            sizes[p] -= 1
        return replace(
            self,
            stones=replaced(self.stones, move.place - 1, stone.with_card(p, card, self.ply)),
            hands=replaced(self.hands, p, kept),
            hand_sizes=tuple(sizes),
            deck=deck,
            deck_size=max(0, self.deck_size - 1),
            to_move=1 - p,
            ply=self.ply + 1,
            passes=0,
            past=past,
        )

    def _claim(self, move: Claim, stone: Stone, past: History[PlainMove]) -> State:
        p = self.to_move
        if not stone.complete(p):
            why = f"your side of stone {move.place} is not complete"
            raise illegal(move, "formation_incomplete", why)
        if not self.holds(move.place, p):
            verdict = self.claim_verdict(move.place)
            why = f"illegal move {str(move)!r}: {describe_refusal(verdict, CARDS.from_pair)}"
            raise ClaimRefusedError("claim_not_proven", why, verdict)
        stones = replaced(self.stones, move.place - 1, replace(stone, owner=p))
        won = RULES.winner(sum(1 << i for i, s in enumerate(stones) if s.owner == p))
        outcome = None if won is None else Outcome(won, p)
        return replace(self, stones=stones, ply=self.ply + 1, passes=0, outcome=outcome, past=past)


class Format(PlainFormat[State]):
    """Records: no rules to choose; a full record's deal is ``{"deck": [10 cards]}``."""

    name, title, cards, game, place, state_type = NAME, TITLE, CARDS, RULES, Stone, State


FORMAT = Format()
new_game, playout, determinize = FORMAT.new_game, RULES.playout, RULES.determinize
ACTIONS = PlaceActions(TITLE, INDEX, STONES, (State,))
CLAIM, PASS = ACTIONS.claim, ACTIONS.pass_
ROW = RowShape(NAME, "stone", CARDS, column=64, height=48)


def draw(state: State, options: Options) -> Drawing:
    """Three stones in a row, one player's cards above, the other's below."""
    return draw_plain(state, options, ROW, TITLE)


GAME: GameDescriptor[State] = GameDescriptor(
    name=NAME,
    title=TITLE,
    format=FORMAT,
    state_type=State,
    rules_type=PlainRules,
    new_game=new_game,
    deal=FORMAT.deal,
    action_space=lambda state: ACTIONS,
    observation_high=7,
    determinize=determinize,
    deals=PlainDeals(CARDS, RULES.hand),
    picture=draw,
    playout=playout,
)
