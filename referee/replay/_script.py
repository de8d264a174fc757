"""The replay page's script: it reads the page's data and steps through the
games (the board, the move list, the claims, the graph, links and export).
"""

from __future__ import annotations

__all__ = ["SCRIPT"]


SCRIPT = r"""
function refereeReplay(root) {
  "use strict";
  var block = root.querySelector("script.replay-data");
  if (block.getAttribute("data-encoding") !== "gzip") {
    refereeBoard(root, JSON.parse(block.textContent));
    return;
  }
  // A notebook's replay: its data gzip-compressed; without a way to unpack it
  // the static picture stays.
  if (typeof DecompressionStream === "undefined" || typeof Response === "undefined") return;
  var raw = atob(block.textContent.trim()), bytes = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).text().then(function (text) { refereeBoard(root, JSON.parse(text)); });
}

function refereeBoard(root, data) {
  "use strict";
  var q = function (sel) { return root.querySelector(sel); };
  var T = function (i) { return data.texts[i]; };
  var board = q(".board"), slider = q(".slider"), counter = q(".ply-counter");
  var table = q("table.moves"), box = q(".moves-box"), picker = q(".game-picker");
  var toggles = q(".hand-toggles"), exportText = q(".export-text");
  var game = null, gameIndex = 0, sets = [], at = 0, ends = [], turnOf = [], spans = [];
  var cells = [], cursor = null, exportKind = null;
  function text(s) { return document.createTextNode(s); }
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined && content !== null) e.appendChild(text(content));
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function name(p) { return game.players[p] || "player " + (p + 1); }
  function last() { return game.frames.length - 1; }
  function plyOf(k) { return game.frames[k].refused ? game.illegal.ply - 1 : k; }

  function load(index) {
    gameIndex = index;
    game = data.games[index];
    picker.value = String(index);
    sets = [];
    var current = [];
    game.frames.forEach(function (frame) {
      var keep = current.filter(function (id) { return frame.out.indexOf(id) < 0; });
      current = keep.concat(frame.in);
      current.sort(function (a, b) { return data.rank[a] - data.rank[b]; });
      sets.push(current);
    });
    slider.max = last();
    board.parentNode.style.width = game.w + "px";
    ends = [0]; turnOf = [null];
    game.turns.forEach(function (turn, t) {
      for (var k = turn[1]; k <= turn[2]; k++) turnOf[k] = t;
      ends.push(turn[2]);
    });
    buildMoves();
    buildToggles();
    q(".result").textContent = game.game + ": " + game.result +
      (game.settled !== null ? " (settled on the table from ply " + game.settled + ")" : "");
    var m = game.match;
    q(".match-line").textContent = m ? m.head + " · game " + m.game + " of " + m.games +
      (m.after ? " · " + m.after : "") + " · " + m.summary : "";
    q(".game-verdict").textContent = game.verdict ? "Illegal: " + game.verdict : "";
    q(".claims-panel").hidden = !game.hasClaims;
    q(".missed-panel").hidden = !game.hasClaims;
    q(".prev-missed").disabled = q(".next-missed").disabled = !game.missed.length;
    q(".flip").hidden = !game.flip;
    buildGraph();
  }

  function buildMoves() {
    table.textContent = "";
    spans = [null]; cells = [];
    var n = game.players.length, head = el("tr");
    head.appendChild(el("th", "", "#"));
    for (var c = 0; c < n; c++) head.appendChild(el("th", "", name((game.first + c) % n)));
    table.appendChild(head);
    var rows = {}, flagged = {};
    game.missed.forEach(function (m) { (flagged[m.end] = flagged[m.end] || []).push(T(m.text)); });
    function row(r) {
      if (!rows[r]) {
        var tr = el("tr");
        tr.appendChild(el("td", "round", r + "."));
        var tds = [];
        for (var c = 0; c < n; c++) { var td = el("td", "turn"); tr.appendChild(td); tds.push(td); }
        rows[r] = tds;
        table.appendChild(tr);
      }
      return rows[r];
    }
    game.turns.forEach(function (turn, t) {
      var td = row(turn[3])[(turn[0] - game.first + n) % n];
      cells[t] = td;
      for (var k = turn[1]; k <= turn[2]; k++) {
        var span = el("span", "move", game.moves[k - 1]);
        span.dataset.ply = k;
        span.dataset.player = game.movers[k - 1];
        span.title = T(game.words[k - 1]);
        if (flagged[k]) {
          span.classList.add("missed-claim");
          span.title += "\n\u2691 " + flagged[k].join("\n\u2691 ");
        }
        span.addEventListener("click", (function (ply) { return function () { show(ply); }; })(k));
        td.appendChild(span);
        td.appendChild(text(" "));
        spans[k] = span;
      }
    });
    if (game.illegal) {
      var tr = el("tr"), td = el("td", "turn");
      tr.appendChild(el("td", "round", ""));
      td.colSpan = n;
      var span = el("span", "move refused", game.illegal.move + " (refused)");
      span.dataset.ply = game.illegal.ply;
      span.title = game.illegal.message;
      span.addEventListener("click", function () { show(last()); });
      td.appendChild(span);
      tr.appendChild(td);
      table.appendChild(tr);
      spans.push(span);
    }
  }

  function buildToggles() {
    toggles.textContent = "";
    for (var p = 0; p < 4; p++) root.classList.remove("hide-hand-" + p);
    if (data.viewer !== null) {
      toggles.appendChild(el("span", "viewer", name(data.viewer) + "'s page: the other hands are face down"));
    } else if (game.public) {
      toggles.appendChild(el("span", "public-note", "public record: the hands are not known (card backs)"));
    } else {
      game.players.forEach(function (who, p) {
        var label = el("label", "hand-toggle");
        var box_ = document.createElement("input");
        box_.type = "checkbox"; box_.checked = true; box_.dataset.player = p;
        box_.addEventListener("change", function () {
          root.classList.toggle("hide-hand-" + p, !box_.checked);
          box_.blur();
        });
        label.appendChild(box_);
        label.appendChild(text(" " + who + "'s hand face up"));
        toggles.appendChild(label);
      });
    }
  }

  function buildGraph() {
    var g = game.graph, holder = q(".graph");
    holder.textContent = "";
    q(".graph-title").textContent = g.title;
    var points = game.frames.length - (game.illegal ? 1 : 0);
    var top = g.goal || 1;
    g.series.forEach(function (s) { s.forEach(function (v) { if (v > top) top = v; }); });
    var W = 300, H = 90, pad = 6, xs = function (k) { return pad + (W - 2 * pad) * k / Math.max(1, points - 1); };
    var ys = function (v) { return H - pad - (H - 2 * pad) * v / top; };
    var svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": g.title});
    svg.appendChild(svgEl("rect", {x: 0, y: 0, width: W, height: H, fill: "#fbfaf7"}));
    if (g.goal) svg.appendChild(svgEl("line", {x1: pad, x2: W - pad, y1: ys(g.goal), y2: ys(g.goal),
      stroke: "#7a6f5c", "stroke-dasharray": "4,3"}));
    var colours = ["#1d3557", "#8c2f1b", "#2f6b3a", "#6b4f1d"];
    g.series.forEach(function (s, p) {
      if (!s.length) return;
      var pts = s.map(function (v, k) { return xs(k).toFixed(1) + "," + ys(v).toFixed(1); });
      var line = svgEl("polyline", {points: pts.join(" "), fill: "none", stroke: colours[p % 4],
        "stroke-width": 2, "class": "series", "data-player": p});
      line.appendChild(svgEl("title", {})).textContent = name(p);
      svg.appendChild(line);
    });
    game.missed.forEach(function (m) {
      svg.appendChild(svgEl("circle", {cx: xs(m.ply), cy: H - pad, r: 3, fill: "#c2185b",
        "class": "missed-mark"}));
    });
    cursor = svgEl("line", {x1: 0, x2: 0, y1: 0, y2: H, stroke: "#e07b00", "stroke-width": 2});
    svg.appendChild(cursor);
    svg.addEventListener("click", function (event) {
      var r = svg.getBoundingClientRect();
      var x = (event.clientX - r.left) / r.width * W;
      show(Math.round((x - pad) / (W - 2 * pad) * (points - 1)));
    });
    holder.appendChild(svg);
    cursor.dataset.scale = (W - 2 * pad) / Math.max(1, points - 1);
    cursor.dataset.pad = pad;
  }

  function show(k, quiet) {
    k = Math.max(0, Math.min(last(), k));
    at = k;
    var frame = game.frames[k];
    var body = sets[k].map(function (id) { return data.pieces[id]; }).join("");
    board.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + game.w + " " +
      game.h + '" role="img" class="referee-position ' + game.kind +
      '" style="font-family:Helvetica,Arial,sans-serif">' + body + "</svg>";
    slider.value = k;
    var total = game.moves.length, ply = plyOf(k), turn = turnOf[ply];
    counter.textContent = frame.refused ? "ply " + game.illegal.ply + " refused" :
      "ply " + k + " / " + total + (turn !== null && turn !== undefined ? " · turn " + (turn + 1) : "");
    counter.dataset.ply = k;
    spans.forEach(function (s) { if (s) s.classList.remove("current"); });
    cells.forEach(function (c) { c.classList.remove("current"); });
    var span = frame.refused ? spans[spans.length - 1] : spans[k];
    if (span) {
      span.classList.add("current");
      if (turn !== null && turn !== undefined && cells[turn]) cells[turn].classList.add("current");
      if (box.scrollHeight > box.clientHeight) {  // scroll the list, never the page
        var top = span.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) {
          box.scrollTop = Math.max(0, top - box.clientHeight / 2);
        }
      }
    }
    happened(k, frame, ply, turn);
    var claims = q("ul.claims");
    claims.textContent = "";
    frame.claims.forEach(function (c) {
      var li = el("li", c[1] ? "claimable" : "not-claimable", T(c[0]));
      li.dataset.place = c[2];
      claims.appendChild(li);
    });
    if (!frame.claims.length) {
      var over = k === last() && !frame.refused && game.result !== "unfinished";
      claims.appendChild(el("li", "none", over ? "the game is over: no claims left to make" :
        "no complete formation to judge"));
    }
    q(".missed").textContent = frame.missed.length ?
      "From this position: " + frame.missed.map(T).join(" ") : "";
    q(".refusal").textContent = frame.refused ?
      "Refused at ply " + game.illegal.ply + ": " + game.illegal.move + " (" +
      game.illegal.reason.replace(/_/g, " ") + "): " + game.illegal.message : "";
    var strip = q(".score-strip");
    strip.textContent = "";
    frame.score.forEach(function (line, p) {
      var item = el("span", "score", name(p) + ": " + T(line));
      item.title = item.textContent;
      item.dataset.player = p;
      if (p === (frame.refused ? game.movers[game.movers.length - 1] : toMove(k))) item.classList.add("to-move");
      strip.appendChild(item);
    });
    board.querySelectorAll("g.verdict").forEach(function (g) {
      g.addEventListener("click", function () {
        q(".evidence").textContent = g.querySelector("title").textContent;
      });
    });
    if (cursor) {
      var x = Number(cursor.dataset.pad) + Number(cursor.dataset.scale) * ply;
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    if (exportKind) exportText.value = exported(exportKind);
    if (data.link && !quiet && window.history && history.replaceState) {
      var hash = "#" + hashOf(k);
      try { history.replaceState(null, "", hash); } catch (e) { /* a sandboxed frame */ }
    }
  }

  function toMove(k) {
    if (k < game.movers.length) return game.movers[k];
    return null;
  }

  function happened(k, frame, ply, turn) {
    var out = q(".happened");
    if (frame.refused) {
      out.textContent = "Refused: " + game.illegal.move + " (" +
        game.illegal.reason.replace(/_/g, " ") + ")";
      return;
    }
    if (k === 0) {
      out.textContent = game.movers.length ? "The game begins: " + name(game.movers[0]) + " moves first." :
        "The game has no moves.";
      return;
    }
    var t = game.turns[turn], said = [];
    for (var i = t[1]; i <= k; i++) said.push(T(game.words[i - 1]));
    var tail = k === t[2] ? "" : " …";
    out.textContent = "Turn " + (turn + 1) + ": " + said.join("; ") + "." + tail;
  }

  function hashOf(k) {
    return (data.games.length > 1 ? "game=" + (gameIndex + 1) + "&" : "") + "ply=" + k;
  }

  function fromHash() {
    var found = {};
    (window.location.hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv.length === 2 && /^[0-9]+$/.test(kv[1])) found[kv[0]] = Number(kv[1]);
    });
    return found;
  }

  function position(k) {
    var items = game.frames[k].pos;
    if (!items) return null;
    var body = items.map(function (item) {
      if (typeof item === "number") return data.parts[item];
      return data.parts[item[0]] + ":[" + item[1].map(function (i) { return data.parts[i]; }).join(",") + "]";
    });
    return JSON.stringify(JSON.parse("{" + body.join(",") + "}"), null, 1);
  }

  function exported(kind) {
    var ply = plyOf(at);
    if (kind === "link") return window.location.href.split("#")[0] + "#" + hashOf(at);
    if (kind === "position") {
      return position(at) || "This page has no position to copy: a Clans and Glory position " +
        "holds every hand, which a page made for one player does not know.";
    }
    if (!game.command) return "This game was not read from a file: save it, then run " +
      "referee claimable FILE --ply " + ply;
    return game.command + " --ply " + ply;
  }

  function copy(kind) {
    exportKind = kind;
    var value = exported(kind);
    exportText.value = value;
    var note = q(".export-note");
    function fallback() {
      exportText.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      note.textContent = done ? "copied" : "select the text above and copy it";
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(value).then(function () { note.textContent = "copied"; }, fallback);
    } else {
      fallback();
    }
  }

  function step(delta) { show(at + delta); }
  function turnStep(direction) {
    var ply = plyOf(at), target = null;
    if (direction > 0) {
      for (var i = 0; i < ends.length; i++) if (ends[i] > ply) { target = ends[i]; break; }
      if (target === null) target = last();
    } else {
      for (var j = ends.length - 1; j >= 0; j--) if (ends[j] < ply) { target = ends[j]; break; }
      if (target === null) target = 0;
    }
    show(target);
  }
  function missedStep(direction) {
    var ply = plyOf(at), plies = game.missed.map(function (m) { return m.ply; });
    var target = null;
    if (direction > 0) {
      for (var i = 0; i < plies.length; i++) if (plies[i] > ply) { target = plies[i]; break; }
    } else {
      for (var j = plies.length - 1; j >= 0; j--) if (plies[j] < ply) { target = plies[j]; break; }
    }
    if (target !== null) show(target);
  }

  data.games.forEach(function (g, i) {
    var option = el("option", "", g.name + (g.verdict ? " (illegal)" : ": " + g.result +
      (g.match && g.match.after ? " · " + g.match.after : "")));
    option.value = i;
    picker.appendChild(option);
  });
  picker.hidden = data.games.length < 2;
  picker.addEventListener("change", function () { load(Number(picker.value)); show(0); picker.blur(); });
  function button(cls, action) {
    q(cls).addEventListener("click", function (event) { event.preventDefault(); action(); });
  }
  button(".first", function () { show(0); });
  button(".back", function () { step(-1); });
  button(".forward", function () { step(1); });
  button(".last", function () { show(last()); });
  button(".prev-turn", function () { turnStep(-1); });
  button(".next-turn", function () { turnStep(1); });
  button(".prev-missed", function () { missedStep(-1); });
  button(".next-missed", function () { missedStep(1); });
  button(".flip", function () { root.classList.toggle("flipped"); });
  button(".copy-link", function () { copy("link"); });
  button(".copy-position", function () { copy("position"); });
  button(".copy-command", function () { copy("command"); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  root.addEventListener("pointerdown", function () { window.refereeActiveReplay = root; });
  document.addEventListener("keydown", function (event) {
    var all = document.querySelectorAll(".referee-replay");
    if (all.length > 1 && window.refereeActiveReplay !== root) return;
    if (event.target && /INPUT|SELECT|TEXTAREA/.test(event.target.tagName) &&
        event.target !== slider) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var keys = {ArrowLeft: function () { step(-1); }, ArrowRight: function () { step(1); },
      ArrowUp: function () { turnStep(-1); }, ArrowDown: function () { turnStep(1); },
      Home: function () { show(0); }, End: function () { show(last()); }};
    if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
  });
  function open() {
    var wanted = data.link ? fromHash() : {};
    var g = wanted.game ? wanted.game - 1 : 0;
    if (!(g >= 0 && g < data.games.length)) g = 0;
    if (g !== gameIndex || game === null) load(g);
    var k = wanted.ply !== undefined ? wanted.ply : (data.start !== null ? data.start : 0);
    show(k, true);
  }
  if (data.link) window.addEventListener("hashchange", open);
  q(".replay-static").hidden = true;
  q(".replay-live").hidden = false;
  open();
}
"""
