"""Schotten Totten's action space: every move numbered, a legal mask, an observation.

One space serves the base game and the tactics variant (in the base game the
tactic ids are never legal). Cards are numbered as *kinds*: the 54 clan cards
in :data:`~referee.schotten_totten.CLAN_CARDS` order (``R1 .. P9``), then the 9
tactic names (both jokers are one kind). Ids, in blocks:

==============  ===========  =====================================================
block           size         id within the block
==============  ===========  =====================================================
play            63 × 9       ``kind * 9 + stone - 1``
claim           9            ``stone - 1``
pass            1
draw            1            ``draw`` (base game)
draw clan       1
draw tactic     1
done            1
banshee         63 × 9       ``kind * 9 + stone - 1``
traitor         54 × 9 × 9   ``(kind * 9 + source - 1) * 9 + target - 1``
strategist      63 × 9 × 10  ``(kind * 9 + source - 1) * 10 + target`` (0: discard)
recruiter       10           ``draws``
return          2079         ``returns``
==============  ===========  =====================================================

The recruiter is two decisions, as it is two plies: its draws, a mix of clan and
tactic draws (10 mixes of at most three, in :data:`RECRUIT_DRAWS` order), then,
with the drawn cards in hand, the cards it puts back (``return ...``): an
*unordered* set of one or two kinds (one kind, or a pair ``i <= j``, in
:data:`RETURNS` order). Which of two cards goes back under a pile first is not a
decision worth its own id, so :meth:`SchottenTottenActions.move_of` writes them
in kind order. The older one-move form (``recruiter draw ... return ...``) that
records may still use has no id.

    >>> from referee.schotten_totten import new_game, parse_move
    >>> ACTIONS.num_actions
    13281
    >>> ACTIONS.action_of(parse_move("R1@1")), ACTIONS.action_of(parse_move("claim 9"))
    (0, 575)
    >>> ACTIONS.move_of(575)
    parse_move('claim 9')
    >>> ACTIONS.move_of(ACTIONS.action_of(parse_move("recruiter draw tactic clan clan")))
    parse_move('recruiter draw clan clan tactic')
    >>> ACTIONS.move_of(ACTIONS.action_of(parse_move("return spy R7")))
    parse_move('return R7 spy')
    >>> game = new_game(seed=1)
    >>> sum(ACTIONS.legal_action_mask(game)) == len(game.legal_moves())
    True

The observation (:meth:`SchottenTottenActions.observation`) is read from
``state.view(player)`` only, so it holds nothing that player may not see; its
blocks are listed in :data:`OBSERVATION_LAYOUT` (name, start, length).
"""

from __future__ import annotations

from referee.actions import MoveSpace, action_index
from referee.line.actions import first_complete, laid_out, observed
from referee.schotten_totten.moves import (
    Banshee,
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
)
from referee.schotten_totten.state import CLAN_CARDS, STONES, Phase, State
from referee.schotten_totten.tactics import TACTIC_NAMES, AnyCard, Tactic

__all__ = [
    "ACTIONS",
    "KINDS",
    "OBSERVATION_LAYOUT",
    "RECRUIT_DRAWS",
    "RETURNS",
    "SchottenTottenActions",
    "action_space",
]

#: Card kinds in id order: 54 clan cards, then one of each tactic name.
KINDS: tuple[AnyCard, ...] = (*CLAN_CARDS.cards, *(Tactic(n) for n in TACTIC_NAMES))
_KIND_OF = {card: i for i, card in enumerate(KINDS)}
_N = len(KINDS)
_CLANS = len(CLAN_CARDS.cards)

#: The recruiter's draw mixes (clan draws, tactic draws), in id order.
RECRUIT_DRAWS: tuple[tuple[int, int], ...] = tuple(
    (c, t) for total in range(4) for c in range(total, -1, -1) for t in (total - c,)
)
_DRAWS_AT = {mix: i for i, mix in enumerate(RECRUIT_DRAWS)}
#: The recruiter's returns, in id order: one kind, or an unordered pair of kinds (i <= j).
RETURNS: tuple[tuple[int, ...], ...] = (
    *((i,) for i in range(_N)),
    *((i, j) for i in range(_N) for j in range(i, _N)),
)
_RETURNS_AT = {r: i for i, r in enumerate(RETURNS)}

# Block starts.
_PLAY = 0
_CLAIM = _PLAY + _N * STONES
_PASS = _CLAIM + STONES
_DRAW = _PASS + 1
_DRAW_CLAN = _DRAW + 1
_DRAW_TACTIC = _DRAW_CLAN + 1
_DONE = _DRAW_TACTIC + 1
_BANSHEE = _DONE + 1
_TRAITOR = _BANSHEE + _N * STONES
_STRATEGIST = _TRAITOR + _CLANS * STONES * STONES
_RECRUIT = _STRATEGIST + _N * STONES * (STONES + 1)
_RETURN = _RECRUIT + len(RECRUIT_DRAWS)
_NUM_ACTIONS = _RETURN + len(RETURNS)

_PHASES = tuple(Phase)

#: The observation's blocks: (name, start, length). All entries are small
#: non-negative integers; "me" is the observing player, "opponent" the other.
OBSERVATION_LAYOUT = laid_out(
    [
        ("my hand: copies of each kind", _N),
        ("my side of each stone: stone-major, copies of each kind", STONES * _N),
        ("opponent's side of each stone: stone-major, copies of each kind", STONES * _N),
        ("discards: copies of each kind", _N),
        ("stone owned by me", STONES),
        ("stone owned by the opponent", STONES),
        ("blind man's bluff on the stone", STONES),
        ("mud fight on the stone", STONES),
        ("my side completed first (ties go to it)", STONES),
        ("opponent's side completed first", STONES),
        ("hand sizes: me, opponent", 2),
        ("tactic cards in the opponent's hand", 1),
        ("cards in the clan pile, in the tactic pile", 2),
        ("tactic cards played: me, opponent", 2),
        ("joker played: me, opponent", 2),
        ("it is my turn", 1),
        (
            "phase, one-hot: play, after_play, after_pass, recruit_return, after_recruit",
            len(_PHASES),
        ),
        ("blank turns in a row (0-2; a claim this turn counts 0)", 1),
        ("rules: 1999 edition, tactics, early bird", 3),
    ]
)
_OBSERVATION_SIZE = sum(length for _, _, length in OBSERVATION_LAYOUT)


def _kind(move: object, card: AnyCard) -> int:
    kind = _KIND_OF.get(card)
    if kind is None:
        raise ValueError(f"move {str(move)!r} has no action id: unknown card {card!r}")
    return kind


def _recruiter_action(move: Recruit | PutBack) -> int:
    """The id of the recruiter's draws or of the cards it puts back."""
    if isinstance(move, Recruit):
        if move.returns:
            raise ValueError(
                f"move {str(move)!r} has no action id: the recruiter is two moves, "
                "its draws and then 'return ...'"
            )
        draws_at = _DRAWS_AT.get((move.draws.count("clan"), move.draws.count("tactic")))
        if draws_at is None:
            raise ValueError(f"move {str(move)!r} has no action id: too many draws")
        return _RECRUIT + draws_at
    if any(isinstance(item, str) for item in move.cards):
        raise ValueError(f"move {str(move)!r} has no action id: name the cards put back")
    returns = tuple(sorted(_kind(move, c) for c in move.cards if not isinstance(c, str)))
    returns_at = _RETURNS_AT.get(returns)
    if returns_at is None:
        raise ValueError(f"move {str(move)!r} has no action id: too many cards")
    return _RETURN + returns_at


class SchottenTottenActions(MoveSpace):
    """The action space (see the module's table); use the shared :data:`ACTIONS`.
    Its ``play``, ``rewards`` and ``legal_action_mask`` are
    :class:`referee.actions.MoveSpace`'s: a mask is all 0 where the mover's hand
    is hidden, since only the mover knows its moves."""

    num_actions: int = _NUM_ACTIONS
    observation_size: int = _OBSERVATION_SIZE
    observation_layout = OBSERVATION_LAYOUT
    game = "Schotten Totten"
    #: A view (``state.view(player)``) is a :class:`State` too.
    state_types: tuple[type, ...] = (State,)

    def action_of(self, move: Move | object) -> int:
        """The id of ``move``; ``ValueError`` for a move with no id (a recruiter
        return written as a pile name, which only a hidden hand writes)."""
        if isinstance(move, PlayCard):
            return _PLAY + _kind(move, move.card) * STONES + move.stone - 1
        if isinstance(move, Claim):
            return _CLAIM + move.stone - 1
        if isinstance(move, Pass):
            return _PASS
        if isinstance(move, Draw):
            return {None: _DRAW, "clan": _DRAW_CLAN, "tactic": _DRAW_TACTIC}[move.pile]
        if isinstance(move, EndTurn):
            return _DONE
        if isinstance(move, Banshee):
            return _BANSHEE + _kind(move, move.card) * STONES + move.stone - 1
        if isinstance(move, Traitor):
            kind = _kind(move, move.card)
            if kind >= _CLANS:
                raise ValueError(
                    f"move {str(move)!r} has no action id: the traitor takes clan cards"
                )
            return _TRAITOR + (kind * STONES + move.source - 1) * STONES + move.target - 1
        if isinstance(move, Strategist):
            target = 0 if move.target is None else move.target
            return _STRATEGIST + (_kind(move, move.card) * STONES + move.source - 1) * 10 + target
        if isinstance(move, Recruit | PutBack):
            return _recruiter_action(move)
        raise ValueError(f"{move!r} is not a Schotten Totten move")

    def move_of(self, action: int) -> Move:
        """The move with id ``action`` (recruiter draws and returns in canonical order)."""
        action = action_index(action, _NUM_ACTIONS)
        if action < _CLAIM:
            kind, stone = divmod(action - _PLAY, STONES)
            return PlayCard(KINDS[kind], stone + 1)
        if action < _PASS:
            return Claim(action - _CLAIM + 1)
        if action == _PASS:
            return Pass()
        if action == _DRAW:
            return Draw()
        if action == _DRAW_CLAN:
            return Draw("clan")
        if action == _DRAW_TACTIC:
            return Draw("tactic")
        if action == _DONE:
            return EndTurn()
        if action < _TRAITOR:
            kind, stone = divmod(action - _BANSHEE, STONES)
            return Banshee(KINDS[kind], stone + 1)
        if action < _STRATEGIST:
            rest, target = divmod(action - _TRAITOR, STONES)
            kind, source = divmod(rest, STONES)
            return Traitor(KINDS[kind], source + 1, target + 1)
        if action < _RECRUIT:
            rest, target = divmod(action - _STRATEGIST, 10)
            kind, source = divmod(rest, STONES)
            return Strategist(KINDS[kind], source + 1, target or None)
        if action < _RETURN:
            clans, tactics = RECRUIT_DRAWS[action - _RECRUIT]
            return Recruit(("clan",) * clans + ("tactic",) * tactics)
        return PutBack(tuple(KINDS[k] for k in RETURNS[action - _RETURN]))

    def observation(self, state: State, player: int) -> tuple[int, ...]:
        """What ``player`` sees, as :data:`OBSERVATION_LAYOUT` lays it out.

        Read from ``state.view(player)`` alone: two states with the same view
        give the same observation.
        """
        view, player, opponent, out = observed(self, state, player, _KIND_OF)
        at = _N
        for side_of in (player, opponent):
            for stone in view.stones:
                for card in stone.sides[side_of]:
                    out[at + _KIND_OF[card]] += 1
                at += _N
        for card in view.discards:
            out[at + _KIND_OF[card]] += 1
        at += _N
        for i, stone in enumerate(view.stones):
            if stone.owner == player:
                out[at + i] = 1
            elif stone.owner == opponent:
                out[at + STONES + i] = 1
            if stone.style is not None:
                out[at + (2 if stone.style.name == "blind_mans_bluff" else 3) * STONES + i] = 1
            out[at + 4 * STONES + i], out[at + 5 * STONES + i] = first_complete(
                stone.completed, player
            )
        at += 6 * STONES
        rules = view.rules
        tail = [
            view.hand_sizes[player],
            view.hand_sizes[opponent],
            view.hand_tactics[opponent],
            view.deck_size,
            view.tactic_deck_size,
            view.tactics_played[player],
            view.tactics_played[opponent],
            int(view.jokers_played[player]),
            int(view.jokers_played[opponent]),
            int(view.to_move == player),
            *(int(view.phase is phase) for phase in _PHASES),
            max(0, view.blank_turns),
            int(rules.edition == "1999"),
            int(rules.tactics),
            int(rules.early_bird),
        ]
        out[at:] = tail
        return tuple(out)


#: The Schotten Totten action space.
ACTIONS = SchottenTottenActions()


def action_space(state: State) -> SchottenTottenActions:
    """The action space of ``state`` (one for every edition and variant):
    each game's ``actions`` module has this function, so a bot asks for the
    space of whatever it plays the same way.

    >>> from referee.schotten_totten import new_game
    >>> action_space(new_game(seed=1)) is ACTIONS
    True
    """
    return ACTIONS
