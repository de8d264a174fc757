"""Plain words for people: what the viewer, the pictures and ``referee analyze`` say.

The library's codes (``color_run``, ``most_points``, ``blind_mans_bluff@2``)
stay the codes of records and JSON; here each becomes a sentence a player
reads without the rulebook's glossary.

>>> kind_words("color_run"), reason_words("fourth_tile_damaged")
('colour run', 'a fourth wall tile is damaged')
>>> move_words("schotten-totten", "blind_mans_bluff@2", "Irina")
"Irina plays blind man's bluff on stone 2"
>>> move_words("schotten-totten-2", "treason R7@3>5", "Thomas")
"Thomas plays treason: takes the opponent's R7 from tile 3 to tile 5"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "evidence_words",
    "formation_words",
    "kind_words",
    "line_move_words",
    "move_words",
    "reason_words",
    "result_words",
    "tactic_words",
]

_KINDS = {
    "color_run": "colour run",
    "three_of_a_kind": "three of a kind",
    "color": "colour",
    "run": "run",
    "sum": "sum",
}

_REASONS = {
    "three_adjacent": "three adjacent stones",
    "five_stones": "five stones",
    "blocked": "blocked: nothing on the table could change any more",
    "controlled_damaged_tile": "the attacker took control of a damaged tile",
    "fourth_tile_damaged": "a fourth wall tile is damaged",
    "siege_held": "the wall held until the siege cards ran out",
    "siege_failed": "the siege failed: nobody could change anything any more",
    "adjacent_places": "enough adjacent places",
    "places_held": "enough places held",
    "most_points": "most points",
    "most_cards": "equal points, most cards",
    "shared": "equal points and cards: the win is shared",
    "resignation": "resignation",
    "timeout": "out of time",
    "forfeit": "forfeit",
    "ply_limit": "the move limit was reached",
    "points": "more points",
    "draw": "equal points",
    "won_both": "won both games",
    "attacker_left_more_cards": "as attacker, left more cards in the siege deck",
    "defender_kept_more_wall_and_oil": "as defender, kept more intact tiles and oil",
    "further_game_needed": "level: a further game is needed",
}

_TACTICS = {
    "joker": "a joker",
    "spy": "the spy",
    "shield_bearer": "the shield bearer",
    "blind_mans_bluff": "blind man's bluff",
    "mud_fight": "mud fight",
    "recruiter": "the recruiter",
    "strategist": "the strategist",
    "banshee": "the banshee",
    "traitor": "the traitor",
}

_CARD = re.compile(r"^[A-Z]\d+$")


def kind_words(label: str) -> str:
    """A formation kind (``"color_run"``) as people say it (``"colour run"``)."""
    return _KINDS.get(label, label.replace("_", " "))


def reason_words(reason: str) -> str:
    """How a game or a match ended, in words (the record's ``reason`` code).

    >>> reason_words("three_adjacent"), reason_words("some_new_reason")
    ('three adjacent stones', 'some new reason')
    """
    return _REASONS.get(reason, reason.replace("_", " "))


def tactic_words(name: str) -> str:
    """A tactic card's name in words, without its article.

    >>> tactic_words("shield_bearer"), tactic_words("R7")
    ('shield bearer', 'R7')
    """
    if _CARD.match(name):
        return name
    words = _TACTICS.get(name, name.replace("_", " "))
    return words.removeprefix("the ").removeprefix("a ")


def _card(name: str) -> str:
    """A card in a sentence: clan and siege cards by their code, tactics by name."""
    return name if _CARD.match(name) else _TACTICS.get(name, name.replace("_", " "))


def _cards(names: Sequence[str]) -> str:
    named = [_card(n) for n in names]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def result_words(winner: int | None, reason: str, names: Sequence[str]) -> str:
    """``"Irina wins: three adjacent stones"`` (or a shared result).

    >>> result_words(1, "points", ["Irina", "Thomas"])
    'Thomas wins: more points'
    >>> result_words(None, "further_game_needed", ["a", "b"])
    'no winner: level: a further game is needed'
    """
    if winner is None:
        return f"no winner: {reason_words(reason)}"
    return f"{_name(names, winner)} wins: {reason_words(reason)}"


def _name(names: Sequence[str], player: int) -> str:
    return names[player] if 0 <= player < len(names) else f"player {player + 1}"


def formation_words(part: Mapping[str, Any] | None) -> str:
    """A complete formation from the prover's evidence, e.g. ``"a colour run
    totalling 24"`` (the number is the cards' sum, not a strength).

    >>> formation_words({"kind": "sum", "total": 17})
    'a plain sum of 17'
    >>> formation_words({"kind": "three_of_a_kind", "total": 15})
    'three of a kind totalling 15'
    """
    if not part:
        return "no formation"
    kind, total = str(part.get("kind")), part.get("total")
    if kind == "sum":
        return f"a plain sum of {total}"
    words = kind_words(kind)
    article = "" if kind == "three_of_a_kind" else "a "
    return f"{article}{words} totalling {total}"


def evidence_words(
    evidence: Mapping[str, Any],
    claimable: bool,
    *,
    who: str,
    place: str,
    lower_sum_wins: bool = False,
    examples: bool = True,
) -> str:
    """The prover's verdict on one claim, for a person: what stands against
    what, why, and (while the opponent's side is still open) the odds that it
    could still be beaten. ``examples=False`` leaves out the example cards the
    opponent could add (a one-player page names no card its player never saw).

    >>> evidence = {"claimant": {"kind": "color", "total": 12}, "opponent_best":
    ...     {"kind": "run", "total": 21, "added": ["O8"]}, "opponent_complete": False,
    ...     "odds": {"beating": 0, "total": 30}}
    >>> print(evidence_words(evidence, True, who="Irina", place="stone 8"))
    Irina can claim stone 8: Irina's colour totalling 12 cannot be beaten; the best the opponent can still make is a run totalling 21 (adding O8), and a colour beats a run.
    """
    mine = evidence.get("claimant") or {}
    best: Mapping[str, Any] | None = evidence.get("opponent_best") or None
    complete = bool(evidence.get("opponent_complete"))
    tie = best is not None and (mine.get("kind"), mine.get("total")) == (
        best.get("kind"),
        best.get("total"),
    )
    own = f"{who}'s {_bare(formation_words(mine))}"
    why = _why(mine, best, lower_sum_wins)
    if claimable:
        head = f"{who} can claim {place}: "
        if not best:
            return head + f"{own} stands, and the opponent can no longer complete a formation."
        theirs = formation_words(best)
        if complete:
            if tie:
                return (
                    head + f"{own} ties the opponent's {_bare(theirs)}, and {who} completed first."
                )
            return head + f"{own} beats the opponent's {_bare(theirs)}{why}."
        added = best.get("added") or []
        hint = f" (adding {' '.join(map(str, added))})" if examples and added else ""
        if tie:
            return (
                head + f"{own} stands: the opponent can at best tie it with {theirs}{hint}, "
                f"and {who} completed first."
            )
        return (
            head + f"{own} cannot be beaten; the best the opponent can still make is "
            f"{theirs}{hint}{why}."
        )
    head = f"{who} cannot claim {place}"
    theirs = formation_words(best)
    if complete:
        how = "ties it and was completed first" if tie else f"beats it{why}"
        return head + f": the opponent's {_bare(theirs)} {how}."
    added = (best or {}).get("added") or []
    hint = f", for example by adding {' '.join(map(str, added))}" if examples and added else ""
    text = head + f" yet: the opponent can still make {theirs}{hint}, which beats {own}."
    odds = evidence.get("odds")
    if isinstance(odds, Mapping) and odds.get("total"):
        beating, total = int(odds["beating"]), int(odds["total"])
        text += (
            f" Odds: {beating:,} of the {total:,} ways the opponent's side could still be "
            f"completed beat it ({_percent(beating, total)})."
        )
    return text


def _bare(words: str) -> str:
    return words.removeprefix("a ")


def _why(mine: Mapping[str, Any], best: Mapping[str, Any] | None, lower: bool) -> str:
    """Why one formation beats the other: a stronger kind, or the sums."""
    if not best or not mine:
        return ""
    a, b = str(mine.get("kind")), str(best.get("kind"))
    if a != b:
        order = list(_KINDS)
        stronger, weaker = (a, b) if order.index(a) < order.index(b) else (b, a)
        article = "" if stronger == "three_of_a_kind" else "a "
        other = "" if weaker == "three_of_a_kind" else "a "
        return f", and {article}{kind_words(stronger)} beats {other}{kind_words(weaker)}"
    if lower:
        return " (on this tile the lower sum wins)"
    return ""


def _percent(part: int, whole: int) -> str:
    if part == 0:
        return "none"
    share = 100 * part / whole
    if share < 1:
        return "less than 1%"
    return f"{share:.0f}%"


# --- moves ---------------------------------------------------------------------------

_ST_PILES = {"clan": "a clan card", "tactic": "a tactic card"}


def _places(what: str, numbers: str) -> str:
    items = [n for n in numbers.split(",") if n]
    if len(items) == 1:
        return f"{what} {items[0]}"
    return f"{what}s " + ", ".join(items[:-1]) + " and " + items[-1]


def move_words(game: str, move: str, who: str) -> str:
    """One move of the game named ``game``, as a sentence about the player ``who``
    made it (the game's :class:`~referee.games.Commentary` says it).

    >>> move_words("schotten-totten", "draw clan", "Irina")
    'Irina draws a clan card'
    >>> move_words("clans-and-glory", "R5@t1s2+down+shield", "Ada")
    'Ada places R5 face down at t1s2 and puts a shield on tableau 1'
    """
    from referee.games import find_game

    return find_game(game).commentary.move_words(move, who)


def line_move_words(move: str, place: str) -> str:
    """A move of a game on a line, as what its player does; ``place`` names its
    places (``"stone"``, ``"tile"``).

    >>> line_move_words("claim 4", "stone"), line_move_words("oil 2", "tile")
    ('claims stone 4', "pours oil on tile 2: the attacker's first card there is discarded")
    """
    words = move.split()
    head = words[0] if words else ""
    simple = {
        "pass": "passes: no card can be played",
        "done": "ends the turn without drawing",
        "draw": "draws a card" if place == "stone" else "draws a siege card",
        "draw clan": "draws a clan card",
        "draw tactic": "draws a tactic card",
        "shuffle": "the support's cards are shuffled into the siege deck",
    }
    if move in simple:
        return simple[move]
    said = _claim_recruit_return_words(head, words, place) or _tactic_move_words(move, place)
    if said is not None:
        return said
    if head in _ONE_ARGUMENT and len(words) == 2:
        return _ONE_ARGUMENT[head](place, words[1])
    if head == "shuffle":
        return "the support's cards are shuffled into the siege deck"
    played = re.fullmatch(r"(\S+)@(\d+)", move)
    if played:
        card, at = played.groups()
        if card in ("blind_mans_bluff", "mud_fight"):
            return f"plays {tactic_words(card)} on {place} {at}"
        return f"plays {_card(card)} at {place} {at}"
    return move


def _claim_recruit_return_words(head: str, words: Sequence[str], place: str) -> str | None:
    """A claim, a take of control, the recruiter or cards put back (``None``: none of those)."""
    if head in ("claim", "control") and len(words) == 2:
        return f"{'claims' if head == 'claim' else 'takes control of'} {place} {words[1]}"
    if head == "recruiter":
        return _recruiter(words[1:])
    if head == "return":
        return "puts back " + _returned(words[1:]) + " under the piles"
    return None


def _tactic_move_words(move: str, place: str) -> str | None:
    """A tactic that moves, takes or discards a card already on the line (``None``: not one)."""
    moved = re.fullmatch(r"(\w+) (\S+)@(\d+)>(\d+|discard)", move)
    if moved:
        tactic, card, source, target = moved.groups()
        to = "discards it" if target == "discard" else f"to {place} {target}"
        whose = "the opponent's " if tactic in ("traitor", "treason") else ""
        verb = "takes" if tactic in ("traitor", "treason") else "moves"
        if target == "discard":
            return f"plays {tactic_words(tactic)}: takes {card} from {place} {source} and {to}"
        return f"plays {tactic_words(tactic)}: {verb} {whose}{card} from {place} {source} {to}"
    removed = re.fullmatch(r"(banshee|desertion|recruitment) (\S+)@(\d+)", move)
    if removed:
        tactic, card, at = removed.groups()
        if tactic == "recruitment":
            return f"plays recruitment: takes {card} from the discards onto {place} {at}"
        return f"plays {tactic_words(tactic)}: discards the opponent's {card} from {place} {at}"
    return None


#: Moves of one word and one argument: what each says, given the places' name and
#: the argument.
_ONE_ARGUMENT: Mapping[str, Callable[[str, str], str]] = {
    "retreat": lambda place, at: "retreats: discards its cards at " + _places(place, at),
    "oil": lambda place, at: (
        f"pours oil on {place} {at}: the attacker's first card there is discarded"
    ),
    "explosion": lambda place, at: f"plays explosion: every card at {place} {at} is discarded",
    "support": lambda _place, cards: (
        f"plays support: {_cards(cards.split(','))} go back into the siege deck"
    ),
    "exchange": lambda _place, cards: f"plays exchange: offers {_cards(cards.split(','))}",
    "give": lambda _place, cards: f"answers the exchange: gives {_cards(cards.split(','))}",
}


def _recruiter(words: Sequence[str]) -> str:
    if "return" in words:
        at = list(words).index("return")
        draws, back = words[1:at], words[at + 1 :]
    else:
        draws, back = words[1:], []
    counted = [
        f"{draws.count(pile)} {pile} card{'s' if draws.count(pile) > 1 else ''}"
        for pile in ("clan", "tactic")
        if draws.count(pile)
    ]
    text = "plays the recruiter: draws " + " and ".join(counted)
    if back:
        text += ", puts back " + _returned(back)
    return text


def _returned(cards: Sequence[str]) -> str:
    return _cards([_ST_PILES.get(c, c) for c in cards])
