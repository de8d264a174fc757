"""The claim rule (RULINGS 4-7): when a stone may be claimed, and its proof.

A player claims an unclaimed stone with its complete formation there. Against
a complete opposing formation the stronger one wins, equal kind and sum going
to whoever completed first. Against an incomplete one the claimant must prove
that it can no longer be beaten: no way to complete the opposing side with
clan cards that are not visible (on a stone or discarded) makes a stronger
formation; one that only ties does not beat it, since the claimant completed
first. Elite troops on a side count with every value they can still take
(each side valuing its own at their best); tactic cards in hand play no part.

The proof runs over masks (:func:`referee.line.claims.plain_verdict`) when
both sides hold clan cards only, and through the prover when an elite troop
lies there. Its answer is kept on the stone (:class:`referee.line.claims.Kept`):
it stands as long as the stone is unchanged and the cards it depends on are
(or stay out of) sight, so a stone is proved again only when that changes.

>>> from referee.schotten_totten import new_game
>>> game = new_game(seed=3)
>>> provable(game)
[]
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.cards import Card
from referee.errors import ClaimRefusedError
from referee.line import illegal, place_at
from referee.line.claims import describe_refusal, plain_verdict, verdict_at
from referee.prover import ClaimVerdict, Engine, Piece, Pool
from referee.schotten_totten.cards import CLAN_CARDS, INDEX, AnyCard, wildcard_of
from referee.schotten_totten.moves import Claim
from referee.schotten_totten.state import Phase, Reason, State, Stone

__all__ = ["CLAIMS", "check_claim", "holds", "provable", "verdict"]

#: The claim of each stone (index 0: stone 1).
CLAIMS = tuple(Claim(n) for n in range(1, 10))
_COLOURS = len(CLAN_CARDS.colours)


def check_claim(state: State, move: Claim) -> Stone:
    """The stone ``move`` claims, after every check of the claim rule; its
    refusal otherwise (a claim not proven carries the prover's verdict)."""
    player = state.to_move
    if state.rules.early_bird and state.phase is not Phase.PLAY:
        raise illegal(
            move,
            Reason.CLAIM_NOT_NOW,
            "with Der frühe Vogel, stones are claimed only at the start of the turn",
        )
    if not state.claims_now():
        raise illegal(move, Reason.CLAIM_NOT_NOW, "stones are claimed after playing (or passing)")
    stone = place_at(move, move.stone, state.stones, Reason.NO_SUCH_STONE, "stone")
    if stone.owner is not None:
        raise illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
    if len(stone.sides[player]) < stone.size:
        raise illegal(
            move,
            Reason.FORMATION_INCOMPLETE,
            f"your formation at stone {move.stone} is not complete "
            f"({len(stone.sides[player])} of {stone.size} cards)",
        )
    if not holds(state, stone, player):
        found = verdict(state, stone, player, "exact")
        raise ClaimRefusedError(
            Reason.CLAIM_NOT_PROVEN,
            f"illegal move {str(move)!r}: {describe_refusal(found, CLAN_CARDS.from_pair)}",
            found,
        )
    return stone


def provable(state: State) -> list[Claim]:
    """The claims the player to move can prove now (whether claims may be
    made at this point of the turn aside), stone by stone."""
    player = state.to_move
    claims = []
    for i, stone in enumerate(state.stones):
        complete = stone.owner is None and len(stone.sides[player]) == stone.size
        if complete and holds(state, stone, player):
            claims.append(CLAIMS[i])
    return claims


def holds(state: State, stone: Stone, player: int) -> bool:
    """Whether ``player``'s complete side at ``stone`` can be claimed on
    ``state``'s table: the prover's verdict, from the stone's kept one when it
    still stands."""
    seen = state.seen
    kept = stone.kept.answer(player, seen)
    if kept is not None:
        return kept
    masks, sides = stone.masks, stone.sides
    mine, theirs = sides[player], sides[1 - player]
    if len(mine) == masks[player].bit_count() and len(theirs) == masks[1 - player].bit_count():
        # Clan cards only: the proof over masks.
        rule = stone.rule
        done = stone.completed
        mine_at, theirs_at = done[player], done[1 - player]
        first = mine_at is not None and theirs_at is not None and mine_at < theirs_at
        answer = plain_verdict(
            INDEX,
            rule,
            INDEX.rank_of(masks[player], rule),
            masks[1 - player],
            len(theirs),
            first,
            seen,
        )
    else:
        found = verdict(state, stone, player, "exact")
        incomplete = len(theirs) < stone.size
        if found.holds:
            answer = True, seen if incomplete else 0
        elif incomplete and found.witness is not None:
            answer = False, _mask_of_pairs(found.witness.cards)
        elif incomplete:  # pragma: no cover - a refusal always has a witness
            return False
        else:
            answer = False, 0
    stone.kept.verdicts[player] = answer
    return answer[0]


def verdict(state: State, stone: Stone, player: int, engine: Engine) -> ClaimVerdict:
    """The prover's verdict on ``player`` claiming ``stone``, with its evidence.
    Raises ``ValueError`` if that side's formation is not complete."""
    return verdict_at(
        stone,
        player,
        pieces=_pieces,
        pool=lambda: _pool(state.seen),
        colours=_COLOURS,
        engine=engine,
    )


def _pieces(side: Iterable[AnyCard]) -> list[Piece]:
    """A side as the prover's pieces: clan cards as pairs, elite troops as wildcards."""
    pairs = INDEX.pairs
    ids = INDEX.ids
    return [pairs[ids[c]] if type(c) is Card else wildcard_of(c) for c in side]  # type: ignore[arg-type]


def _pool(seen: int) -> Pool:
    """The prover's pool: every clan card not in ``seen``."""
    pairs = INDEX.pairs
    return Pool([pairs[i] for i in range(len(pairs)) if not seen >> i & 1])


def _mask_of_pairs(pairs: Iterable[tuple[int, int]]) -> int:
    return INDEX.mask(CLAN_CARDS.from_pair(pair) for pair in pairs)
