"""The ten tactic cards of the Tartan-Taktiken variant, and their rules.

A tactic card's text is its name. There are three kinds: elite troops are played
like clan cards and valued when the stone is resolved; combat styles lie on a
stone and change how it is won; ruses take effect at once and are discarded.

    >>> Tactic("mud_fight").kind, Tactic("joker").kind
    ('style', 'elite')
    >>> len(TACTIC_CARDS), TACTIC_CARDS.count(Tactic("joker"))
    (10, 2)
    >>> wildcard_of(Tactic("shield_bearer")).values
    frozenset({1, 2, 3})

The rules (RULINGS 9-12, 14), each played in the turn's first step instead of
a clan card: no player may get two tactic cards ahead of the other (ruses
count), and a player plays one joker per game (the tactic limit and the
one-joker rule of :mod:`referee.line.tactics`). Elite troops go on a side like
clan cards (:func:`~referee.schotten_totten.rules.play_card`); a combat style
on an unclaimed stone without one (:func:`play_style`); the ruses:

* the **strategist** moves one of the mover's cards from an unclaimed stone
  to another with room, or discards it (:func:`strategist`);
* the **banshee** discards an opposing card from an unclaimed stone (:func:`banshee`);
* the **traitor** takes an opposing clan card from an unclaimed stone to the
  mover's side of an unclaimed stone with room (:func:`traitor`);
* the **recruiter** draws three cards in any mix of piles, then puts two cards
  back under their piles, replacing the turn's draw (:func:`recruit`,
  :func:`put_back`; the second joker stays in hand).

A side that loses a card is incomplete again, and completed again later.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement

from referee.cards import Card
from referee.game import History
from referee.line import illegal, replaced
from referee.line.tactics import JOKER, Ruses, check_tactic
from referee.schotten_totten.cards import (
    ELITE,
    ID,
    RUSES,
    STYLES,
    TACTIC_CARDS,
    TACTIC_NAMES,
    AnyCard,
    Tactic,
    copies,
    parse_card,
    wildcard_of,
)
from referee.schotten_totten.hands import check_in_hand, could_hold, spent, taken
from referee.schotten_totten.made import made_stone
from referee.schotten_totten.moves import (
    Banshee,
    Move,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
)
from referee.schotten_totten.state import Phase, Reason, State, Stone

__all__ = [
    "ELITE",
    "RUSES",
    "STYLES",
    "TACTIC_CARDS",
    "TACTIC_NAMES",
    "AnyCard",
    "Tactic",
    "banshee",
    "check_limit",
    "check_tactic_card",
    "copies",
    "parse_card",
    "play_style",
    "put_back",
    "put_back_options",
    "recruit",
    "recruit_draws",
    "restyled",
    "strategist",
    "traitor",
    "wildcard_of",
]

#: Schotten Totten's words for the ruses the line games share.
_RUSES = Ruses(
    noun="stone",
    no_such_place=Reason.NO_SUCH_STONE,
    claimed=Reason.STONE_CLAIMED,
    card_not_there=Reason.CARD_NOT_AT_STONE,
    same_place=Reason.SAME_STONE,
    side_full=Reason.SIDE_FULL,
)
#: Card kinds in a fixed order (clan cards, then tactic names): the order in
#: which listed moves name two cards whose order carries no information.
_KIND_RANK = ID


def check_variant(state: State, move: Move) -> None:
    """Tactic cards are played only with Tartan-Taktiken."""
    if not state.rules.tactics:
        raise illegal(
            move, Reason.TACTICS_NOT_IN_PLAY, "tactic cards are played only with Tartan-Taktiken"
        )


def check_tactic_card(state: State, move: PlayCard, card: Tactic) -> None:
    """A tactic card played at a stone: a real one, in the variant, not a ruse
    (a ruse is a move of its own)."""
    if card.name not in TACTIC_NAMES:
        raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a tactic card")
    check_variant(state, move)
    if card.kind == "ruse":
        raise illegal(
            move,
            Reason.RUSE_NOTATION,
            "a ruse is played with its own move, like 'banshee B5@4', not at a stone",
        )


def check_limit(state: State, move: Move, card: AnyCard) -> None:
    """The tactic limit and the one-joker rule (after the hand was checked)."""
    check_tactic(
        move,
        card,
        state.tactics_played,
        state.jokers_played,
        state.to_move,
        (Reason.TACTIC_LIMIT, Reason.SECOND_JOKER),
    )


# --- combat styles ---------------------------------------------------------------------------


def play_style(
    state: State, move: PlayCard, card: Tactic, stone: Stone, past: History[Move]
) -> State:
    """Lay a combat style on an unclaimed stone that holds none (checked so far
    by ``play_card``)."""
    if stone.style is not None:
        raise illegal(move, Reason.STYLE_TAKEN, f"stone {move.stone} already holds {stone.style}")
    hands, sizes, played, jokers, held = spent(state, state.to_move, card)
    return state._changed(
        stones=replaced(state.stones, move.stone - 1, restyled(stone, card, state.ply)),
        hands=hands,
        hand_sizes=sizes,
        tactics_played=played,
        jokers_played=jokers,
        hand_tactics=held,
        phase=Phase.AFTER_PLAY,
        ply=state.ply + 1,
        past=past,
    )


def restyled(stone: Stone, style: Tactic, ply: int) -> Stone:
    """``stone`` with a combat style on it. Mud Fight makes formations four
    cards: a side of three is incomplete again until its fourth."""
    size = 4 if style.name == "mud_fight" else 3
    completed = tuple(
        done if len(side) == size else None
        for side, done in zip(stone.sides, stone.completed, strict=True)
    )
    return made_stone(stone.sides, completed, stone.masks, size, stone.owner, style)


# --- ruses -------------------------------------------------------------------------------------


def _start_ruse(
    state: State, move: Move, name: str
) -> tuple[
    tuple[tuple[AnyCard, ...] | None, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
    tuple[int, ...],
    tuple[AnyCard, ...],
]:
    """The checks every ruse makes first; the fields after spending it (hands,
    hand sizes, tactics played, jokers played, tactic cards in hand, discards)."""
    if state.phase is not Phase.PLAY:
        raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
    card = Tactic(name)
    check_variant(state, move)
    check_in_hand(state, move, card)
    check_limit(state, move, card)
    return (*spent(state, state.to_move, card), (*state.discards, card))


def _after_ruse(
    state: State,
    past: History[Move],
    stones: Iterable[Stone],
    spent_fields: tuple[
        tuple[tuple[AnyCard, ...] | None, ...],
        tuple[int, ...],
        tuple[int, ...],
        tuple[bool, ...],
        tuple[int, ...],
        tuple[AnyCard, ...],
    ],
    thrown: tuple[AnyCard, ...],
) -> State:
    hands, sizes, played, jokers, held, discards = spent_fields
    return state._changed(
        stones=tuple(stones),
        hands=hands,
        hand_sizes=sizes,
        tactics_played=played,
        jokers_played=jokers,
        hand_tactics=held,
        discards=(*discards, *thrown),
        phase=Phase.AFTER_PLAY,
        ply=state.ply + 1,
        past=past,
    )


def strategist(state: State, move: Strategist, past: History[Move]) -> State:
    """Move one of your cards to another unclaimed stone with room, or discard it."""
    fields = _start_ruse(state, move, "strategist")
    stones, thrown = _RUSES.redeploy(
        move, state.stones, state.to_move, move.card, move.source, move.target, state.ply
    )
    return _after_ruse(state, past, stones, fields, thrown)  # type: ignore[arg-type]


def banshee(state: State, move: Banshee, past: History[Move]) -> State:
    """Discard an opposing card from an unclaimed stone."""
    fields = _start_ruse(state, move, "banshee")
    stones, thrown = _RUSES.desert(
        move, state.stones, state.to_move, move.card, move.stone, state.ply
    )
    return _after_ruse(state, past, stones, fields, thrown)  # type: ignore[arg-type]


def traitor(state: State, move: Traitor, past: History[Move]) -> State:
    """Take an opposing clan card to your side of an unclaimed stone with room."""
    fields = _start_ruse(state, move, "traitor")
    stones = _RUSES.betray(
        move,
        state.stones,
        state.to_move,
        move.card,
        move.source,
        move.target,
        state.ply,
        plain=lambda card: type(card) is Card,
        not_plain=(Reason.NOT_A_CLAN_CARD, "the traitor takes clan cards only"),
    )
    return _after_ruse(state, past, stones, fields, ())


# --- the recruiter -----------------------------------------------------------------------------


def recruit(state: State, move: Recruit, past: History[Move]) -> State:
    """The recruiter's draws: three cards (fewer if the piles hold fewer) in
    any mix of piles. Which cards go back is the next ply (a :class:`PutBack`),
    chosen with the drawn cards in hand; the older one-move form names them."""
    player = state.to_move
    hands, sizes, played, jokers, held, discards = _start_ruse(state, move, "recruiter")
    after = state._changed(
        hands=hands,
        hand_sizes=sizes,
        tactics_played=played,
        jokers_played=jokers,
        hand_tactics=held,
        discards=discards,
    )
    wanted = min(3, state.deck_size + state.tactic_deck_size)
    if len(move.draws) != wanted:
        raise illegal(
            move,
            Reason.RECRUIT_DRAWS,
            f"the recruiter draws {wanted} cards, not {len(move.draws)}",
        )
    clans = move.draws.count("clan")
    if clans > state.deck_size or len(move.draws) - clans > state.tactic_deck_size:
        raise illegal(move, Reason.PILE_EMPTY, "a pile runs out before those draws")
    after = _drawn(after, clans, len(move.draws) - clans)
    if not move.returns:
        back = min(2, after.hand_sizes[player])
        if back and not put_back_options(after):
            raise illegal(
                move,
                Reason.SECOND_JOKER,
                f"the recruiter would have to put {back} cards back, but the second "
                "joker stays in your hand to the end",
            )
        phase = Phase.RECRUIT_RETURN if back else Phase.AFTER_RECRUIT
        return after._changed(phase=phase, ply=state.ply + 1, past=past)
    return _returned(after, move, move.returns, past)


def _drawn(state: State, clans: int, tactics: int) -> State:
    hands, sizes, deck, deck_size, tactic_deck, tactic_size, held, under = taken(
        state, state.to_move, clans, tactics
    )
    return state._changed(
        hands=hands,
        hand_sizes=sizes,
        deck=deck,
        deck_size=deck_size,
        tactic_deck=tactic_deck,
        tactic_deck_size=tactic_size,
        hand_tactics=held,
        under_piles=under,
    )


def put_back(state: State, move: PutBack, past: History[Move]) -> State:
    """The recruiter's second step: two cards (or what the hand holds) back
    under their piles; the turn goes on with claims, then ``done``."""
    if state.phase is not Phase.RECRUIT_RETURN:
        raise illegal(
            move,
            Reason.NOT_RECRUITING,
            "cards go back under the piles only right after the recruiter's draws",
        )
    return _returned(state, move, move.cards, past)


def _returned(
    state: State, move: Recruit | PutBack, returns: tuple[AnyCard | str, ...], past: History[Move]
) -> State:
    """The recruiter's cards ``returns`` put under their piles (a hidden card
    written as its pile's name)."""
    player = state.to_move
    hand, size = state.hands[player], state.hand_sizes[player]
    back = min(2, size)
    if len(returns) != back:
        raise illegal(
            move,
            Reason.RECRUIT_RETURNS,
            f"the recruiter puts {back} cards back, not {len(returns)}",
        )
    remaining = list(hand) if hand is not None else None
    tactic_back = sum(1 for i in returns if i == "tactic" or type(i) is Tactic)
    held_tactics = state.tactics_in_hand(player)
    if remaining is None and (
        tactic_back > held_tactics or back - tactic_back > size - held_tactics
    ):
        raise illegal(
            move,
            Reason.CARD_NOT_IN_HAND,
            f"after the draws your hand holds {size - held_tactics} clan and "
            f"{held_tactics} tactic cards: it cannot put those back",
        )
    if JOKER in returns and state.jokers_played[player]:
        raise illegal(
            move,
            Reason.SECOND_JOKER,
            "you have played a joker, so the second one stays in your hand to the end",
        )
    deck, tactic_deck = state.deck, state.tactic_deck
    for item in returns:
        if isinstance(item, str):
            if remaining is not None:
                raise illegal(
                    move, Reason.RECRUIT_RETURNS, f"name the card put back, not just {item!r}"
                )
            if item == "clan":
                deck = None
            else:
                tactic_deck = None
            continue
        if remaining is not None:
            if item not in remaining:
                raise illegal(
                    move, Reason.CARD_NOT_IN_HAND, f"{item} is not in your hand to put back"
                )
            remaining.remove(item)
        elif not could_hold(state, item):
            raise illegal(move, Reason.CARD_ALREADY_PLAYED, f"{item} is already on the table")
        if isinstance(item, Card):
            deck = None if deck is None else (*deck, item)
        else:
            tactic_deck = None if tactic_deck is None else (*tactic_deck, item)
    clan_back = sum(1 for i in returns if i == "clan" or type(i) is Card)
    under_clan, under_tactic = state.under_piles
    for item in returns:
        if item == "clan" or type(item) is Card:
            under_clan = (*under_clan, (player, item))
        else:
            under_tactic = (*under_tactic, (player, item))
    return state._changed(
        under_piles=(under_clan, under_tactic),
        hands=replaced(state.hands, player, None if remaining is None else tuple(remaining)),
        hand_sizes=replaced(state.hand_sizes, player, size - back),
        deck=deck,
        deck_size=state.deck_size + clan_back,
        tactic_deck=tactic_deck,
        tactic_deck_size=state.tactic_deck_size + back - clan_back,
        hand_tactics=replaced(state.hand_tactics, player, held_tactics - tactic_back),
        phase=Phase.AFTER_RECRUIT,
        ply=state.ply + 1,
        past=past,
    )


def recruit_draws(state: State) -> list[tuple[str, ...]]:
    """The recruiter's possible draws for the player to move (three cards, or
    what the piles hold, clan draws first, most clan draws first), each one
    that leaves it cards it may put back (the second joker stays in hand)."""
    total = min(3, state.deck_size + state.tactic_deck_size)
    options: list[tuple[str, ...]] = []
    for clans in range(total, -1, -1):
        tactics = total - clans
        if clans > state.deck_size or tactics > state.tactic_deck_size:
            continue
        draws = ("clan",) * clans + ("tactic",) * tactics
        if state.jokers_played[state.to_move]:
            # the second joker stays in hand: the draws must leave cards to put back
            hands, sizes, played, jokers, held, discards = _start_ruse(
                state, Recruit(draws), "recruiter"
            )
            after = _drawn(
                state._changed(
                    hands=hands,
                    hand_sizes=sizes,
                    tactics_played=played,
                    jokers_played=jokers,
                    hand_tactics=held,
                    discards=discards,
                ),
                clans,
                tactics,
            )
            if min(2, after.hand_sizes[state.to_move]) and not put_back_options(after):
                continue
        options.append(draws)
    return options


def put_back_options(state: State) -> list[tuple[AnyCard | str, ...]]:
    """Each set of cards the recruiter may put back, once (which of two goes
    under a pile first is not a decision of its own: one order, the kind order
    of the action ids); a hidden hand's as pile names."""
    player = state.to_move
    hand, size = state.hands[player], state.hand_sizes[player]
    if hand is None:
        held = state.tactics_in_hand(player)
        return [
            back
            for back in combinations_with_replacement(("clan", "tactic"), min(2, size))
            if back.count("tactic") <= held and back.count("clan") <= size - held
        ]
    options: Iterable[tuple[AnyCard, ...]] = dict.fromkeys(
        tuple(sorted(back, key=_KIND_RANK.__getitem__)) for back in combinations(hand, min(2, size))
    )
    if state.jokers_played[player]:
        options = [back for back in options if JOKER not in back]
    return list(options)
