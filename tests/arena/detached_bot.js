#!/usr/bin/env node
// A bot that leaves a detached child behind (spawn with detached: true and unref,
// in a session of its own), then plays random moves. Usage: detached_bot.js MARKER.
"use strict";
const { spawn } = require("child_process");
const readline = require("readline");

const marker = process.argv[2];

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: "referee-arena/1", name: "detached" });
  } else if (message.type === "game") {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", marker], {
      detached: true,
      stdio: "ignore",
    });
    child.unref();
    send({ type: "log", text: `left child ${child.pid}` });
    send({ type: "ready" });
  } else if (message.type === "turn") {
    const legal = message.legal;
    send({ type: "move", move: legal[Math.floor(Math.random() * legal.length)] });
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
input.on("close", () => process.exit(0));
