#!/usr/bin/env node
// Claude Code as far as its mode and model go: reads the stream-json user message on stdin, then plays back the
// recorded Claude 2.1.330 plain answer with its init line naming the `--permission-mode` and `--model` it was started
// with (the last of each, as Claude's option parser keeps; `manual` read as `default`, as Claude does). With
// FAKE_CLAUDE_RECORD set, appends its arguments there as one JSON line per run.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");

const RECORDING = path.join(__dirname, "..", "fixtures", "claude-recorded", "2.1.330", "plain-answer.ndjson");
const args = process.argv.slice(2);

function lastValue(flag) {
  const at = args.lastIndexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

if (process.env.FAKE_CLAUDE_RECORD) fs.appendFileSync(process.env.FAKE_CLAUDE_RECORD, `${JSON.stringify({ args })}\n`);
const input = readline.createInterface({ input: process.stdin });
input.once("line", () => {
  input.close();
  const mode = lastValue("--permission-mode");
  const model = lastValue("--model");
  const lines = fs.readFileSync(RECORDING, "utf8").split("\n").filter((line) => line !== "");
  for (const line of lines) {
    const value = JSON.parse(line);
    if (value.type === "system" && value.subtype === "init") {
      value.permissionMode = mode === undefined || mode === "manual" ? "default" : mode;
      if (model !== undefined) value.model = model;
    }
    process.stdout.write(`${JSON.stringify(value)}\n`);
  }
});
