"""A recorded game (or a match) as one self-contained HTML page to step through.

:func:`replay_html` turns a record or a match into a web page that needs no
network and no server, built like an analysis board:

- **who plays and who is winning**: the players' names everywhere (picture,
  result, game picker, move list), a score strip at every ply (stones held
  and proven, damaged tiles and oil, Clans and Glory points), and a match's
  score and winner;
- **what just happened**: the card just placed is framed, a card just drawn
  marked in its hand, a card moved by a tactic gets an arrow, and the turn so
  far is told in words; step by move or by turn, with the move list paired
  per turn as chess lists pair white and black;
- **the prover's verdicts** in plain words on every complete formation (the
  odds while the opponent's side is still open), the missed chances to claim
  with buttons to jump between them, and a graph of the decided places (or
  Clans and Glory points) over the game;
- **links and export**: ``#ply=N`` (``#game=G&ply=N``) deep links, the
  position as JSON, and the ``referee claimable`` command for the position
  shown;
- **hands**: a full record shows every hand, and a toggle turns one face down
  (drawn as card backs, clan and tactic backs told apart). A page made for
  one player (``viewer``, ``referee replay --as N``) is built from that
  player's views of the game: it holds nothing that player did not see, in its
  data, its pictures or their tooltips;
- **small screens**: under 700 pixels the board takes the whole width, its card
  values stay at least 12 pixels tall, and the step buttons stay at the bottom
  of the screen without moving the page;
- **no script**: a static picture of the last position comes first, the
  interactive board replaces it once the page's script runs, so a notebook
  where scripts do not run (GitHub, nbviewer, an untrusted notebook) still
  shows the game.

A record or match that :func:`referee.records.validate` does not call legal
gets the same verdict here as on every command: the page opens with it, in
plain HTML above the board (illegal, at which ply, why), and the board steps
through the moves up to the refused one, which ends the game with its reason.

>>> from referee.records import parse_record
>>> from referee.replay import replay_html
>>> page = replay_html(parse_record({"game": "schotten-totten", "moves": ["R7@3"]}, "x"))
>>> page.startswith("<!DOCTYPE html>"), "http" in page.replace("http://www.w3.org", "")
(True, False)

The page grows with the number of distinct positions, not with their square:
each position is sent as the pieces of the picture that changed since the
previous one (a stone, a hand, the title bar), every piece and every text is
stored once, and each card face is drawn once as an SVG ``<symbol>`` that the
pictures ``<use>``.

The package is split by job: ``_game`` makes one game's data (its frames,
turns and verdicts), ``_data`` a whole page's data (matches, corpora,
verdicts), ``_page`` the HTML around it, ``_layout`` and ``_script`` the
page's fixed HTML, style sheet and script, and ``_command`` the ``referee
replay`` command.
"""

from referee.replay._command import (
    MAX_PAGE_GAMES,
    add_parser,
    read_documents,
    read_item,
    read_items,
    run,
)
from referee.replay._data import replay_data
from referee.replay._page import _script_json as _script_json  # for the tests
from referee.replay._page import replay_html

__all__ = [
    "MAX_PAGE_GAMES",
    "add_parser",
    "read_documents",
    "read_item",
    "read_items",
    "replay_data",
    "replay_html",
    "run",
]
