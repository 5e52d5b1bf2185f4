#!/usr/bin/env node
// Locus protocol 1, with the prompt read from stdin the way Claude Code's stream-json input and pi's rpc mode read
// theirs: one JSON line {"prompt": "..."}. It answers with text deltas 20 ms apart (FAKE_DELTAS, default 5), then
// `done`, and then waits on stdin like those CLIs do; it exits 0 when stdin closes. A line {"interrupt": true}
// ends the answer early with `done` (exit code 1 then). Every signal it receives is appended to FAKE_SIGNAL_LOG.
"use strict";
const fs = require("node:fs");

const sessionId = "stdin-locus-session";
const emit = (type, payload) => fs.writeSync(1, JSON.stringify({ protocol: 1, type, sessionId, timestamp: Date.now(), payload }) + "\n");
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (process.env.FAKE_SIGNAL_LOG) fs.appendFileSync(process.env.FAKE_SIGNAL_LOG, `${signal}\n`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

let timer;
let answered = false;
const finish = (exitCode) => {
  clearInterval(timer);
  answered = true;
  emit("done", { exitCode, duration: 1, success: exitCode === 0 });
};
const onLine = (line) => {
  const message = JSON.parse(line);
  if (message.interrupt === true && !answered) return finish(1);
  if (typeof message.prompt !== "string" || timer !== undefined) return;
  emit("start", { command: "exec" });
  let left = Number(process.env.FAKE_DELTAS || 5);
  timer = setInterval(() => (left-- > 0 ? emit("text_delta", { content: `${message.prompt} ` }) : finish(0)), 20);
};

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
    onLine(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
  }
});
process.stdin.on("end", () => process.exit(0));
