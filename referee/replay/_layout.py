"""The replay page's fixed text: the board's HTML skeleton, the legend, and the
page's style sheet.
"""

from __future__ import annotations

__all__ = ["LEGEND", "PAGE_STYLE", "SKELETON", "STYLE"]


SKELETON = """
<div class="replay-head">
 <select class="game-picker" aria-label="game"></select>
 <div class="match-line"></div>
 <div class="result"></div>
 <div class="game-verdict"></div>
</div>
<div class="score-strip" aria-label="score"></div>
<div class="replay-options">
 <span class="hand-toggles"></span>
 <button type="button" class="flip" title="turn the table around">flip board</button>
</div>
<div class="replay-main">
 <div class="board-wrap"><div class="board"></div></div>
 <div class="replay-side">
  <div class="happened" aria-live="polite"></div>
  <div class="refusal"></div>
  <section class="claims-panel">
   <h3>Claims on the table</h3>
   <ul class="claims"></ul>
   <div class="evidence">Click a &#x2713; or &#x2717; mark on a stone or tile to read its verdict here.</div>
  </section>
  <section class="missed-panel">
   <h3>Missed claims <button type="button" class="prev-missed" title="previous missed claim">&#x2190; previous</button>
   <button type="button" class="next-missed" title="next missed claim">next &#x2192;</button></h3>
   <div class="missed"></div>
  </section>
  <section class="graph-panel"><h3 class="graph-title"></h3><div class="graph"></div></section>
  <section class="moves-panel"><h3>Moves</h3><div class="moves-box"><table class="moves"></table></div></section>
  <section class="export">
   <h3>Export</h3>
   <button type="button" class="copy-link">copy link</button>
   <button type="button" class="copy-position">copy position (JSON)</button>
   <button type="button" class="copy-command">copy <code>referee claimable</code> command</button>
   <textarea class="export-text" readonly rows="3" aria-label="exported text"></textarea>
   <div class="export-note"></div>
  </section>
 </div>
</div>
<div class="replay-bar">
 <button type="button" class="first" title="first position (Home)">&#xAB;</button>
 <button type="button" class="prev-turn" title="back one turn (up arrow)">&#x25C0;&#x25C0;</button>
 <button type="button" class="back" title="back one move (left arrow)">&#x25C0;</button>
 <button type="button" class="forward" title="forward one move (right arrow)">&#x25B6;</button>
 <button type="button" class="next-turn" title="forward one turn (down arrow)">&#x25B6;&#x25B6;</button>
 <button type="button" class="last" title="last position (End)">&#xBB;</button>
 <input type="range" class="slider" min="0" max="0" value="0" aria-label="ply">
 <span class="ply-counter"></span>
</div>
"""

LEGEND = """
<details class="legend"><summary>Legend</summary><dl>
<dt>&#x2713; / &#x2717; on a stone or tile</dt><dd>The prover's verdict on a complete
formation: the claim is proven (&#x2713;) or the opponent can still beat it (&#x2717;).
Click it for the reasons.</dd>
<dt>totalling 24</dt><dd>The sum of the formation's card values: it decides only
between formations of the same kind (colour run, three of a kind, colour, run, plain sum,
strongest first).</dd>
<dt>Odds</dt><dd>Of the ways the opponent's side could still be completed from the
cards not yet seen on the table, how many would beat the claim. Shown only while that side
is still open.</dd>
<dt>1st</dt><dd>Both sides are complete: this player completed first, and wins a tie.</dd>
<dt>Orange dashed ring</dt><dd>The place the last move touched; an orange frame marks
the card it placed, an orange arrow a card a tactic moved.</dd>
<dt>Blue frame</dt><dd>The card just drawn.</dd>
<dt>Pink ring, &#x2691;</dt><dd>A missed claim: the stone or tile could have been claimed
from this position; &#x2691; marks the move that ended the turn without it.</dd>
<dt>Card backs</dt><dd>Brown with a cross: a clan or siege card; dark with a gold ring: a
tactic card (how many of those a hand holds is known to both players).</dd>
<dt>3 &#xB7; all, 4 &#xB7; sum, low</dt><dd>A wall tile's rule: cards a side, then what
counts: all (every formation), sum (only the sum), run + sum (runs and sums), colour + sum;
low: the lower sum wins.</dd>
<dt>Settled</dt><dd>From this ply on, the places decided for the winner already made a
win: nothing on the table could change the result.</dd>
<dt>Proven</dt><dd>A stone or tile whose claim the prover proves but nobody has claimed
yet.</dd>
<dt>Keys</dt><dd>&#x2190; &#x2192; one move, &#x2191; &#x2193; one turn, Home and End the first
and last position. The address bar's <code>#ply=N</code> opens the page at that ply.</dd>
</dl></details>
"""

PAGE_STYLE = """
body{margin:8px}
@media (max-width:700px){body{margin:4px}h1{font-size:1.2em}}
"""

STYLE = """
.referee-replay{font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;line-height:1.35}
.referee-replay [hidden]{display:none!important}
.referee-replay .replay-static svg{max-width:100%;height:auto}
.referee-replay .replay-head{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;margin:.3em 0}
.referee-replay .match-line{font-weight:bold}
.referee-replay .score-strip{display:flex;flex-wrap:wrap;gap:.2em 1.2em;margin:.3em 0;font-size:.95em}
.referee-replay .score-strip span{white-space:nowrap;max-width:100%;overflow:hidden;
 text-overflow:ellipsis;display:inline-block;vertical-align:top}
.referee-replay .score-strip .to-move{font-weight:bold;text-decoration:underline}
.referee-replay .replay-options{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;margin:.3em 0}
.referee-replay .replay-bar{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;margin:.4em 0}
.referee-replay .replay-bar button{font-size:1.1em;min-width:2.4em;min-height:2em}
.referee-replay .slider{flex:1;min-width:8em}
.referee-replay .ply-counter{font-variant-numeric:tabular-nums;min-width:9em}
.referee-replay .replay-main{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.referee-replay .board-wrap{flex:0 1 auto;max-width:100%;min-width:0}
.referee-replay .board svg{display:block;width:100%;height:auto;background:#fbfaf7}
.referee-replay .replay-side{flex:1 1 20em;min-width:16em;max-width:34em;font-size:.9em}
.referee-replay .replay-side h3{font-size:1em;margin:.7em 0 .2em}
.referee-replay .happened{background:#fff4e0;border-left:4px solid #e07b00;padding:.3em .5em}
.referee-replay .moves-box{max-height:22em;overflow-y:auto;border:1px solid #ddd4c4}
.referee-replay table.moves{border-collapse:collapse;width:100%}
.referee-replay table.moves th,.referee-replay table.moves td{padding:.15em .4em;vertical-align:top;text-align:left}
.referee-replay table.moves tr:nth-child(even){background:#f7f3ec}
.referee-replay table.moves td.round{color:#7a6f5c;width:2.5em}
.referee-replay table.moves td.turn.current{background:#ffe9c7}
.referee-replay .move{cursor:pointer;white-space:nowrap;margin-right:.5em;border-radius:3px;padding:0 .15em}
.referee-replay .move.current{background:#ffb74d;font-weight:bold}
.referee-replay .move.missed-claim::after{content:" \\2691";color:#c2185b}
.referee-replay .move.refused{color:#9b1c1c;font-weight:bold}
.referee-replay .claims li.claimable{color:#1b7f3b}
.referee-replay .claims li.not-claimable{color:#9b1c1c}
.referee-replay .evidence{background:#f4efe4;padding:.4em;border-radius:4px;margin:.4em 0}
.referee-replay .refusal,.referee-replay .missed,.referee-replay .game-verdict{color:#9b1c1c}
.referee-replay .verdict{border:3px solid #9b1c1c;background:#fde8e8;color:#7a1010;
 padding:.5em .8em;margin:.4em 0;border-radius:4px}
.referee-replay .verdict-head{font-size:1.2em;font-weight:bold;margin:.2em 0}
.referee-replay .verdict-line{margin:.2em 0;overflow-wrap:anywhere}
.referee-replay .viewer-note{background:#e8f0fb;border-left:4px solid #2b68b5;padding:.3em .5em}
.referee-replay .game-verdict{font-weight:bold}
.referee-replay .graph svg{width:100%;height:auto;cursor:crosshair}
.referee-replay .export textarea{width:100%;box-sizing:border-box;font-family:monospace;font-size:.85em}
.referee-replay .legend dt{font-weight:bold;margin-top:.3em}
.referee-replay .legend dd{margin:0 0 0 1em}
.referee-replay g.verdict{cursor:pointer}
.referee-replay g.hand-backs{display:none}
.referee-replay.hide-hand-0 g.hand-backs[data-player="0"],
.referee-replay.hide-hand-1 g.hand-backs[data-player="1"],
.referee-replay.hide-hand-2 g.hand-backs[data-player="2"],
.referee-replay.hide-hand-3 g.hand-backs[data-player="3"]{display:inline}
.referee-replay.hide-hand-0 g.hand[data-player="0"] g.card,
.referee-replay.hide-hand-1 g.hand[data-player="1"] g.card,
.referee-replay.hide-hand-2 g.hand[data-player="2"] g.card,
.referee-replay.hide-hand-3 g.hand[data-player="3"] g.card{visibility:hidden}
.referee-replay.flipped .board [style*="--dy"]{transform:translateY(calc(var(--dy) * 1px))}
.referee-replay .board .move-arrow.flip-only{display:none}
.referee-replay.flipped .board .move-arrow.flip-only{display:inline}
.referee-replay.flipped .board .move-arrow:not(.flip-only){display:none}
@media (max-width:700px){
 .referee-replay{padding-bottom:5.5em}
 .referee-replay .replay-bar{position:fixed;left:0;right:0;bottom:0;z-index:10;margin:0;
  padding:.3em;background:#fbfaf7;border-top:1px solid #bdb7aa;box-shadow:0 -2px 6px #0002}
 .referee-replay .replay-bar button{min-width:2.8em;min-height:2.6em;flex:1}
 .referee-replay .slider{flex:1 1 100%;order:-1}
 .referee-replay .ply-counter{min-width:0;font-size:.85em;flex:0 0 auto}
 .referee-replay .board-wrap{flex:1 1 100%}
 .referee-replay .replay-side{max-width:none;min-width:0;flex:1 1 100%;display:flex;
  flex-direction:column;min-height:100vh}
 .referee-replay .happened{order:0;height:5.6em;overflow-y:auto;box-sizing:border-box}
 .referee-replay .moves-panel{order:1}
 .referee-replay .refusal{order:2}
 .referee-replay .claims-panel{order:3}
 .referee-replay .missed-panel{order:4}
 .referee-replay .graph-panel{order:5}
 .referee-replay .export{order:6}
 .referee-replay .moves-box{max-height:14em}
}
"""
