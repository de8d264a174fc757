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
Every shared rule is the kernel's: the stone with its completion plies, the
claim rule over masks, the prover's verdict for evidence, the winning
patterns, the playout's choices, the records, the deal questions, the picture.
"""

from __future__ import annotations

import random
import re
from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from referee.actions import MoveSpace
from referee.cards import Card, CardSet, InvalidCardError
from referee.deals import DealAnswer, DealProblem, Draw, Spend
from referee.errors import ClaimRefusedError, InvalidMoveError
from referee.formations import FormationRule
from referee.game import NO_HISTORY, History, Outcome, Termination, check_player, check_rng
from referee.games import GameDescriptor
from referee.line import LineState, illegal, place_at, replaced
from referee.line.cards import CardIndex
from referee.line.claims import describe_refusal, plain_verdict, verdict_at
from referee.line.deals import dealt, with_deal
from referee.line.picture import frame, hand_row, side_labels
from referee.line.place import Place
from referee.line.playout import Policy, choose, ply_limit, winner_pattern
from referee.line.records import LineFormat, player_index
from referee.line.records import playout as random_moves
from referee.prover import ClaimVerdict, Piece, Pool
from referee.records import ClaimAnswer, Match, Position, Record, RecordError
from referee.svg import _CARD_W, _MARGIN, _TITLE_H, PLAYER_COLOURS, _side, _status

NAME, TITLE = "three-stones", "Three Stones"
CARDS = CardSet("RB", ("red", "blue"), range(1, 6))
INDEX = CardIndex(CARDS)
FORMATION = FormationRule(2)
STONES, HAND = 3, 2


@dataclass(frozen=True)
class Rules:
    """The one set of rules (the kernel's records and views ask for these two)."""

    hand_size: int = HAND
    tactics: bool = False


# --- moves ----------------------------------------------------------------------------


class Play(NamedTuple):
    card: Card
    stone: int

    def __str__(self) -> str:
        return f"{self.card}@{self.stone}"


class Claim(NamedTuple):
    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"


class Pass(NamedTuple):
    def __str__(self) -> str:
        return "pass"


Move = Play | Claim | Pass
_MOVE = re.compile(r"([A-Z]\d+)@(\d)|claim (\d)|(pass)")


def parse_move(text: str) -> Move:
    """A move from its text: ``R3@2``, ``claim 2`` or ``pass``."""
    found = _MOVE.fullmatch(str(text).strip())
    if found is None:
        raise InvalidMoveError(f"malformed move {text!r}: write R3@2, claim 2 or pass")
    card, stone, claimed, _ = found.groups()
    if claimed:
        return Claim(int(claimed))
    if stone is None:
        return Pass()
    try:
        return Play(CARDS.parse(card), int(stone))
    except InvalidCardError as error:
        raise InvalidMoveError(f"malformed move {text!r}: {error}") from None


# --- the position ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stone(Place):
    owner: int | None = None
    _INDEX = INDEX

    @property
    def rule(self) -> FormationRule:
        return FORMATION

    def room(self, player: int) -> bool:
        return self.owner is None and len(self.sides[player]) < self.size

    def _remade(self, sides: Any, completed: Any, masks: Any) -> Stone:
        return Stone(sides, completed, self.owner)


def _pieces(side: Iterable[Card]) -> list[Piece]:
    return [INDEX.pairs[INDEX.ids[c]] for c in side]


def proved(mine: int, theirs: int, count: int, at: tuple[int, int], seen: int) -> tuple[bool, int]:
    """The claim rule (the kernel's, over masks) for a complete side ``mine``
    against ``theirs`` of ``count`` cards; ``at`` are the sides' completion plies
    (-1: incomplete). What the state and the playout both ask."""
    first = 0 <= at[0] < at[1]
    return plain_verdict(
        INDEX, FORMATION, INDEX.rank_of(mine, FORMATION), theirs, count, first, seen
    )


@dataclass(frozen=True, slots=True)
class State(LineState[Move]):
    """A position of Three Stones (views hide the other hand and the pile as ``None``)."""

    rules: Rules = Rules()
    stones: tuple[Stone, ...] = (Stone(),) * STONES
    hands: tuple[tuple[Card, ...] | None, ...] = ((), ())
    hand_sizes: tuple[int, ...] = (0, 0)
    deck: tuple[Card, ...] | None = ()
    deck_size: int = 0
    tactic_deck: tuple[()] | None = ()  # the kernel's deals and views write these two
    tactic_deck_size: int = 0
    to_move: int = 0
    ply: int = 0
    passes: int = 0
    outcome: Outcome | None = None
    past: History[Move] = field(default=NO_HISTORY, compare=False, repr=False)

    _NAME, _GAME_OVER, _NOT_YOUR_TURN = TITLE, "game_over", "not_your_turn"
    _MOVE_TYPES = frozenset((Play, Claim, Pass))
    _parse = staticmethod(parse_move)

    @property
    def seen(self) -> int:
        """The mask of the cards on the stones (the only visible ones)."""
        return sum(s.masks[0] | s.masks[1] for s in self.stones)

    def tactics_in_hand(self, player: int) -> int:
        return 0  # the kernel's picture asks; there are no tactic cards

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def view(self, player: int | None) -> State:
        return self._viewed(player)

    def can_play(self) -> bool:
        p = self.to_move
        return self.hand_sizes[p] > 0 and any(s.room(p) for s in self.stones)

    def holds(self, number: int, player: int) -> bool:
        """Whether ``player``'s complete side at stone ``number`` can be claimed
        now (the verdict kept on the stone while it stands)."""
        stone, seen = self.stones[number - 1], self.seen
        kept = stone.kept.answer(player, seen)
        if kept is None:
            done = [-1 if at is None else at for at in stone.completed]
            other = 1 - player
            answer = proved(
                stone.masks[player],
                stone.masks[other],
                len(stone.sides[other]),
                (done[player], done[other]),
                seen,
            )
            stone.kept.verdicts[player] = answer
            kept = answer[0]
        return kept

    def claim_verdict(self, number: int, *, player: int | None = None) -> ClaimVerdict:
        """The prover's verdict, with its evidence (``ValueError``: side incomplete)."""
        claimant = self.to_move if player is None else check_player(player, 2)
        seen = self.seen
        pool = Pool([INDEX.pairs[i] for i in range(len(CARDS.cards)) if not seen >> i & 1])
        stone = place_at(f"claim {number}", number, self.stones, "no_such_stone", "stone")
        return verdict_at(stone, claimant, pieces=_pieces, pool=pool, colours=2)

    def generate_legal_moves(self) -> list[Move]:
        p, hand = self.to_move, self.hands[self.to_move]
        if self.outcome is not None:
            return []
        claims: list[Move] = [
            Claim(n)
            for n, s in enumerate(self.stones, 1)
            if s.owner is None and s.complete(p) and self.holds(n, p)
        ]
        cards = hand if hand is not None else INDEX.cards_of(INDEX.everything & ~self.seen)
        plays: list[Move] = [
            Play(c, n) for c in sorted(cards) for n, s in enumerate(self.stones, 1) if s.room(p)
        ]
        return claims + (plays if self.can_play() else [Pass()])

    def _apply(self, move: Move, past: History[Move]) -> State:
        p = self.to_move
        if isinstance(move, Pass):
            if self.can_play():
                raise illegal(move, "pass_not_allowed", "you can still play a card")
            blocked = Outcome(Termination.BLOCKED, None) if self.passes else None
            return replace(
                self, to_move=1 - p, ply=self.ply + 1, passes=1, outcome=blocked, past=past
            )
        stone = place_at(move, move.stone, self.stones, "no_such_stone", "stone")
        if stone.owner is not None:
            raise illegal(move, "stone_claimed", f"stone {move.stone} is already claimed")
        if isinstance(move, Claim):
            return self._claim(move, stone, past)
        hand, card = self.hands[p], move.card
        if hand is not None and card not in hand:
            raise illegal(move, "card_not_in_hand", f"{card} is not in your hand")
        if hand is None and (INDEX.mask([card]) & self.seen or not self.hand_sizes[p]):
            raise illegal(move, "card_already_played", f"{card} cannot be in your hand")
        if not stone.room(p):
            raise illegal(move, "side_full", f"your side of stone {move.stone} is full")
        kept = None if hand is None else tuple(c for c in hand if c != card)
        sizes, deck = list(self.hand_sizes), self.deck
        if self.deck_size:  # draw the top card (unknown to a view)
            kept = None if kept is None or not deck else (*kept, deck[0])
            deck = None if deck is None else deck[1:]
        else:
            sizes[p] -= 1
        return replace(
            self,
            stones=replaced(self.stones, move.stone - 1, stone.with_card(p, card, self.ply)),
            hands=replaced(self.hands, p, kept),
            hand_sizes=tuple(sizes),
            deck=deck,
            deck_size=max(0, self.deck_size - 1),
            to_move=1 - p,
            ply=self.ply + 1,
            passes=0,
            past=past,
        )

    def _claim(self, move: Claim, stone: Stone, past: History[Move]) -> State:
        p = self.to_move
        if not stone.complete(p):
            raise illegal(
                move, "formation_incomplete", f"your side of stone {move.stone} is not complete"
            )
        if not self.holds(move.stone, p):
            verdict = self.claim_verdict(move.stone)
            why = describe_refusal(verdict, CARDS.from_pair)
            raise ClaimRefusedError(
                "claim_not_proven", f"illegal move {str(move)!r}: {why}", verdict
            )
        stones = replaced(self.stones, move.stone - 1, replace(stone, owner=p))
        owned = sum(1 << i for i, s in enumerate(stones) if s.owner == p)
        won = winner_pattern(owned, adjacent=2, total=2)
        outcome = None if won is None else Outcome(won, p)
        return replace(self, stones=stones, ply=self.ply + 1, passes=0, outcome=outcome, past=past)

    def _render(self) -> str:
        status = self.outcome.result() if self.outcome else f"player {self.to_move + 1} to move"
        lines = [f"{TITLE}, ply {self.ply}: {status}"]
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


def new_game(
    *, seed: int | None = None, deck: Sequence[Card] | None = None, first: int = 0
) -> State:
    """A game from a seed (shuffled) or a deck order (two cards to each player, then the pile)."""
    order = list(CARDS.cards)
    if deck is None:
        random.Random(seed).shuffle(order)
    elif sorted(deck) != sorted(order):
        raise ValueError(f"a deck is the ten cards R1-R5 B1-B5, not {[str(c) for c in deck]}")
    else:
        order = list(deck)
    return State._dealt(Rules(), order, (), to_move=check_player(first, 2))


def determinize(view: State, rng: random.Random) -> State:
    """A full state the viewer cannot tell from its view: the hidden cards dealt at random."""
    check_rng(rng)
    if view.hands[0] is None and view.hands[1] is None:
        raise ValueError("determinize needs a player's view (it holds one hand), not a spectator's")
    mine = 0 if view.hands[0] is not None else 1
    hidden = list(
        INDEX.cards_of(INDEX.everything & ~view.seen & ~INDEX.mask(view.hands[mine] or ()))
    )
    rng.shuffle(hidden)
    theirs = tuple(sorted(hidden[: view.hand_sizes[1 - mine]]))
    return replace(
        view, hands=replaced(view.hands, 1 - mine, theirs), deck=tuple(hidden[len(theirs) :])
    )


# --- records, deals, action ids ---------------------------------------------------------


class Format(LineFormat[State]):
    """Records: no rules to choose; a full record's deal is ``{"deck": [10 cards]}``."""

    name, title, cards = NAME, TITLE, CARDS

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        return {}

    def start(self, record: Record) -> State:
        where, deal = record.where, record.deal
        if record.rules:
            raise RecordError("Three Stones has no rules to choose", where, "rules")
        first = player_index(record.first, where, "first")
        if deal is None:
            return State._hidden_deal(Rules(), len(CARDS.cards), 0, to_move=first)
        if set(deal) != {"deck"} or not isinstance(deal["deck"], list):
            raise RecordError("a full record's deal is {'deck': [10 cards]}", where, "deal")
        try:
            return new_game(deck=[CARDS.parse(str(c)) for c in deal["deck"]], first=first)
        except ValueError as error:
            raise RecordError(str(error), where, "deal.deck") from None

    def position_of(self, state: State) -> Position:
        stones = [
            {
                "sides": [[str(c) for c in side] for side in s.sides],
                "completed": [*s.completed],
                "owner": s.owner,
            }
            for s in state.stones
        ]
        data = {
            "stones": stones,
            "to_move": state.to_move,
            "ply": state.ply,
            "passes": state.passes,
            "hand_sizes": [*state.hand_sizes],
            "deck_size": state.deck_size,
        }
        return Position(NAME, data, {})

    def load_position(self, position: Position) -> State:
        data = position.data
        try:
            stones = tuple(
                Stone(
                    tuple(tuple(map(CARDS.parse, side)) for side in s["sides"]),
                    tuple(s["completed"]),
                    s["owner"],
                )
                for s in data["stones"]
            )
            fields = {k: data[k] for k in ("to_move", "ply", "passes", "deck_size")}
            state = State(
                stones=stones,
                hands=(None, None),
                hand_sizes=tuple(data["hand_sizes"]),
                deck=None,
                **fields,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(
                f"not a Three Stones position: {error!r}", position.where, "stones"
            ) from None
        return state

    def claimability(self, state: State) -> list[ClaimAnswer]:
        answers = []
        for n, stone in enumerate(state.stones, 1):
            for p in (0, 1) if stone.owner is None else ():
                if not stone.complete(p):
                    answers.append(
                        ClaimAnswer(n, p, None, "formation incomplete", label=f"stone {n}")
                    )
                    continue
                verdict = state.claim_verdict(n, player=p)
                evidence = self.describe_verdict(state, verdict)
                answers.append(
                    ClaimAnswer(
                        n, p, verdict.holds, self._evidence(verdict), evidence, f"stone {n}"
                    )
                )
        return answers

    def match_result(self, match: Match, finals: Sequence[State]) -> tuple[None, str]:
        return None, "Three Stones has no matches"

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        rng = random.Random(seed)
        state = _deal(rng, rules)
        for move in random_moves(state, rng, 100, Claim):
            state = state.play(move)
        return state.to_record()

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        raise RecordError("Three Stones has no matches", "", "rules.rounds")


FORMAT = Format()


class Deals:
    """The deal question of a public record: each card played came from its
    player's hand, and every play draws while the pile has cards."""

    @staticmethod
    def problem(record: Record, upto: int | None = None) -> DealProblem:
        piles, events = dealt("deck", CARDS.cards, None, HAND)
        player, pile = (1 if record.first == 1 else 0), len(CARDS.cards) - 2 * HAND
        for ply, text in enumerate(record.moves[:upto], 1):
            move = parse_move(text)
            if type(move) is Play:
                events.append(Spend(ply, player, str(move.card)))
                if pile:
                    events.append(Draw(ply, player, "deck"))
                    pile -= 1
            player = player if type(move) is Claim else 1 - player
        return DealProblem(piles, tuple(events))

    @staticmethod
    def full_record(record: Record, answer: DealAnswer) -> Record:
        return with_deal(record, answer, "deck", record.moves)


#: Action ids: card ``c`` to stone ``s`` is ``3c + s`` (stones from 0), then the claims, then pass.
CLAIM = len(CARDS.cards) * STONES
PASS = CLAIM + STONES


class Actions(MoveSpace):
    """The observation: where each card is as its player sees it (0 unseen,
    1 in hand, 2 + 2s on its own side of stone s, 3 + 2s on the other), each
    stone's owner (0 none, 1 the player, 2 the other), the pile's size."""

    num_actions, observation_size, game, state_types = PASS + 1, 14, TITLE, (State,)
    observation_layout: tuple[tuple[str, int, int], ...] = (
        ("cards", 0, 10),
        ("owners", 10, 3),
        ("pile", 13, 1),
    )

    def action_of(self, move: Any) -> int:
        if type(move) is Play:
            return INDEX.ids[move.card] * STONES + move.stone - 1
        return CLAIM + move.stone - 1 if type(move) is Claim else PASS

    def move_of(self, action: int) -> Move:
        if type(action) is not int or not 0 <= action <= PASS:
            raise ValueError(f"no action {action!r}: ids are 0-{PASS}")
        if action < CLAIM:
            return Play(INDEX.cards[action // STONES], action % STONES + 1)
        return Claim(action - CLAIM + 1) if action < PASS else Pass()

    def observation(self, state: Any, player: int) -> tuple[int, ...]:
        self.check(state)
        where = [0] * len(CARDS.cards)
        for card in state.hands[player] or ():
            where[INDEX.ids[card]] = 1
        for s, stone in enumerate(state.stones):
            for side, cards in enumerate(stone.sides):
                for card in cards:
                    where[INDEX.ids[card]] = 2 + 2 * s + (side != player)
        owners = [0 if s.owner is None else 1 + (s.owner != player) for s in state.stones]
        return (*where, *owners, state.deck_size)


ACTIONS = Actions()


# --- the playout: the same rules on integers ------------------------------------------


class Table:
    """A full position on integers, changed in place: ``sides[2s + p]`` masks,
    ``hands`` ids (increasing), ``deck`` ids (top last)."""

    def __init__(self, state: State) -> None:
        if state.hands[0] is None or state.hands[1] is None or state.deck is None:
            raise ValueError("a playout needs a full state: determinize a view first")
        self.hands = [sorted(INDEX.ids[c] for c in h or ()) for h in state.hands]
        self.deck = [INDEX.ids[c] for c in reversed(state.deck)]
        stones = state.stones
        self.sides = [s.masks[p] for s in stones for p in (0, 1)]
        self.counts = [len(s.sides[p]) for s in stones for p in (0, 1)]
        self.done = [-1 if at is None else at for s in stones for at in s.completed]
        self.owners = [-1 if s.owner is None else s.owner for s in stones]
        self.to_move, self.ply, self.passes, self.outcome = (
            state.to_move,
            state.ply,
            state.passes,
            state.outcome,
        )

    def legal(self) -> list[int]:
        """The legal action ids, increasing (``State.generate_legal_moves``)."""
        p, seen, sides, counts = self.to_move, sum(self.sides), self.sides, self.counts
        open_ = [s for s in range(STONES) if self.owners[s] < 0 and counts[2 * s + p] < 2]
        plays = [c * STONES + s for c in self.hands[p] for s in open_]
        claims = [
            CLAIM + s
            for s in range(STONES)
            if self.owners[s] < 0
            and counts[2 * s + p] == 2
            and proved(
                sides[2 * s + p],
                sides[2 * s + 1 - p],
                counts[2 * s + 1 - p],
                (self.done[2 * s + p], self.done[2 * s + 1 - p]),
                seen,
            )[0]
        ]
        return plays + claims + ([] if plays else [PASS])

    def play(self, action: int) -> None:
        """Play a legal action (``State.play``, on integers)."""
        p = self.to_move
        if action < CLAIM:
            card, s = divmod(action, STONES)
            self.hands[p].remove(card)
            self.sides[2 * s + p] |= 1 << card
            self.counts[2 * s + p] += 1
            if self.counts[2 * s + p] == 2:
                self.done[2 * s + p] = self.ply
            if self.deck:
                insort(self.hands[p], self.deck.pop())
        elif action < PASS:
            self.owners[action - CLAIM] = p
            won = winner_pattern(sum(1 << s for s in range(STONES) if self.owners[s] == p), 2, 2)
            self.outcome = None if won is None else Outcome(won, p)
        elif self.passes:
            self.outcome = Outcome(Termination.BLOCKED, None)
        self.ply += 1
        self.passes = int(action == PASS)
        self.to_move = p if CLAIM <= action < PASS else 1 - p


def playout(
    state: State,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    max_plies: int | None = None,
    trace: list[int] | None = None,
) -> Outcome:
    """``state`` played to its end: by default each provable stone claimed
    (the lowest first), else a uniform choice (:func:`referee.line.playout.choose`)."""
    check_rng(rng)
    table = Table(state)
    plies = 0
    while table.outcome is None:
        if plies == max_plies:
            return ply_limit()
        legal = table.legal()
        claims = [a for a in legal if CLAIM <= a < PASS]
        action = claims[0] if claims and policy is None else choose(legal, rng, table, policy)
        if trace is not None:
            trace.append(action)
        table.play(action)
        plies += 1
    return table.outcome


# --- the picture and the descriptor -------------------------------------------------------


def draw(state: State, options: Any) -> Any:
    """Three stones in a row, one player's cards above, the other's below."""
    bottom = 1 if options.perspective is None else options.perspective
    top, column, stone_h = 1 - bottom, 64, 48
    status = _status(options, state.outcome, state.to_move)
    canvas, width, left, side_h = frame(
        state,
        options,
        TITLE,
        status,
        places=STONES,
        column=column,
        deepest=2,
        players=(top, bottom),
        game=NAME,
        place_h=stone_h,
    )
    y = hand_row(canvas, options, state, top, _MARGIN + _TITLE_H, CARDS, "hand")
    stone_y = y + side_h
    side_labels(canvas, options, [(top, y + side_h / 2), (bottom, stone_y + stone_h + side_h / 2)])
    for n, stone in enumerate(state.stones, 1):
        x = left + (n - 1) * column
        canvas.open(class_="stone", data_stone=n, data_owner=stone.owner)
        _side(canvas, x + (column - _CARD_W) / 2, stone_y, stone.sides[top], -1, CARDS)
        _side(canvas, x + (column - _CARD_W) / 2, stone_y + stone_h, stone.sides[bottom], 1, CARDS)
        fill = "#bdb7aa" if stone.owner is None else PLAYER_COLOURS[stone.owner]
        canvas.rect(x + 4, stone_y + 3, column - 8, stone_h - 6, rx=12, fill=fill)
        canvas.text(x + column / 2, stone_y + 30, n, size=16, weight="bold")
        canvas.close()
    y = hand_row(canvas, options, state, bottom, stone_y + stone_h + side_h, CARDS, "hand") + 18
    canvas.text(_MARGIN, y, f"pile {state.deck_size}", size=11, anchor="start")
    return canvas.finish(width, y + _MARGIN, NAME)


def _deal(rng: random.Random, rules: Mapping[str, Any]) -> State:
    if rules:
        raise RecordError("Three Stones has no rules to choose", "", "rules")
    return new_game(seed=rng.getrandbits(32))


GAME: GameDescriptor[State] = GameDescriptor(
    name=NAME,
    title=TITLE,
    format=FORMAT,
    state_type=State,
    rules_type=Rules,
    new_game=new_game,
    deal=_deal,
    action_space=lambda state: ACTIONS,
    observation_high=7,
    determinize=determinize,
    deals=Deals(),
    picture=draw,
    playout=playout,
)
