#!/usr/bin/env node
// Claude Code taking messages mid-turn, played from its recording (2.1.330 steer-mid-answer): the first message's turn
// streams and waits; a second message ends that turn (its `result`) and starts a turn of its own, which waits for a
// third before its answer and `result` (FAKE_MESSAGES=2: answers right away). Each message is echoed as `--replay-user-messages` does. Like pi, and unlike
// Claude, it exits as soon as its stdin closes: a host that closed it at the first `result` loses what followed.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const recording = fs
  .readFileSync(path.join(__dirname, "..", "fixtures", "claude-recorded", "2.1.330", "steer-mid-answer.ndjson"), "utf8")
  .split("\n")
  .filter((line) => line !== "");
const isResult = (line) => JSON.parse(line).type === "result";
const isReplay = (line) => JSON.parse(line).isReplay === true;
const firstResult = recording.findIndex(isResult);
const secondReplay = recording.findIndex((line, index) => index > firstResult && isReplay(line));
const replayOf = (words) => {
  const replay = JSON.parse(recording[secondReplay]);
  return JSON.stringify({ ...replay, message: { role: "user", content: [{ type: "text", text: words }] } });
};
const wordsOf = (line) => JSON.parse(line).message.content.map((block) => block.text).join("");
const print = (lines) => fs.writeSync(1, lines.map((line) => `${line}\n`).join(""));

const messages = Number(process.env.FAKE_MESSAGES ?? "3");
// FAKE_TAKES=N: messages after the Nth are read and never taken (no echo), as when a Stop comes before Claude took one.
const takes = Number(process.env.FAKE_TAKES ?? "3");
let received = 0;
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    received++;
    if (received > takes) continue;
    if (received === 1) print([...recording.slice(0, firstResult)]);
    if (received === 2) print([recording[firstResult], ...recording.slice(firstResult + 1, secondReplay), replayOf(wordsOf(line))]);
    if (received === 2 && messages === 2) print(recording.slice(secondReplay + 1));
    if (received === 3) print([replayOf(wordsOf(line)), ...recording.slice(secondReplay + 1)]);
  }
});
process.stdin.on("end", () => process.exit(0));
