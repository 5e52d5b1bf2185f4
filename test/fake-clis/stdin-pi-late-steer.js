#!/usr/bin/env node
// pi in rpc mode taking a steered message after it decided to end, played from its recording (0.73.1
// steer-mid-answer): the prompt's turn streams to its `turn_end` (its last look at the steering queue found nothing),
// then waits for a `steer`, which pi queues (`queue_update`, its `response`) and never takes: its `agent_end` follows,
// and the message stays queued for a next prompt. Like pi, it exits as soon as its stdin closes.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const recording = fs
  .readFileSync(path.join(__dirname, "..", "fixtures", "pi-recorded", "0.73.1", "steer-mid-answer.ndjson"), "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line));
const firstTurnEnd = recording.findIndex((value) => value.type === "turn_end");
// The first turn as it would have streamed with nobody steering: without the recorded steer's queue lines.
const firstTurn = recording.slice(0, firstTurnEnd + 1).filter((value) => value.type !== "queue_update" && !(value.type === "response" && value.command === "steer"));
const messages = firstTurn.filter((value) => value.type === "message_end").map((value) => value.message);
const print = (values) => fs.writeSync(1, values.map((value) => `${JSON.stringify(value)}\n`).join(""));

let received = 0;
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const command = JSON.parse(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
    received++;
    if (received === 1) print(firstTurn);
    else if (command.type === "steer") {
      print([
        { type: "queue_update", steering: [command.message], followUp: [] },
        { type: "response", command: "steer", success: true },
        { type: "agent_end", messages },
      ]);
    }
  }
});
process.stdin.on("end", () => process.exit(0));
