"""Schotten Totten on integers: the working position that playouts run on.

A :class:`Table` is a mutable working copy of a full position (every hand and
pile known): cards are ids (:mod:`~referee.schotten_totten.cards`), each
side's clan cards a mask, everything else lists and ints changed in place. It
lists the legal actions (the ids of
:data:`~referee.schotten_totten.actions.ACTIONS`, increasing), and
:mod:`~referee.schotten_totten.steps` plays them, by the rules of :mod:`~referee.schotten_totten.rules`,
:mod:`~referee.schotten_totten.tactics` and
:mod:`~referee.schotten_totten.claims` (each function below names the rule it
follows; the claim proof is the same function), without move objects and
without history. Tests play every action it plays through ``State.play`` and
compare the legal actions with ``State.legal_moves`` at every ply.

>>> from referee.schotten_totten import new_game
>>> table = Table(new_game(seed=5))
>>> legal = legal_actions(table)
>>> len(legal), legal[:3]
(54, [81, 82, 83])
>>> legal[-3:]
[483, 484, 485]

The actions are played by :func:`referee.schotten_totten.steps.play`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations

from referee.game import Outcome
from referee.line.tactics import may_play_tactic
from referee.schotten_totten.actions import RECRUIT_DRAWS
from referee.schotten_totten.cards import (
    BLIND_FORMATION,
    CARDS,
    CLANS,
    FORMATION,
    ID,
    MUD_FORMATION,
    STONES,
    Tactic,
)
from referee.schotten_totten.claims import decided, side_rank
from referee.schotten_totten.state import ALL_STONES, STONES_IN, Phase, Rules, State

__all__ = [
    "Parts",
    "Table",
    "View",
    "legal_actions",
    "legal_counts",
    "legal_parts",
    "provable",
    "ruse_actions",
    "ruse_count",
    "sides_changed",
    "tactic_play_count",
    "tactic_plays",
]

# Action id blocks (see referee.schotten_totten.actions).
_KINDS = len(CARDS)
CLAIM = _KINDS * STONES
PASS = CLAIM + STONES
DRAW, DRAW_CLAN, DRAW_TACTIC, DONE = PASS + 1, PASS + 2, PASS + 3, PASS + 4
BANSHEE = DONE + 1
TRAITOR = BANSHEE + _KINDS * STONES
STRATEGIST = TRAITOR + CLANS * STONES * STONES
RECRUIT = STRATEGIST + _KINDS * STONES * (STONES + 1)
RETURN = RECRUIT + len(RECRUIT_DRAWS)

_JOKER = ID[Tactic("joker")]
_MUD = ID[Tactic("mud_fight")]
_BLIND = ID[Tactic("blind_mans_bluff")]
_RECRUITER = ID[Tactic("recruiter")]
_STRATEGIST = ID[Tactic("strategist")]
_BANSHEE = ID[Tactic("banshee")]
_TRAITOR = ID[Tactic("traitor")]
#: The first ``kind * STONES + stone`` of a tactic card (see ``_placed``).
_WILD_AT = CLANS * STONES
_KIND = tuple("clan" if i < CLANS else CARDS[i].kind for i in range(_KINDS))  # type: ignore[union-attr]
#: The first combat style's id (the elite troops come before, the ruses after).
_FIRST_STYLE = _KIND.index("style")
_RULE = {-1: FORMATION, _MUD: MUD_FORMATION, _BLIND: BLIND_FORMATION}
_PLAY, _AFTER_PLAY, _AFTER_PASS = Phase.PLAY, Phase.AFTER_PLAY, Phase.AFTER_PASS
_RECRUIT_RETURN, _AFTER_RECRUIT = Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT


class Table:
    """A full Schotten Totten position on integers, changed in place (a
    playout's own copy: never shared). ``i = 2 * stone + player`` indexes a
    side (stones from 0): ``sides[i]`` its clan cards (a mask), ``wild[i]``
    its elite troops (ids), ``counts[i]`` its cards, ``completed[i]`` the ply
    it became complete (-1: incomplete), ``kept[i]`` the verdict last proved
    on ``player``'s claim there (see :class:`~referee.line.claims.Kept`).
    ``hands[p]`` are ids, increasing; ``deck`` and ``tactic_deck`` are ids,
    the top card last. ``owners``, ``styles`` (-1: none) and ``sizes`` are per
    stone; ``seen`` is the mask of the visible clan cards. ``rooms[p]`` and
    ``complete[p]`` are the unclaimed stones where ``p``'s side has room and
    where it is complete, as masks (bit ``stone``), derived: kept by
    :func:`sides_changed`.
    """

    __slots__ = (
        "blank_turns",
        "complete",
        "completed",
        "counts",
        "deck",
        "hands",
        "jokers_played",
        "kept",
        "outcome",
        "owners",
        "phase",
        "ply",
        "ranks",
        "rooms",
        "rules",
        "seen",
        "sides",
        "sizes",
        "styles",
        "tactic_deck",
        "tactics_played",
        "to_move",
        "wild",
    )

    def __init__(self, state: State) -> None:
        hands, deck, tactic_deck = state.hands, state.deck, state.tactic_deck
        if hands[0] is None or hands[1] is None or deck is None or tactic_deck is None:
            raise ValueError(
                "a playout needs a full state (every hand and pile known): "
                "determinize a view first (referee.schotten_totten.determinize)"
            )
        self.rules: Rules = state.rules
        self.to_move = state.to_move
        self.phase = state.phase
        self.ply = state.ply
        self.blank_turns = state.blank_turns
        self.outcome: Outcome | None = state.outcome
        self.seen = state.seen
        card_id = ID.__getitem__
        self.hands = [sorted(map(card_id, hands[0])), sorted(map(card_id, hands[1]))]
        self.deck = list(map(card_id, reversed(deck)))
        self.tactic_deck = list(map(card_id, reversed(tactic_deck)))
        stones = state.stones
        # Per side (i = 2 * stone + player), read from the stones' own fields.
        self.sides: list[int] = [mask for stone in stones for mask in stone.masks]
        cards = [side for stone in stones for side in stone.sides]
        self.counts: list[int] = [len(side) for side in cards]
        self.wild: list[tuple[int, ...]] = [
            () if len(side) == mask.bit_count() else tuple(ID[c] for c in side if type(c) is Tactic)
            for side, mask in zip(cards, self.sides, strict=True)
        ]
        self.completed: list[int] = [
            -1 if at is None else at for stone in stones for at in stone.completed
        ]
        self.kept: list[tuple[bool, int] | None] = [
            found for stone in stones for found in stone.kept.verdicts
        ]
        self.ranks: list[int] = [rank for stone in stones for rank in stone.kept.ranks]
        self.owners = [-1 if s.owner is None else s.owner for s in state.stones]
        self.styles = [-1 if s.style is None else ID[s.style] for s in state.stones]
        self.sizes = [s.size for s in state.stones]
        self.tactics_played = list(state.tactics_played)
        self.jokers_played = list(state.jokers_played)
        rooms, complete = state.open_sides, state.complete_sides
        self.rooms = [rooms & ALL_STONES, rooms >> STONES & ALL_STONES]
        self.complete = [complete & ALL_STONES, complete >> STONES & ALL_STONES]


def sides_changed(t: Table, stone: int) -> None:
    """``stone``'s bits of ``rooms`` and ``complete`` after a card came or
    went, a combat style or a claim (``state.sides_of``): a side of an
    unclaimed stone has room below the stone's size and is complete at it."""
    bit = 1 << stone
    rooms, complete = t.rooms, t.complete
    rooms[0] &= ~bit
    rooms[1] &= ~bit
    complete[0] &= ~bit
    complete[1] &= ~bit
    if t.owners[stone] >= 0:
        return  # a claimed stone takes no card and no claim
    size, counts = t.sizes[stone], t.counts
    for player in (0, 1):
        count = counts[2 * stone + player]
        if count < size:
            rooms[player] |= bit
        elif count == size:
            complete[player] |= bit


# --- what may be done ------------------------------------------------------------------


def claims_now(t: Table) -> bool:
    """When claims are made (``State.claims_now``): after playing or passing;
    1999 also before playing; Der frühe Vogel only before."""
    rules, phase = t.rules, t.phase
    if rules.early_bird:
        return phase is _PLAY
    if phase is _RECRUIT_RETURN:
        return False
    return rules.edition == "1999" or phase is not _PLAY


def holds(t: Table, stone: int, player: int) -> bool:
    """The claim rule (``claims.holds``): ``player``'s complete side at
    ``stone`` can be claimed, from the kept verdict while it stands."""
    found = t.kept[2 * stone + player]
    if found is not None:
        if found[0]:
            if not found[1] & ~t.seen:
                return True
        elif not found[1] & t.seen:
            return False
    return _prove(t, stone, player)


def _prove(t: Table, stone: int, player: int) -> bool:
    """The claim rule proved afresh (``claims._prove``: :func:`~referee.schotten_totten.claims.decided`),
    its verdict kept, with the ranks of the complete sides."""
    i = 2 * stone + player
    j = i ^ 1
    mine_at, theirs_at = t.completed[i], t.completed[j]
    rule = _RULE[t.styles[stone]]
    ranks, wild = t.ranks, t.wild
    if ranks[i] < 0:
        ranks[i] = side_rank(rule, t.sides[i], [CARDS[c] for c in wild[i]] if wild[i] else ())  # type: ignore[misc]
    theirs_wild = [CARDS[c] for c in wild[j]] if wild[j] else ()
    if ranks[j] < 0 and t.counts[j] == t.sizes[stone]:
        ranks[j] = side_rank(rule, t.sides[j], theirs_wild)  # type: ignore[arg-type]
    answer = decided(
        rule,
        ranks[i],
        t.sides[j],
        theirs_wild,  # type: ignore[arg-type]
        t.counts[j],
        mine_at >= 0 and theirs_at >= 0 and mine_at < theirs_at,
        t.seen,
        ranks[j],
    )
    t.kept[i] = answer
    return answer[0]


def provable(t: Table) -> list[int]:
    """The stones (from 0) the player to move can claim now, proved."""
    player, seen, kept = t.to_move, t.seen, t.kept
    stones = []
    for s in STONES_IN[t.complete[player]]:
        # The kept verdict while it stands (holds, inlined), else a proof.
        found = kept[2 * s + player]
        if found is None or (found[1] & ~seen if found[0] else found[1] & seen):
            if _prove(t, s, player):
                stones.append(s)
        elif found[0]:
            stones.append(s)
    return stones


def can_lay_clan(t: Table, player: int, opened: Sequence[int]) -> bool:
    """Whether ``player`` must play rather than pass (``State.can_play_card``),
    the stones with room on its side being ``opened``."""
    hand = t.hands[player]
    return bool(hand) and hand[0] < CLANS and bool(opened)


def open_stones(t: Table, player: int) -> Sequence[int]:
    """The stones (from 0) with room on ``player``'s side, increasing."""
    return STONES_IN[t.rooms[player]]


def legal_actions(t: Table) -> list[int]:
    """The legal actions of the player to move, increasing (``State.legal_moves``)."""
    clans, opened, rest = legal_parts(t)
    if not clans or not opened:
        return rest
    return [card * STONES + s for card in clans for s in opened] + rest


#: The legal actions in parts (see :func:`legal_parts`).
Parts = tuple[Sequence[int], Sequence[int], list[int]]
#: The legal actions in parts, the tactic cards' moves counted (see :func:`legal_counts`).
View = tuple[Sequence[int], Sequence[int], int, list[int], int]


def legal_parts(t: Table) -> Parts:
    """:func:`legal_actions` in three parts ``(clans, opened, rest)``: the
    clan cards the mover may lay and the stones open to them (their plays,
    card by card and stone by stone, come first: ``card * STONES + stone``),
    then the rest, increasing (:func:`legal_counts` with its counted parts listed)."""
    clans, opened, tactics, rest, ruses = legal_counts(t)
    if tactics:
        rest[:0] = tactic_plays(t, opened)
    if ruses:
        rest += ruse_actions(t, opened)
    return clans, opened, rest


def legal_counts(t: Table) -> View:
    """:func:`legal_parts` with the tactic cards' moves counted, not listed:
    ``(clans, opened, tactics, rest, ruses)``. The legal actions are the clan
    cards' plays, then ``tactics`` moves of :func:`tactic_plays` (tactic cards
    laid, ids below the claims), then ``rest`` (the claims first, increasing),
    then ``ruses`` moves of :func:`ruse_actions` (the highest ids); each list
    is made when one of its moves is picked."""
    if t.outcome is not None:
        return (), (), 0, [], 0
    phase = t.phase
    if phase is _RECRUIT_RETURN:
        return (), (), 0, _returns(t), 0
    claims = [CLAIM + s for s in provable(t)] if claims_now(t) else []
    if phase is _PLAY:
        player = t.to_move
        opened = open_stones(t, player)
        hand = t.hands[player]
        clans = bisect_left(hand, CLANS)  # the clan cards (each once) come first
        if not can_lay_clan(t, player, opened) and not (claims and t.rules.early_bird):
            claims.append(PASS)
        if clans < len(hand) and t.rules.tactics and _may_play_tactic(t):
            return (
                hand[:clans],
                opened,
                tactic_play_count(t, opened),
                claims,
                ruse_count(t, opened),
            )
        return hand[:clans], opened, 0, claims, 0
    if phase is _AFTER_PASS and claims:
        return (), (), 0, claims, 0
    if phase is _AFTER_PLAY and (t.deck or t.tactic_deck):
        if not t.rules.tactics:
            claims.append(DRAW)
        else:
            claims += [a for a, pile in ((DRAW_CLAN, t.deck), (DRAW_TACTIC, t.tactic_deck)) if pile]
        return (), (), 0, claims, 0
    claims.append(DONE)
    return (), (), 0, claims, 0


def _may_play_tactic(t: Table) -> bool:
    return may_play_tactic(t.tactics_played, t.to_move)


def tactic_plays(t: Table, opened: Sequence[int]) -> list[int]:
    """The tactic cards of the mover's hand laid at stones (the tactic limit
    allowing), increasing: elite troops where its side has room (``opened``; a
    second joker never), combat styles on unclaimed stones without one. The
    hand's tactic cards are sorted by id: elite troops, combat styles, then
    ruses (see :func:`ruse_actions`)."""
    hand = t.hands[t.to_move]
    plays: list[int] = []
    last = -1
    for card in hand[bisect_left(hand, CLANS) :]:
        if card == last:
            continue
        last = card
        if card >= _RECRUITER:
            break  # only ruses are left
        if card < _FIRST_STYLE:  # an elite troop
            if not (card == _JOKER and t.jokers_played[t.to_move]):
                at = card * STONES
                plays += [at + s for s in opened]
        else:  # a combat style
            at, owners, styles = card * STONES, t.owners, t.styles
            plays += [at + s for s in range(STONES) if owners[s] < 0 and styles[s] < 0]
    return plays


def tactic_play_count(t: Table, opened: Sequence[int]) -> int:
    """How many moves :func:`tactic_plays` lists, counted as it lists them:
    per elite troop kind (a second joker none) the stones of ``opened``, per
    combat style kind the unclaimed stones without a style."""
    hand = t.hands[t.to_move]
    count = 0
    last = -1
    for card in hand[bisect_left(hand, CLANS) :]:
        if card == last:
            continue
        last = card
        if card >= _RECRUITER:
            break
        if card < _FIRST_STYLE:
            if not (card == _JOKER and t.jokers_played[t.to_move]):
                count += len(opened)
        else:
            owners, styles = t.owners, t.styles
            count += sum(1 for s in range(STONES) if owners[s] < 0 and styles[s] < 0)
    return count


def _placed(t: Table, player: int, stones: list[int]) -> list[int]:
    """Each distinct card kind on ``player``'s side of ``stones`` as
    ``kind * STONES + stone``, increasing (by kind, then stone)."""
    sides, wild = t.sides, t.wild
    found: list[int] = []
    for s in stones:
        i = 2 * s + player
        mask = sides[i]
        while mask:
            low = mask & -mask
            found.append((low.bit_length() - 1) * STONES + s)
            mask ^= low
        if wild[i]:
            found += [c * STONES + s for c in set(wild[i])]
    found.sort()
    return found


def ruse_actions(t: Table, opened: Sequence[int]) -> list[int]:
    """The moves of the ruses in the mover's hand (the tactic limit allowing),
    increasing: banshee, traitor, strategist, recruiter. Each ruse names a card
    kind at a stone (``kind * STONES + stone``, increasing), then a target;
    ``opened`` are the stones with room on the mover's side."""
    player, opponent = t.to_move, 1 - t.to_move
    hand = t.hands[player]
    if not hand or hand[-1] < _RECRUITER:
        return []  # no ruse in hand (the ruses have the highest ids)
    unclaimed = [s for s in range(STONES) if t.owners[s] < 0]
    actions: list[int] = []
    theirs = _placed(t, opponent, unclaimed) if _BANSHEE in hand or _TRAITOR in hand else []
    if _BANSHEE in hand:
        actions += [BANSHEE + at for at in theirs]
    if _TRAITOR in hand:
        for at in theirs:
            if at >= _WILD_AT:
                break  # elite troops (the highest kinds) are no clan cards
            base = TRAITOR + at * STONES
            actions += [base + m for m in opened]
    if _STRATEGIST in hand:
        for at in _placed(t, player, unclaimed):
            base, s = STRATEGIST + at * (STONES + 1), at % STONES
            actions.append(base)
            actions += [base + m + 1 for m in opened if m != s]
    if _RECRUITER in hand:
        actions += [RECRUIT + RECRUIT_DRAWS.index(mix) for mix in _recruit_mixes(t)]
    return actions


def ruse_count(t: Table, opened: Sequence[int]) -> int:
    """How many moves :func:`ruse_actions` lists, counted as it lists them: the
    banshee one per card kind on the opponent's side of an unclaimed stone,
    the traitor one per clan card kind there and stone in ``opened``, the
    strategist one per card kind on the mover's side of an unclaimed stone and
    target (back to the hand, or a stone in ``opened`` other than its own),
    the recruiter one per mix of draws."""
    player = t.to_move
    hand = t.hands[player]
    if not hand or hand[-1] < _RECRUITER:
        return 0  # no ruse in hand (the ruses have the highest ids)
    owners, sides, wild = t.owners, t.sides, t.wild
    count = 0
    banshee, traitor = _BANSHEE in hand, _TRAITOR in hand
    if banshee or traitor:
        clans = troops = 0
        for s in range(STONES):
            if owners[s] < 0:
                i = 2 * s + 1 - player
                clans += sides[i].bit_count()
                if wild[i]:
                    troops += len(set(wild[i]))
        if banshee:
            count += clans + troops
        if traitor:
            count += clans * len(opened)
    if _STRATEGIST in hand:
        targets, rooms = 1 + len(opened), t.rooms[player]
        for s in range(STONES):
            if owners[s] < 0:
                i = 2 * s + player
                kinds = sides[i].bit_count() + (len(set(wild[i])) if wild[i] else 0)
                count += kinds * (targets - (rooms >> s & 1))
    if _RECRUITER in hand:
        if t.jokers_played[player] and sum(c != _JOKER and c != _RECRUITER for c in hand) < 2:
            count += len(_recruit_mixes(t))
        else:
            # Every mix the piles allow (a range of clan cards drawn): none
            # leaves too few cards to put back without the second joker
            # when two other cards than it stay in hand.
            clans, tactics = len(t.deck), len(t.tactic_deck)
            total = min(3, clans + tactics)
            count += min(total, clans) - max(0, total - tactics) + 1
    return count


def _recruit_mixes(t: Table) -> list[tuple[int, int]]:
    """The recruiter's draws (``tactics.recruit_draws``): three cards, or what
    the piles hold, in any mix the piles allow; with a joker played, only
    draws that leave cards it may put back (the second joker stays in hand)."""
    total = min(3, len(t.deck) + len(t.tactic_deck))
    mixes = []
    for clans in range(total, -1, -1):
        tactics = total - clans
        if clans > len(t.deck) or tactics > len(t.tactic_deck):
            continue
        if t.jokers_played[t.to_move]:
            hand = list(t.hands[t.to_move])
            hand.remove(_RECRUITER)
            hand += t.deck[len(t.deck) - clans :] + t.tactic_deck[len(t.tactic_deck) - tactics :]
            back = min(2, len(hand))
            if back and sum(1 for c in hand if c != _JOKER) < back:
                continue
        mixes.append((clans, tactics))
    return mixes


def _returns(t: Table) -> list[int]:
    """The cards the recruiter may put back (``tactics.put_back_options``): a
    set of two (or what the hand holds), never the second joker once one is played."""
    hand = t.hands[t.to_move]
    back = min(2, len(hand))
    options = {
        kinds
        for kinds in combinations(hand, back)
        if not (t.jokers_played[t.to_move] and _JOKER in kinds)
    }
    return sorted(RETURN + _return_index(kinds) for kinds in options)


def _return_index(kinds: tuple[int, ...]) -> int:
    """The index of a set of one or two kinds (increasing) in ``actions.RETURNS``."""
    if len(kinds) == 1:
        return kinds[0]
    i, j = kinds
    return _KINDS + i * _KINDS - i * (i - 1) // 2 + (j - i)
