"""The control rule: when the attacker may declare control of a tile, and its proof.

The attacker declares control of a tile with its complete formation there.
Against the defender's complete formation the stronger one wins, a tie going
to whoever completed first. Against an incomplete one the attacker must prove
that it can no longer be beaten: no way to complete the defender's side with
siege cards that are not visible (on a tile or discarded) makes a stronger
formation (one that only ties does not beat it). Elite troops on a side count
with every value they can still take; cards in hand play no part.

The proof runs over masks (:func:`referee.line.claims.plain_verdict`) when
both sides hold siege cards only, and through the prover when an elite troop
lies there. Its answer is kept on the tile (:class:`referee.line.claims.Kept`,
for the attacker): it stands as long as the tile is unchanged and the cards
it depends on are (or stay out of) sight, so a tile is proved again only when
that changes.

>>> from referee.schotten_totten_2 import new_game
>>> provable(new_game(seed=3))
[]
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.cards import Card
from referee.errors import ClaimRefusedError
from referee.line import illegal, place_at
from referee.line.claims import NO_POOL, describe_refusal, plain_verdict, verdict_at
from referee.prover import ClaimVerdict, Engine, Piece, Pool
from referee.schotten_totten_2.moves import Control
from referee.schotten_totten_2.state import Reason, State
from referee.schotten_totten_2.wall import INDEX, SIEGE_CARDS, TILES, AnyCard, TacticCard, Tile

__all__ = ["CONTROLS", "check_control", "holds", "provable", "verdict"]

#: The control of each tile (index 0: tile 1).
CONTROLS = tuple(Control(n) for n in range(1, TILES + 1))
_COLOURS = len(SIEGE_CARDS.colours)
_PAIRS = INDEX.pairs
_IDS = INDEX.ids


def check_control(state: State, move: Control) -> Tile:
    """The tile ``move`` declares in control, after every check of the control
    rule; its refusal otherwise (a control not proven carries the prover's
    verdict, asked afresh, as its evidence)."""
    attacker = state.attacker
    if state.to_move != attacker and not state.late_control:
        raise illegal(move, Reason.WRONG_ROLE, "only the attacker declares control")
    tile = place_at(move, move.tile, state.tiles, Reason.NO_SUCH_TILE, "tile")
    mine, size = tile.sides[attacker], tile.size
    if len(mine) < size:
        raise illegal(
            move,
            Reason.FORMATION_INCOMPLETE,
            f"your formation at tile {move.tile} is not complete ({len(mine)} of {size} cards)",
        )
    if not holds(state, tile):
        found = verdict(state, tile, "exact")
        if not found.holds:
            why = describe_refusal(found, SIEGE_CARDS.from_pair, opponent="defender", wild="cards")
            raise ClaimRefusedError(
                Reason.CLAIM_NOT_PROVEN, f"illegal move {str(move)!r}: {why}", found
            )
    return tile


def provable(state: State) -> list[Control]:
    """The controls the attacker can prove now, tile by tile (whoever is to move)."""
    attacker, seen = state.attacker, state.seen
    controls = []
    for tile in state.tiles:
        # A side is complete exactly when it has a completion time (every
        # state is checked for it).
        if tile.completed[attacker] is None:
            continue
        # The tile's kept verdict (Kept.answer, inlined), else a proof.
        found = tile.kept.verdicts[attacker]
        if found is None or (found[1] & ~seen if found[0] else found[1] & seen):
            found = _prove(state, tile)
        if found[0]:
            controls.append(CONTROLS[tile.number - 1])
    return controls


def holds(state: State, tile: Tile) -> bool:
    """Whether the attacker's complete side at ``tile`` can be declared in
    control on ``state``'s table: the prover's verdict, from the tile's kept
    one when it still stands."""
    kept = tile.kept.answer(state.attacker, state.seen)
    if kept is not None:
        return kept
    return _prove(state, tile)[0]


def _prove(state: State, tile: Tile) -> tuple[bool, int]:
    """The control rule at ``tile``, kept on the tile: ``(holds, then)`` or
    ``(False, witness)`` (see :class:`~referee.line.claims.Kept`)."""
    attacker = state.attacker
    mine, theirs = tile.sides[attacker], tile.sides[1 - attacker]
    mine_at, theirs_at = tile.completed[attacker], tile.completed[1 - attacker]
    first = mine_at is not None and theirs_at is not None and mine_at < theirs_at
    seen = state.seen
    if all(type(c) is Card for c in mine) and all(type(c) is Card for c in theirs):
        rule = tile.rule
        ranks = tile.kept.ranks
        ranked = ranks[attacker]
        if ranked < 0:
            ranked = ranks[attacker] = INDEX.rank_of(tile.masks[attacker], rule)
        answer = plain_verdict(
            INDEX, rule, ranked, tile.masks[1 - attacker], len(theirs), first, seen
        )
    else:
        proved = _proved(state, tile, len(theirs) == tile.size, seen)
        if proved is None:
            return False, 0  # refused with no witness to keep: asked again next time
        answer = proved
    tile.kept.verdicts[attacker] = answer
    return answer


def _proved(state: State, tile: Tile, complete: bool, seen: int) -> tuple[bool, int] | None:
    """The prover's answer at a tile with an elite troop, as :class:`Kept`
    keeps it (``None``: refused without a witness)."""
    if complete:
        return verdict_at(
            tile, state.attacker, pieces=_pieces, pool=NO_POOL, colours=_COLOURS
        ).holds, 0
    found = verdict(state, tile, "exact")
    if found.holds:
        return True, seen
    witness = found.witness
    if witness is None:
        return None
    return False, INDEX.mask(SIEGE_CARDS.from_pair(pair) for pair in witness.cards)


def verdict(state: State, tile: Tile, engine: Engine) -> ClaimVerdict:
    """The prover's verdict on the attacker declaring control of ``tile``, with
    its evidence. Raises ``ValueError`` if the attacker's side is incomplete."""
    return verdict_at(
        tile,
        state.attacker,
        pieces=_pieces,
        pool=lambda: _pool(state.seen),
        colours=_COLOURS,
        engine=engine,
        who="attacker",
    )


def _pieces(side: Iterable[AnyCard]) -> list[Piece]:
    """A side as the prover's pieces: siege cards as pairs, elite troops as wildcards."""
    return [c.wildcard if isinstance(c, TacticCard) else _PAIRS[_IDS[c]] for c in side]


def _pool(seen: int) -> Pool:
    """The prover's pool: every siege card not in ``seen``."""
    return Pool([_PAIRS[i] for i in range(len(_PAIRS)) if not seen >> i & 1])
