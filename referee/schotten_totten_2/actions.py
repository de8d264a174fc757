"""Schotten Totten 2's action space: every move numbered, a legal mask, an observation.

One space serves the base game and the tactics variant (in the base game the
tactic ids are never legal). Cards are numbered as *kinds*: the 60 siege cards
in :data:`~referee.schotten_totten_2.SIEGE_CARDS` order (``R0 .. P11``), then
the 10 tactic names in :class:`~referee.schotten_totten_2.TacticCard` order
(``joker`` is 60, ``spy`` 61, ``shield`` 62; both jokers are one kind), the
first 63 being those that lie at a tile. Ids, in blocks:

==============  ============  ===========================================================
block           size          id within the block
==============  ============  ===========================================================
play            63 × 7        ``kind * 7 + tile - 1``
control         7             ``tile - 1``
retreat         127           ``sum(2 ** (tile - 1)) - 1`` over the tiles left
oil             7             ``tile - 1``
pass            1
draw            1
draw tactic     1
done            1
shuffle         1             support's shuffle, a chance ply (see below)
redeploy        63 × 7 × 8    ``(kind * 7 + source - 1) * 8 + target`` (0: discard)
recruitment     60 × 7        ``kind * 7 + tile - 1``
desertion       63 × 7        ``kind * 7 + tile - 1``
treason         63 × 7 × 7    ``(kind * 7 + source - 1) * 7 + target - 1``
explosion       7             ``tile - 1``
support         1,770         the unordered pair of siege cards
exchange        52,462        the unordered 3 cards offered
give            52,462        the unordered 3 cards given back
==============  ============  ===========================================================

Orders that carry no information are one id, written in a canonical order by
:meth:`SchottenTotten2Actions.move_of`: a retreat's tiles (increasing), the two
cards of a support (where they land is chance, whatever their order) and the 3
cards of an exchange or its answer (kind order). A pair or trio is ranked in
the combinatorial number system over its kinds (``a < b < c``: ``C(a, 1) +
C(b, 2) + C(c, 3)``); the trios use the 69 kinds other than ``exchange``, and
the 68 trios holding both jokers follow the others.

Support's shuffle is chance, not a decision (see
:meth:`~referee.schotten_totten_2.State.chance_outcomes`): it has one id, whose
move is the bare ``shuffle``. On a full state :func:`play_action` plays the
places the deal gives (the one move ``legal_moves`` lists); the environment
plays it itself, and no agent is ever asked.

    >>> from referee.schotten_totten_2 import new_game, parse_move
    >>> ACTIONS.num_actions
    114764
    >>> ACTIONS.action_of(parse_move("R0@1")), ACTIONS.action_of(parse_move("control 7"))
    (0, 447)
    >>> ACTIONS.move_of(ACTIONS.action_of(parse_move("retreat 5,2")))
    parse_move('retreat 2,5')
    >>> ACTIONS.move_of(ACTIONS.action_of(parse_move("exchange spy,B4,R7")))
    parse_move('exchange R7,B4,spy')
    >>> game = new_game(seed=1)
    >>> sum(ACTIONS.legal_action_mask(game)) == len(game.legal_moves())
    True

The observation (:meth:`SchottenTotten2Actions.observation`) is read from
``state.view(player)`` only, so it holds nothing that player may not see (not
the other hand, not the piles' order, not an offer hidden from the player
answering it); its blocks are listed in :data:`OBSERVATION_LAYOUT` (name,
start, length).
"""

from __future__ import annotations

from bisect import bisect_right
from math import comb

from referee.actions import MoveSpace, action_index
from referee.line.actions import first_complete, laid_out, observed
from referee.schotten_totten_2.moves import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Oil,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.state import Phase, State
from referee.schotten_totten_2.wall import SIEGE_CARDS, TILES, AnyCard, TacticCard

__all__ = [
    "ACTIONS",
    "KINDS",
    "OBSERVATION_LAYOUT",
    "SchottenTotten2Actions",
    "action_space",
    "play_action",
]

#: Card kinds in id order: 60 siege cards, then the tactic names (elite troops first).
KINDS: tuple[AnyCard, ...] = (*SIEGE_CARDS.cards, *TacticCard)
_KIND_OF: dict[AnyCard, int] = {card: i for i, card in enumerate(KINDS)}
_N = len(KINDS)
_SIEGE = len(SIEGE_CARDS.cards)
_ON_TILE = _SIEGE + 3  # siege cards and the elite troops
_JOKER = _KIND_OF[TacticCard.JOKER]
_EXCHANGE_KIND = _KIND_OF[TacticCard.EXCHANGE]
_TRIO_KINDS = _N - 1  # every kind but the exchange card itself (the last kind)
_ACTION_KINDS = tuple(c for c in TacticCard if not c.is_elite)

_PAIRS = comb(_SIEGE, 2)
_TRIOS = comb(_TRIO_KINDS, 3) + (_TRIO_KINDS - 1)  # distinct kinds, then joker-joker-x

# Block starts.
_PLAY = 0
_CONTROL = _PLAY + _ON_TILE * TILES
_RETREAT = _CONTROL + TILES
_OIL = _RETREAT + (1 << TILES) - 1
_PASS = _OIL + TILES
_DRAW = _PASS + 1
_DRAW_TACTIC = _DRAW + 1
_DONE = _DRAW_TACTIC + 1
_SHUFFLE = _DONE + 1
_REDEPLOY = _SHUFFLE + 1
_RECRUITMENT = _REDEPLOY + _ON_TILE * TILES * (TILES + 1)
_DESERTION = _RECRUITMENT + _SIEGE * TILES
_TREASON = _DESERTION + _ON_TILE * TILES
_EXPLOSION = _TREASON + _ON_TILE * TILES * TILES
_SUPPORT = _EXPLOSION + TILES
_OFFER = _SUPPORT + _PAIRS
_GIVE = _OFFER + _TRIOS
_NUM_ACTIONS = _GIVE + _TRIOS

_PHASES = tuple(Phase)
_SINGLETONS: dict[type, Move] = {
    Pass: Pass(),
    Draw: Draw(),
    EndTurn: EndTurn(),
}

#: The observation's blocks: (name, start, length). All entries are small
#: non-negative integers; "me" is the observing player, "opponent" the other.
OBSERVATION_LAYOUT = laid_out(
    [
        ("my hand: copies of each kind", _N),
        (
            "my side of each tile: tile-major, copies of each kind that lies at a tile",
            TILES * _ON_TILE,
        ),
        ("opponent's side of each tile: tile-major, copies of each kind", TILES * _ON_TILE),
        (
            "attacker's first card at each tile (what oil takes): tile-major, one-hot kind",
            TILES * _ON_TILE,
        ),
        ("discards: copies of each kind", _N),
        (
            "action cards played by me, by the opponent: redeploy .. exchange",
            2 * len(_ACTION_KINDS),
        ),
        ("tile damaged", TILES),
        ("my side completed first", TILES),
        ("opponent's side completed first", TILES),
        ("the exchange offer, when I see it: copies of each kind", _N),
        ("hand sizes: me, opponent", 2),
        ("tactic cards in the opponent's hand", 1),
        ("cards in the siege deck, in the tactic pile", 2),
        ("tactic cards played: me, opponent", 2),
        ("oil cauldrons left", 1),
        ("I am the attacker", 1),
        ("it is my turn (the player answering an exchange moves)", 1),
        ("phase, one-hot: " + ", ".join(p.value for p in _PHASES), len(_PHASES)),
        ("last siege card drawn, attacker's last turn, late control", 3),
        ("rules: tactics", 1),
    ]
)
_OBSERVATION_SIZE = sum(length for _, _, length in OBSERVATION_LAYOUT)
_AT = {name.split(":")[0]: start for name, start, _length in OBSERVATION_LAYOUT}

# Ranking unordered pairs and trios (combinatorial number system).
_C2 = [comb(x, 2) for x in range(_N + 1)]
_C3 = [comb(x, 3) for x in range(_N + 1)]


def _rank_pair(a: int, b: int) -> int:
    return a + _C2[b]


def _unrank_pair(rank: int) -> tuple[int, int]:
    b = bisect_right(_C2, rank) - 1
    return rank - _C2[b], b


def _rank_trio(kinds: list[int]) -> int | None:
    """The rank of 3 trio kinds (sorted), ``None`` if no trio has them."""
    a, b, c = kinds
    if a == b or b == c:
        if a == b == _JOKER and c != _JOKER:
            return _C3[_TRIO_KINDS] + c - 1
        if b == c == _JOKER and a != _JOKER:
            return _C3[_TRIO_KINDS] + a
        return None
    return a + _C2[b] + _C3[c]


def _unrank_trio(rank: int) -> tuple[int, int, int]:
    if rank >= _C3[_TRIO_KINDS]:
        other = rank - _C3[_TRIO_KINDS]
        other += other >= _JOKER
        return tuple(sorted((_JOKER, _JOKER, other)))  # type: ignore[return-value]
    c = bisect_right(_C3, rank) - 1
    rank -= _C3[c]
    b = bisect_right(_C2, rank) - 1
    return rank - _C2[b], b, c


def _no_id(move: object, why: str) -> ValueError:
    return ValueError(f"move {str(move)!r} has no action id: {why}")


def _kind(move: object, card: AnyCard, limit: int = _N) -> int:
    kind = _KIND_OF.get(card)
    if kind is None or kind >= limit:
        what = {_ON_TILE: "a card that lies at a tile", _SIEGE: "a siege card"}.get(limit, "a card")
        raise _no_id(move, f"{card} is not {what}")
    return kind


def _tile(move: object, number: int) -> int:
    if not 1 <= number <= TILES:
        raise _no_id(move, f"there is no tile {number}")
    return number - 1


def _trio(move: Exchange | ExchangeReply) -> int:
    kinds = sorted(_kind(move, card) for card in move.give)
    if _EXCHANGE_KIND in kinds:
        raise _no_id(move, "the exchange card is never exchanged")
    rank = _rank_trio(kinds)
    if rank is None:
        raise _no_id(move, "a card named twice (only the joker has two copies)")
    return rank


def _turn_action(move: object) -> int | None:
    """The id of a move of the turn that lays no card (control, the opening
    actions, pass, the draws, the end of the turn, support's shuffle), or ``None``."""
    if isinstance(move, Control):
        return _CONTROL + _tile(move, move.tile)
    if isinstance(move, Retreat):
        return _RETREAT + sum(1 << _tile(move, n) for n in move.tiles) - 1
    if isinstance(move, Oil):
        return _OIL + _tile(move, move.tile)
    if isinstance(move, Pass):
        return _PASS
    if isinstance(move, Draw):
        return _DRAW if move.pile == "siege" else _DRAW_TACTIC
    if isinstance(move, EndTurn):
        return _DONE
    if isinstance(move, Shuffle):
        return _SHUFFLE
    return None


def _action_card_action(move: object) -> int | None:
    """The id of an action card's move (redeploy .. exchange, and the answer to
    an exchange), or ``None``."""
    if isinstance(move, Redeploy):
        kind = _kind(move, move.card, _ON_TILE)
        target = 0 if move.target is None else _tile(move, move.target) + 1
        return _REDEPLOY + (kind * TILES + _tile(move, move.source)) * (TILES + 1) + target
    if isinstance(move, Recruitment):
        return _RECRUITMENT + _kind(move, move.card, _SIEGE) * TILES + _tile(move, move.tile)
    if isinstance(move, Desertion):
        return _DESERTION + _kind(move, move.card, _ON_TILE) * TILES + _tile(move, move.tile)
    if isinstance(move, Treason):
        kind = _kind(move, move.card, _ON_TILE)
        source, target = _tile(move, move.source), _tile(move, move.target)
        return _TREASON + (kind * TILES + source) * TILES + target
    if isinstance(move, Explosion):
        return _EXPLOSION + _tile(move, move.tile)
    if isinstance(move, Support):
        a, b = sorted(_kind(move, card, _SIEGE) for card in move.cards)
        if a == b:
            raise _no_id(move, "support takes two different cards")
        return _SUPPORT + _rank_pair(a, b)
    if isinstance(move, Exchange):
        return _OFFER + _trio(move)
    if isinstance(move, ExchangeReply):
        return _GIVE + _trio(move)
    return None


class SchottenTotten2Actions(MoveSpace):
    """The action space (see the module's table); use the shared :data:`ACTIONS`.
    Its ``rewards`` and ``legal_action_mask`` are :class:`referee.actions.MoveSpace`'s
    (a mask is all 0 where the mover's hand is hidden, but at a chance ply)."""

    num_actions: int = _NUM_ACTIONS
    observation_size: int = _OBSERVATION_SIZE
    observation_layout = OBSERVATION_LAYOUT
    game = "Schotten Totten 2"
    #: A view (``state.view(player)``) is a :class:`State` too.
    state_types: tuple[type, ...] = (State,)

    def mover_decides(self, state: State) -> bool:
        """Whether the mover's moves can be told: its hand is known, or the ply
        is chance (the shuffle's one id)."""
        return state.hands[state.to_move] is not None or state.is_chance_node()

    def action_of(self, move: Move | object) -> int:
        """The id of ``move``; ``ValueError`` for a move with no id (a card
        that cannot be where the move puts it, a tile out of range)."""
        if isinstance(move, PlayCard):
            return _PLAY + _kind(move, move.card, _ON_TILE) * TILES + _tile(move, move.tile)
        action = _turn_action(move)
        if action is None:
            action = _action_card_action(move)
        if action is None:
            raise ValueError(f"{move!r} is not a Schotten Totten 2 move")
        return action

    def play(self, state: State, action: int) -> State:
        """The state after the move with id ``action``; the shuffle's id plays
        the places the deal gives (see :func:`play_action`)."""
        self.check(state)
        return play_action(state, action)

    def move_of(self, action: int) -> Move:
        """The move with id ``action`` (unordered parts in canonical order; the
        shuffle id gives the bare ``shuffle``: see :func:`play_action`)."""
        action = action_index(action, _NUM_ACTIONS)
        if action < _CONTROL:
            kind, tile = divmod(action - _PLAY, TILES)
            return PlayCard(KINDS[kind], tile + 1)
        if action < _RETREAT:
            return Control(action - _CONTROL + 1)
        if action < _OIL:
            bits = action - _RETREAT + 1
            return Retreat(tuple(n + 1 for n in range(TILES) if bits >> n & 1))
        if action < _PASS:
            return Oil(action - _OIL + 1)
        if action < _REDEPLOY:
            return (Pass(), Draw(), Draw("tactic"), EndTurn(), Shuffle())[action - _PASS]
        if action < _RECRUITMENT:
            rest, target = divmod(action - _REDEPLOY, TILES + 1)
            kind, source = divmod(rest, TILES)
            return Redeploy(KINDS[kind], source + 1, target or None)
        if action < _DESERTION:
            kind, tile = divmod(action - _RECRUITMENT, TILES)
            return Recruitment(KINDS[kind], tile + 1)
        if action < _TREASON:
            kind, tile = divmod(action - _DESERTION, TILES)
            return Desertion(KINDS[kind], tile + 1)
        if action < _EXPLOSION:
            rest, target = divmod(action - _TREASON, TILES)
            kind, source = divmod(rest, TILES)
            return Treason(KINDS[kind], source + 1, target + 1)
        if action < _SUPPORT:
            return Explosion(action - _EXPLOSION + 1)
        if action < _OFFER:
            a, b = _unrank_pair(action - _SUPPORT)
            return Support((KINDS[a], KINDS[b]))
        cls = Exchange if action < _GIVE else ExchangeReply
        a, b, c = _unrank_trio(action - (_OFFER if action < _GIVE else _GIVE))
        return cls((KINDS[a], KINDS[b], KINDS[c]))

    def observation(self, state: State, player: int) -> tuple[int, ...]:
        """What ``player`` sees, as :data:`OBSERVATION_LAYOUT` lays it out.

        Read from ``state.view(player)`` alone: two states with the same view
        give the same observation.
        """
        view, player, opponent, out = observed(self, state, player, _KIND_OF)
        kind_of = _KIND_OF
        mine, theirs, first = (
            _AT["my side of each tile"],
            _AT["opponent's side of each tile"],
            _AT["attacker's first card at each tile (what oil takes)"],
        )
        done_mine, done_theirs = (
            _AT["my side completed first"],
            _AT["opponent's side completed first"],
        )
        damaged = _AT["tile damaged"]
        for i, tile in enumerate(view.tiles):
            at = i * _ON_TILE
            for card in tile.sides[player]:
                out[mine + at + kind_of[card]] += 1
            for card in tile.sides[opponent]:
                out[theirs + at + kind_of[card]] += 1
            attacking = tile.sides[view.attacker]
            if attacking:
                out[first + at + kind_of[attacking[0]]] = 1
            out[damaged + i] = int(tile.damaged)
            out[done_mine + i], out[done_theirs + i] = first_complete(tile.completed, player)
        at = _AT["discards"]
        for card in view.discards:
            out[at + kind_of[card]] += 1
        at = _AT["action cards played by me, by the opponent"]
        for side, who in enumerate((player, opponent)):
            for card in view.actions[who]:
                out[at + side * len(_ACTION_KINDS) + _ACTION_KINDS.index(card)] += 1
        at = _AT["the exchange offer, when I see it"]
        for card in view.exchange or ():
            out[at + kind_of[card]] += 1
        tail = [
            view.hand_sizes[player],
            view.hand_sizes[opponent],
            view.tactics_in_hand(opponent),
            view.deck_size,
            view.tactic_deck_size,
            view.tactics_played[player],
            view.tactics_played[opponent],
            view.oil,
            int(view.attacker == player),
            int(view.to_move == player),
            *(int(view.phase is phase) for phase in _PHASES),
            int(view.exhausted),
            int(view.final_turn),
            int(view.late_control),
            int(view.rules.tactics),
        ]
        out[_AT["hand sizes"] :] = tail
        return tuple(out)


#: The Schotten Totten 2 action space.
ACTIONS = SchottenTotten2Actions()


def play_action(state: State, action: int) -> State:
    """The state after the move with id ``action``; at a chance ply (the shuffle
    id) the places the deal gives on a full state, as ``legal_moves`` lists.

    >>> from referee.schotten_totten_2 import new_game
    >>> game = new_game(seed=1)
    >>> play_action(game, ACTIONS.action_of(game.legal_moves()[0])).ply
    1
    """
    if action == _SHUFFLE and state.is_chance_node():
        return state.play(state.generate_legal_moves()[0])
    return state.play(ACTIONS.move_of(action))


def action_space(state: State) -> SchottenTotten2Actions:
    """The action space of ``state`` (one for both rule sets), as every game's
    ``actions`` module gives it.

    >>> from referee.schotten_totten_2 import new_game
    >>> action_space(new_game(seed=1)) is ACTIONS
    True
    """
    return ACTIONS
