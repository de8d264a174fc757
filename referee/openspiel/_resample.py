"""States sampled from what one player knows (OpenSpiel's ``resample_from_infostate``).

OpenSpiel's information-set searches (``ismcts.ISMCTSBot``) ask a state for
another one that its player cannot tell apart from it. Here that state is a
whole game, not only a position: the adapter's strings recall every ply, so
the sample is a game played from its deal, move for move the same as seen by
the player, with every card the player never saw drawn again.

How the game is sampled, reading only what ``player`` knows of the real one:

- The cards that reached another player (or the cards removed face down)
  through a chance node the player did not see are that player's *receipts*.
  A receipt whose card the player saw later (played face up, given in an
  exchange, drawn back from under a pile) keeps its card, but not its time:
  the player saw when the card left that hand, not when it came, so it is
  given uniformly one of that hand's receipts made before it left (OpenSpiel's
  history of the sample says when). The other receipts get cards the player
  never saw, in a uniformly shuffled order (clan cards for clan draws, tactic
  cards for tactic draws: the kinds are public).
- Moves that name a card the player never saw (a card put face down, cards put
  back under a pile, an exchange's offer not answered yet) name the card that
  took its place.
- The game is played again from its deal with those cards; every move seen by
  the player, and every card it drew, is the real one. A sample in which a move
  is illegal (Clans and Glory's face-down card when a card would have fitted
  face up) or which reads differently to the player is drawn again, so the
  samples are exactly the games the player cannot tell from the real one
  (uniformly among their cards: the other players' choices are not weighed).

Not modelled: Schotten Totten 2's shuffle after a support (where its two cards
lie in the deck) is chance nobody sees, but the sample keeps the real places.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from referee.game import History
from referee.openspiel._tables import PUBLIC, Table

if TYPE_CHECKING:
    from referee.openspiel._game import RefereeState

__all__ = ["resample"]

#: How many samples are drawn before giving up (each one is a replay of the game).
ATTEMPTS = 100

#: No deadline: a card still held (or removed face down) at the end.
_NEVER = 1 << 30


class ResampleError(RuntimeError):
    """No game consistent with the player's information state was found."""


@dataclasses.dataclass(slots=True)
class _Receipt:
    """A card that reached a hidden receiver through a chance node ``player`` did not see."""

    index: int  # the chance node's place in OpenSpiel's history
    receiver: int  # a player, or HIDDEN
    card: Any
    deadline: int = _NEVER  # the history index at which the card left the hand
    seen: bool = False  # whether the player saw the card at some point


def _walk(obj: object, kinds: frozenset[Any], out: set[Any]) -> None:
    """Add to ``out`` every card of ``kinds`` held anywhere in ``obj`` (not its history)."""
    if isinstance(obj, Hashable) and not isinstance(obj, History):
        try:
            if obj in kinds:
                out.add(obj)
                return
        except TypeError:  # an unhashable part inside a tuple
            pass
    if isinstance(obj, History | str | bytes | int | float | bool):
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for field in dataclasses.fields(obj):
            _walk(getattr(obj, field.name), kinds, out)
    elif isinstance(obj, tuple | list | frozenset | set):
        for part in obj:
            _walk(part, kinds, out)


def seen_cards(table: Table, state: Any, player: int) -> set[Any]:
    """The cards ``player`` sees in ``state`` (its hand and the table)."""
    view = state.view(player)
    out: set[Any] = set()
    if hasattr(view, "board"):  # Clans and Glory: card ids on a board
        board = view.board
        ids = [c for c in board.seat_cards if c >= 0]
        ids += list(board.hands[player] or ())
        return {table.kinds[c] for c in ids}
    _walk(view, frozenset(table.kinds), out)
    return out


def _substitute(obj: Any, cards: dict[Any, Any]) -> Any:
    """``obj`` (a move) with every card of ``cards`` replaced by its value."""
    if isinstance(obj, Hashable):
        try:
            if obj in cards:
                return cards[obj]
        except TypeError:
            pass
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {
            f.name: _substitute(getattr(obj, f.name), cards)
            for f in dataclasses.fields(obj)
            if f.init
        }
        return dataclasses.replace(obj, **changes)
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(_substitute(part, cards) for part in obj)
    return obj


class _Read:
    """The real game, read once: its receipts and moves, told apart by what
    ``player`` saw."""

    def __init__(self, state: RefereeState, player: int) -> None:
        table = state._table
        self.actions: list[int] = list(state.history())
        self.moves: dict[int, tuple[int, Any]] = {}  # index -> (mover, move)
        self.receipts: list[_Receipt] = []
        seen: set[Any] = set()
        replay = state.get_game().new_initial_state()
        pending: list[_Receipt] = []  # draws of a move not played yet
        held: list[tuple[int, int]] = []  # (receipt no., receiver) still in a hand
        for index, action in enumerate(self.actions):
            node = replay._node
            steps = node.steps
            if node.game is None:
                receiver = table.slots[len(node.dealt)]
                if receiver not in (player, PUBLIC):
                    self.receipts.append(_Receipt(index, receiver, table.kinds[action]))
            elif node.pending is not None:
                pending.append(_Receipt(index, node.game.to_move, table.kinds[action]))
            elif not node.game.is_chance_node():
                self.moves[index] = (node.game.to_move, table.space(node.game).move_of(action))
            replay.apply_action(action)
            after = replay._node
            if after.game is None:
                continue
            if node.game is None:  # the deal is over
                seen |= seen_cards(table, after.game, player)
                held = [(k, r.receiver) for k, r in enumerate(self.receipts)]
                continue
            if after.steps is steps:
                continue
            held = self._ply(after.game.hands, pending, held, index, player)
            pending = []
            seen |= seen_cards(table, after.game, player)
        for receipt in self.receipts:
            receipt.seen = receipt.card in seen
        self.seen = seen
        start = replay._node.steps
        while start is not None and start.parent is not None:
            start = start.parent
        first = start.before if start is not None else replay._node.game
        every: Counter[Any] = Counter(table.pool)
        pool = set(table.pool)
        for name in table.piles:
            if first is not None:
                every.update(c for c in getattr(first, name) if c not in pool)
        #: every card of the game the player never saw, by kind of card
        self.unseen: dict[type, list[Any]] = {}
        for card in sorted(every, key=str):
            if card not in seen:
                self.unseen.setdefault(type(card), []).extend([card] * every[card])

    def _ply(
        self,
        hands: Any,
        pending: list[_Receipt],
        held: list[tuple[int, int]],
        index: int,
        player: int,
    ) -> list[tuple[int, int]]:
        """After a ply of the library (completed at history index ``index``): who
        got the cards drawn, and which receipts left their hands (the receipts
        still held are returned)."""
        for receipt in pending:
            owner = next(
                (p for p, hand in enumerate(hands) if hand is not None and receipt.card in hand),
                receipt.receiver,
            )
            receipt.receiver = owner
            if owner != player:
                self.receipts.append(receipt)
                held.append((len(self.receipts) - 1, owner))
        still = []
        for number, owner in held:
            receipt = self.receipts[number]
            if owner >= 0 and receipt.card not in hands[owner]:
                receipt.deadline = index
            else:
                still.append((number, owner))
        return still


def _sample(read: _Read, rng: random.Random) -> tuple[dict[int, Any], dict[Any, Any]]:
    """New cards for the hidden receipts (history index -> card) and the cards
    the moves name instead of the real unseen ones."""
    groups: dict[tuple[int, type], list[_Receipt]] = {}
    for receipt in read.receipts:
        groups.setdefault((receipt.receiver, type(receipt.card)), []).append(receipt)
    cards: dict[int, Any] = {}
    fresh: list[tuple[int, type, _Receipt]] = []  # (slot, kind, real receipt)
    for (_receiver, kind), receipts in sorted(
        groups.items(), key=lambda g: (g[0][0], str(g[0][1]))
    ):
        free = sorted(r.index for r in receipts)
        # the cards seen later first, by when they left the hand (then the
        # unseen ones, whose deadlines only say when a hidden card left)
        order = sorted(
            receipts, key=lambda r: (r.deadline, not r.seen, str(r.card) if r.seen else "")
        )
        for receipt in order:
            choices = [i for i in free if i < receipt.deadline]
            if not choices:
                raise ResampleError("no receipt comes early enough")
            slot = choices[rng.randrange(len(choices))]
            free.remove(slot)
            if receipt.seen:
                cards[slot] = receipt.card
            else:
                fresh.append((slot, kind, receipt))
    pools = {kind: list(cards_) for kind, cards_ in read.unseen.items()}
    for kind_cards in pools.values():
        rng.shuffle(kind_cards)
    instead: dict[Any, Any] = {}
    for slot, kind, receipt in sorted(fresh, key=lambda f: f[0]):
        card = pools[kind].pop()
        cards[slot] = card
        instead.setdefault(receipt.card, card)
    return cards, instead


def resample(state: RefereeState, player: int, sampler: Callable[[], float]) -> RefereeState:
    """A state ``player`` cannot tell from ``state`` (see the module's notes)."""
    table = state._table
    game = state.get_game()
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < table.players:
        raise ValueError(f"no player {player!r} in a {table.players}-player game")
    rng = random.Random(int(sampler() * (1 << 53)))
    read = _Read(state, player)
    want = state.information_state_string(player)
    for _ in range(ATTEMPTS):
        try:
            cards, instead = _sample(read, rng)
            sample = game.new_initial_state()
            for index, action in enumerate(read.actions):
                if index in cards:
                    action = table.kind_id(cards[index])
                elif index in read.moves:
                    mover, move = read.moves[index]
                    if mover != player and instead:
                        changed = _substitute(move, instead)
                        if changed != move:
                            action = sample._space().action_of(changed)
                sample.apply_action(action)
        except ResampleError:
            continue
        except (ValueError, KeyError, StopIteration):
            continue  # an illegal move or a card not there to draw: draw again
        if sample.information_state_string(player) == want:
            return sample  # type: ignore[no-any-return]
    raise ResampleError(
        f"no game consistent with player {player + 1}'s information state "
        f"found in {ATTEMPTS} samples"
    )
