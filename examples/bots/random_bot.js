#!/usr/bin/env node
// A random bot in JavaScript: the arena protocol is language-neutral (docs/arena.md).
"use strict";
const readline = require("readline");

const PROTOCOL = "referee-arena/1";
let state = 1;

// A small seeded generator (mulberry32), so that a match is repeatable.
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: PROTOCOL, name: "random_bot.js" });
  } else if (message.type === "game") {
    state = (message.seed * 10 + message.seat) | 0;
    send({ type: "ready" });
  } else if (message.type === "turn") {
    const legal = message.legal;
    send({ type: "move", move: legal[Math.floor(random() * legal.length)] });
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
input.on("close", () => process.exit(0));
