#!/usr/bin/env node
// Claude Code with `--permission-prompt-tool stdio`, replayed: prints a recorded stream (FAKE_RECORDING, an .ndjson of
// test/fixtures/claude-recorded/) line by line once the prompt arrives on stdin, and at each `can_use_tool` request
// waits for the answer on stdin. Every stdin line after the prompt is appended to FAKE_ANSWERS (one line each), and an
// answer that is not a control_response to the request waiting ends the run with exit 3 and the reason on stderr.
// FAKE_WORKSPACE replaces the recording's workspace folder in every line. FAKE_WITHDRAW=1: the first request is withdrawn at once (control_cancel_request, as Claude does on an interrupt)
// instead of waited on; the recording's next lines follow. The echoes of earlier answers in a recording (written
// there by --replay-user-messages) are skipped. Exits 0 when stdin closes after the last line. An `initialize` control
// request (written before the prompt) is left unanswered: these recordings were made without one.
"use strict";
const fs = require("node:fs");

const lines = fs.readFileSync(process.env.FAKE_RECORDING, "utf8").split("\n").filter((line) => line.trim() !== "");
// FAKE_WORKSPACE: the recording's workspace folder (its init's cwd) becomes this one, so its files are the test's.
const recordedWorkspace = JSON.parse(lines[0]).cwd;
const recorded = process.env.FAKE_WORKSPACE ? lines.map((line) => line.split(recordedWorkspace).join(process.env.FAKE_WORKSPACE)) : lines;
const answersLog = process.env.FAKE_ANSWERS;
const withdraw = process.env.FAKE_WITHDRAW === "1";

let pending = "";
let prompted = false;
let waitingFor = null;
let next = 0;
let replayed = false;
let inputEnded = false;

function writeNext() {
  while (next < recorded.length) {
    const text = recorded[next++];
    const line = JSON.parse(text);
    if (line.type === "control_response" && line.response && line.response.response && "behavior" in line.response.response) continue;
    fs.writeSync(1, `${text}\n`);
    if (line.type === "control_request" && line.request.subtype === "can_use_tool") {
      if (withdraw) {
        fs.writeSync(1, `${JSON.stringify({ type: "control_cancel_request", request_id: line.request_id })}\n`);
        // The recording's own cancel follows the request: it is written above already.
        if (JSON.parse(recorded[next] ?? "{}").type === "control_cancel_request") next++;
        continue;
      }
      waitingFor = line.request_id;
      return;
    }
  }
  replayed = true;
  if (inputEnded) process.exit(0);
}

function onLine(text) {
  const line = JSON.parse(text);
  if (line.type === "control_request" && line.request.subtype === "initialize") return;
  if (!prompted) {
    prompted = true;
    writeNext();
    return;
  }
  if (answersLog) fs.appendFileSync(answersLog, `${text}\n`);
  if (waitingFor === null) return;
  const answer = JSON.parse(text);
  if (answer.type !== "control_response" || answer.response.request_id !== waitingFor) {
    process.stderr.write(`expected the answer to ${waitingFor}, got ${text}\n`);
    process.exit(3);
  }
  waitingFor = null;
  writeNext();
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    onLine(line);
  }
});
process.stdin.on("end", () => {
  inputEnded = true;
  if (replayed || waitingFor !== null) process.exit(0);
});
