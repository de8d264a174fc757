"""Schotten Totten 2 on integers: the working position that playouts run on.

A :class:`Table` is a mutable working copy of a full position (every hand and
pile known): cards are the kinds of
:data:`~referee.schotten_totten_2.actions.KINDS` (siege cards 0-59 in card
order, then the tactic cards, both jokers kind 60), each side of a tile a list
of kinds in play order with its siege cards also as a mask, everything else
lists and ints changed in place. It lists the legal actions (the ids of
:data:`~referee.schotten_totten_2.actions.ACTIONS`, increasing) by the rules
of :class:`~referee.schotten_totten_2.State` (each function below names the
rule it follows; the action cards' moves are listed and counted in
:mod:`~referee.schotten_totten_2.table_actions`);
:mod:`~referee.schotten_totten_2.steps` plays them, without move objects and
without history. The control proof is the kernel's
(:func:`~referee.line.claims.plain_verdict` between siege cards,
:func:`~referee.line.claims.verdict_at` where elite troops lie), the wall's
rules are :data:`~referee.schotten_totten_2.wall.WALL`. Tests play every
action through ``State.play`` too and compare the legal actions with
``State.legal_moves`` at every ply.

>>> from referee.schotten_totten_2 import new_game
>>> table = Table(new_game(seed=5))
>>> legal = legal_actions(table)
>>> len(legal), legal[:3]
(42, [56, 57, 58])
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.formations import FormationRule
from referee.game import Outcome
from referee.line.cards import CardIndex
from referee.line.claims import plain_verdict, verdict_at
from referee.prover import Piece, Pool
from referee.schotten_totten_2.actions import ACTIONS, KINDS
from referee.schotten_totten_2.moves import (
    Control,
    Draw,
    EndTurn,
    Oil,
    Pass,
    Retreat,
    Shuffle,
)
from referee.schotten_totten_2.state import Phase, State

# The action cards' kinds, ids and moves are table_actions'; the names imported
# ``as`` themselves were defined here before it, and stay importable from here.
from referee.schotten_totten_2.table_actions import DESERTION as DESERTION
from referee.schotten_totten_2.table_actions import DESERTION_CARD as DESERTION_CARD
from referee.schotten_totten_2.table_actions import EXCHANGE_CARD as EXCHANGE_CARD
from referee.schotten_totten_2.table_actions import EXPLOSION as EXPLOSION
from referee.schotten_totten_2.table_actions import EXPLOSION_CARD as EXPLOSION_CARD
from referee.schotten_totten_2.table_actions import GIVE as GIVE
from referee.schotten_totten_2.table_actions import JOKER as JOKER
from referee.schotten_totten_2.table_actions import OFFER as OFFER
from referee.schotten_totten_2.table_actions import RECRUITMENT as RECRUITMENT
from referee.schotten_totten_2.table_actions import RECRUITMENT_CARD as RECRUITMENT_CARD
from referee.schotten_totten_2.table_actions import REDEPLOY as REDEPLOY
from referee.schotten_totten_2.table_actions import REDEPLOY_CARD as REDEPLOY_CARD
from referee.schotten_totten_2.table_actions import SIEGE as SIEGE
from referee.schotten_totten_2.table_actions import SUPPORT as SUPPORT
from referee.schotten_totten_2.table_actions import SUPPORT_CARD as SUPPORT_CARD
from referee.schotten_totten_2.table_actions import TREASON as TREASON
from referee.schotten_totten_2.table_actions import TREASON_CARD as TREASON_CARD
from referee.schotten_totten_2.table_actions import (
    action_count,
    action_move,
    action_moves,
    replies,
)
from referee.schotten_totten_2.wall import (
    SIEGE_CARDS,
    TILES,
    WALL,
    AnyCard,
    TacticCard,
    Tile,
)

__all__ = [
    "Table",
    "action_count",
    "action_move",
    "action_moves",
    "can_play",
    "controls_of",
    "legal_actions",
    "plays_after_opening",
    "provable",
    "replies",
]

# --- the cards as kinds -----------------------------------------------------------------
# (SIEGE, JOKER and the action cards' kinds are table_actions', imported above.)

#: The siege cards as integers (ids 0-59, colour by colour): ranks and best completions.
INDEX = CardIndex(SIEGE_CARDS)
_KIND: dict[AnyCard, int] = {card: i for i, card in enumerate(KINDS)}
SPY = _KIND[TacticCard.SPY]
SHIELD = _KIND[TacticCard.SHIELD]
#: Kinds that lie at a tile: siege cards and the elite troops.
ON_TILE = SHIELD + 1
#: kind -> its siege card's value (-1 for a tactic card).
VALUES = (*INDEX.values, *(-1 for _ in range(len(KINDS) - SIEGE)))
#: kind -> its piece for the prover (a siege card's pair, an elite troop's wildcard).
PIECES: tuple[Piece, ...] = (
    *INDEX.pairs,
    *(card.wildcard for card in TacticCard if card.is_elite),
)

# --- the action ids (blocks of ACTIONS, read from the space itself) ---------------------

#: The first block: a card laid, ``kind * TILES + tile``.
PLAY = 0
CONTROL = ACTIONS.action_of(Control(1))
RETREAT = ACTIONS.action_of(Retreat((1,)))  # the id of tiles mask m is RETREAT + m - 1
OIL = ACTIONS.action_of(Oil(1))
PASS = ACTIONS.action_of(Pass())
DRAW = ACTIONS.action_of(Draw())
DRAW_TACTIC = ACTIONS.action_of(Draw("tactic"))
DONE = ACTIONS.action_of(EndTurn())
SHUFFLE = ACTIONS.action_of(Shuffle())
# The action cards' blocks (REDEPLOY .. GIVE) are table_actions', imported above.

# --- the wall ----------------------------------------------------------------------------

#: tile (from 0) -> (its rule intact, damaged)
RULES: tuple[tuple[FormationRule, FormationRule], ...] = WALL
#: tile -> (cards per side intact, damaged)
SIZES: tuple[tuple[int, int], ...] = tuple((a.size, b.size) for a, b in WALL)
#: tiles mask -> the tiles (from 0) it holds, increasing
TILES_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(TILES) if mask >> t & 1) for mask in range(1 << TILES)
)
#: tiles mask -> the retreat ids from every non-empty part of it, increasing
RETREATS_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple(RETREAT + part - 1 for part in range(1, mask + 1) if part & mask == part)
    for mask in range(1 << TILES)
)

_OPENING, _PLAY, _AFTER_PLAY, _AFTER_PASS = (
    Phase.OPENING,
    Phase.PLAY,
    Phase.AFTER_PLAY,
    Phase.AFTER_PASS,
)
_SHUFFLE, _EXCHANGE = Phase.SHUFFLE, Phase.EXCHANGE


class Table:
    """A full Schotten Totten 2 position on integers, changed in place (a
    playout's own copy: never shared). ``i = 2 * tile + player`` indexes a
    side (tiles from 0): ``sides[i]`` its kinds in play order, ``masks[i]``
    its siege cards as a mask, ``completed[i]`` the ply it became complete
    (-1: incomplete); ``damaged[t]`` says which face of tile ``t`` is up and
    ``kept[t]`` the verdict last proved on the attacker's control there
    (``(holds, mask)`` as :class:`~referee.line.claims.Kept` keeps it, or
    ``None``). ``hands[p]`` are kinds, increasing; ``deck`` and
    ``tactic_deck`` kinds, the top card last; ``discards`` kinds, oldest first;
    ``seen`` the mask of the visible siege cards (on the wall, discarded).
    ``support`` is the pair of siege cards waiting for the shuffle, ``offer``
    the 3 cards of an exchange waiting for its answer; ``pool`` the prover's
    pool last built and the ``seen`` it was built for.
    """

    __slots__ = (
        "attacker",
        "completed",
        "damaged",
        "deck",
        "discards",
        "exhausted",
        "final_turn",
        "hands",
        "kept",
        "masks",
        "offer",
        "oil",
        "outcome",
        "phase",
        "ply",
        "pool",
        "seen",
        "sides",
        "support",
        "tactic_deck",
        "tactics",
        "tactics_played",
        "to_move",
    )

    def __init__(self, state: State) -> None:
        hands, deck, tactic_deck = state.hands, state.deck, state.tactic_deck
        if (
            hands[0] is None
            or hands[1] is None
            or deck is None
            or tactic_deck is None
            or (state.phase is _EXCHANGE and state.exchange is None)
        ):
            raise ValueError(
                "a playout needs a full state (every hand and pile known): "
                "determinize a view first (referee.schotten_totten_2.determinize)"
            )
        kind = _KIND.__getitem__
        self.tactics: bool = state.rules.tactics
        self.attacker: int = state.attacker
        self.to_move: int = state.to_move
        self.phase: Phase = state.phase
        self.ply: int = state.ply
        self.oil: int = state.oil
        self.exhausted: bool = state.exhausted
        self.final_turn: bool = state.final_turn
        self.outcome: Outcome | None = state.outcome
        self.hands: list[list[int]] = [sorted(map(kind, hands[0])), sorted(map(kind, hands[1]))]
        self.deck: list[int] = list(map(kind, reversed(deck)))
        self.tactic_deck: list[int] = list(map(kind, reversed(tactic_deck)))
        self.discards: list[int] = list(map(kind, state.discards))
        self.tactics_played: list[int] = list(state.tactics_played)
        self.support: tuple[int, int] | None = (
            None if state.support is None else (kind(state.support[0]), kind(state.support[1]))
        )
        self.offer: tuple[int, ...] | None = (
            None if state.exchange is None else tuple(map(kind, state.exchange))
        )
        self.sides: list[list[int]] = []
        self.masks: list[int] = []
        self.completed: list[int] = []
        self.damaged: list[bool] = []
        for tile in state.tiles:
            self.damaged.append(tile.damaged)
            if not tile.sides[0] and not tile.sides[1]:
                self.sides += ([], [])
                self.masks += (0, 0)
                self.completed += (-1, -1)
                continue
            for player in (0, 1):
                side = list(map(kind, tile.sides[player]))
                self.sides.append(side)
                self.masks.append(_siege_mask(side))
                done = tile.completed[player]
                self.completed.append(-1 if done is None else done)
        seen = _siege_mask(self.discards)
        for mask in self.masks:
            seen |= mask
        self.seen: int = seen
        self.kept: list[tuple[bool, int] | None] = [None] * TILES
        self.pool: tuple[int, Pool] | None = None


def _siege_mask(kinds: list[int]) -> int:
    mask = 0
    for k in kinds:
        if k < SIEGE:
            mask |= 1 << k
    return mask


# --- the legal actions ------------------------------------------------------------------


def legal_actions(t: Table) -> list[int]:
    """The legal action ids of the player to move, increasing
    (``State.generate_legal_moves``): support's shuffle is one id (chance)."""
    if t.outcome is not None:
        return []
    phase = t.phase
    if phase is _SHUFFLE:
        return [SHUFFLE]
    if phase is _EXCHANGE:
        return replies(t)
    player = t.to_move
    controls = controls_of(t) if player == t.attacker else []
    if phase is _OPENING or phase is _PLAY:
        plays, actions = _plays(t, player)
        opening = phase is _OPENING
        legal = plays + controls
        if opening:
            legal += _openings(t)
        if not plays and not actions and not (opening and plays_after_opening(t, player)):
            legal.append(PASS)  # only a player who cannot play a card passes
        if actions:
            legal += actions
        return legal
    if phase is _AFTER_PLAY:
        if t.deck:
            controls.append(DRAW)
            if t.tactic_deck:
                controls.append(DRAW_TACTIC)
            return controls
        if t.tactic_deck:
            controls.append(DRAW_TACTIC)
            return controls
    controls.append(DONE)
    return controls


def controls_of(t: Table) -> list[int]:
    """The attacker's provable controls: each tile where its side is complete
    and the kernel's proof holds."""
    attacker = t.attacker
    completed = t.completed
    found = []
    for tile in range(TILES):
        if completed[2 * tile + attacker] >= 0 and provable(t, tile):
            found.append(CONTROL + tile)
    return found


def provable(t: Table, tile: int) -> bool:
    """Whether the attacker's complete side at ``tile`` can be declared in
    control: the verdict of :func:`~referee.line.claims.plain_verdict` between
    siege cards, else the prover's (:func:`~referee.line.claims.verdict_at`).
    The answer is kept on the table while the tile is unchanged, as
    :class:`~referee.line.claims.Kept` keeps it: a control that held with some
    cards visible holds while they all are; one refused by a completion stays
    refused while none of its cards is visible."""
    seen = t.seen
    known = t.kept[tile]
    if known is not None:
        holds, mask = known
        if holds:
            if not mask & ~seen:
                return True
        elif not mask & seen:
            return False
    i = 2 * tile + t.attacker
    j = i ^ 1
    rule = RULES[tile][t.damaged[tile]]
    mine, theirs = t.sides[i], t.sides[j]
    mine_mask, theirs_mask = t.masks[i], t.masks[j]
    if mine_mask.bit_count() == len(mine) and theirs_mask.bit_count() == len(theirs):
        first = 0 <= t.completed[i] < t.completed[j]
        known = plain_verdict(
            INDEX, rule, INDEX.rank_of(mine_mask, rule), theirs_mask, len(theirs), first, seen
        )
    else:
        known = _prover_verdict(t, tile, rule)
    t.kept[tile] = known
    return known[0]


def _prover_verdict(t: Table, tile: int, rule: FormationRule) -> tuple[bool, int]:
    """The prover's verdict where an elite troop lies (the referee's
    ``verdict_at`` on the tile), as :class:`~referee.line.claims.Kept` keeps it."""
    seen = t.seen
    place = Tile(
        tile + 1,
        t.damaged[tile],
        (
            tuple(KINDS[k] for k in t.sides[2 * tile]),
            tuple(KINDS[k] for k in t.sides[2 * tile + 1]),
        ),
        (_ply_or_none(t.completed[2 * tile]), _ply_or_none(t.completed[2 * tile + 1])),
    )
    complete = len(t.sides[2 * tile + 1 - t.attacker]) == rule.size
    verdict = verdict_at(
        place,
        t.attacker,
        pieces=_pieces,
        pool=lambda: _pool(t),
        colours=INDEX.colour_count,
        who="attacker",
    )
    if complete:
        return verdict.holds, 0
    if verdict.holds:
        return True, seen
    witness = verdict.witness
    if witness is None:  # pragma: no cover - a refusal against an open side has one
        return False, INDEX.everything  # asked again as soon as any card is seen
    found = 0
    for pair in witness.cards:
        found |= 1 << _ID_OF_PAIR[pair]
    return False, found


#: a siege card's prover pair -> its kind
_ID_OF_PAIR = {pair: i for i, pair in enumerate(INDEX.pairs)}


def _pool(t: Table) -> Pool:
    """The prover's pool (every siege card not seen), kept on the table while
    the visible cards stay the same."""
    seen = t.seen
    kept = t.pool
    if kept is not None and kept[0] == seen:
        return kept[1]
    pool = Pool([INDEX.pairs[k] for k in range(SIEGE) if not seen >> k & 1])
    t.pool = (seen, pool)
    return pool


def _ply_or_none(ply: int) -> int | None:
    return None if ply < 0 else ply


def _pieces(side: Iterable[AnyCard]) -> list[Piece]:
    return [PIECES[_KIND[card]] for card in side]


def _openings(t: Table) -> list[int]:
    """The opening actions: the attacker's retreats (every non-empty set of
    tiles where it has cards), or the defender's oil (while a cauldron is
    left, at each tile where the attacker has cards)."""
    attacker = t.attacker
    sides = t.sides
    held = 0
    for tile in range(TILES):
        if sides[2 * tile + attacker]:
            held |= 1 << tile
    if t.to_move == attacker:
        return list(RETREATS_FROM[held])
    if not t.oil:
        return []
    return [OIL + tile for tile in TILES_IN[held]]


def _open_tiles(t: Table, player: int) -> list[int]:
    """The tiles where ``player``'s side has room (it is not complete)."""
    completed = t.completed
    return [tile for tile in range(TILES) if completed[2 * tile + player] < 0]


def _plays(t: Table, player: int) -> tuple[list[int], list[int]]:
    """``player``'s card plays (siege cards, and elite troops the tactic limit
    allows), increasing, and its action cards' moves, increasing."""
    opened = _open_tiles(t, player)
    hand = t.hands[player]
    plays: list[int] = []
    if not hand:
        return plays, []
    tactic_ok = t.tactics and t.tactics_played[player] <= t.tactics_played[1 - player]
    last = -1
    for card in hand:
        if card == last:
            continue
        last = card
        if card >= SIEGE and (card >= ON_TILE or not tactic_ok):
            break
        base = card * TILES
        plays += [base + tile for tile in opened]
    if not tactic_ok or hand[-1] < REDEPLOY_CARD:
        return plays, []
    return plays, action_moves(t, player, opened)


def plays_after_opening(t: Table, player: int) -> bool:
    """Whether ``player``, at the start of its turn, can play a card after an
    opening action (``State._play_chances`` on known hands): the attacker
    retreating from every tile, the defender pouring oil at one."""
    sides = t.sides
    attacker = t.attacker
    held = [tile for tile in range(TILES) if sides[2 * tile + attacker]]
    hand = t.hands[player]
    if not held or not hand:
        return False
    if player == attacker:
        if hand[0] < SIEGE:
            return True  # every tile has room after the retreat: the siege card fits
        variants = [_after_opening(t, held, None)]
    elif t.oil and hand[-1] >= REDEPLOY_CARD:
        # Oil leaves the defender's sides as they are: only its action cards
        # may find moves they had not (a card more on the discard pile...).
        variants = [_after_opening(t, [tile], tile) for tile in held]
    else:
        return False
    return any(_plays(v, player)[0] or _plays(v, player)[1] for v in variants)


def _after_opening(t: Table, tiles: list[int], oil: int | None) -> Table:
    """A copy of ``t`` (for look-ahead only) after the attacker's cards leave
    ``tiles`` (all of them, or the first one where oil is poured)."""
    copy = Table.__new__(Table)
    for name in Table.__slots__:
        setattr(copy, name, getattr(t, name))
    copy.sides = [list(side) for side in t.sides]
    copy.masks = list(t.masks)
    copy.completed = list(t.completed)
    copy.discards = list(t.discards)
    attacker = t.attacker
    for tile in tiles:
        i = 2 * tile + attacker
        side = copy.sides[i]
        gone = side[:1] if oil is not None else side
        copy.discards += gone
        copy.sides[i] = side[len(gone) :]
        copy.masks[i] = _siege_mask(copy.sides[i])
        copy.completed[i] = -1
    return copy


def can_play(t: Table, player: int) -> bool:
    """Whether ``player``, at the start of a turn of its own, can play a card,
    after an opening action if need be (``State._play_chances``)."""
    plays, actions = _plays(t, player)
    return bool(plays or actions) or plays_after_opening(t, player)
