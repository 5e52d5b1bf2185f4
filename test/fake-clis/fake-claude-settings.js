#!/usr/bin/env node
// Claude Code 2.1.330 taking its mode and model changed mid-turn: once the prompt arrives on stdin it says its init
// (permissionMode and model as its flags gave them, the slash commands as the real one named them) and then waits, answering each control request as the real CLI
// answered it (docs/protocols/claude-stream-json.md): `set_permission_mode` with a known mode → success naming the
// mode, then a `system/status` line with the new permissionMode; with an unknown one → an error with Claude's words;
// `set_model` → success naming the model. `interrupt` ends the turn (its answer, then a `result`), as does stdin
// closing. Every stdin line after the prompt is appended to FAKE_STDIN_LOG when set. FAKE_LEAVE_PLAN=1: started in
// plan mode, it leaves it by itself after its init (a status line naming `default`), as Claude does once its plan is
// approved. An `initialize` control request (written before the prompt) is answered with the answer Claude Code
// 2.1.330 gave (test/fixtures/claude-recorded/2.1.330/initialize.ndjson), before the init line as Claude does;
// FAKE_INITIALIZE=never leaves it unanswered, FAKE_INITIALIZE=late answers it after the init line (and the plan left),
// FAKE_INITIALIZE=after-set-model after its answer to the first `set_model`. Its init names
// the model its `--model` alias resolves to in that answer (`opus` → `claude-opus-5-5`; none: `default`'s), as Claude's does.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const INITIALIZE_RECORDING = path.join(__dirname, "..", "fixtures", "claude-recorded", "2.1.330", "initialize.ndjson");

const MODES = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
const args = process.argv.slice(2);
const flag = (name, otherwise) => (args.includes(name) ? args[args.indexOf(name) + 1] : otherwise);
const sessionId = flag("--session-id", flag("--resume", "00000000-0000-4000-8000-000000000001"));
let mode = flag("--permission-mode", "default");
let model = resolved(flag("--model", "default"));
const write = (value) => fs.writeSync(1, `${JSON.stringify(value)}\n`);

let prompted = false;
/** The initialize request answered after the init line (FAKE_INITIALIZE=late). */
let lateInitialize;
let ended = false;

function endTurn() {
  if (ended) return;
  ended = true;
  write({ type: "result", subtype: "success", is_error: false, result: "", session_id: sessionId, duration_ms: 1, num_turns: 1, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } });
}

/** Claude's recorded answer to `initialize`, naming this request. */
function initialized(requestId) {
  const recorded = fs
    .readFileSync(INITIALIZE_RECORDING, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line))
    .find((value) => value.type === "control_response");
  return { ...recorded, response: { ...recorded.response, request_id: requestId } };
}

/** The model an alias names in that recording's answer (any other name as it is). */
function resolved(alias) {
  return initialized("").response.response.models.find((known) => known.value === alias)?.resolvedModel ?? alias;
}

/** The slash commands Claude Code 2.1.330's init line named in that recording. */
function recordedCommands() {
  const init = JSON.parse(fs.readFileSync(INITIALIZE_RECORDING, "utf8").split("\n").find((line) => line.includes('"subtype":"init"')));
  return { slash_commands: init.slash_commands, terminal_slash_commands: init.terminal_slash_commands };
}

function onLine(text) {
  const initialize = JSON.parse(text);
  if (initialize.type === "control_request" && initialize.request.subtype === "initialize") {
    if (process.env.FAKE_STDIN_LOG) fs.appendFileSync(process.env.FAKE_STDIN_LOG, `${text}\n`);
    if (process.env.FAKE_INITIALIZE === "late" || process.env.FAKE_INITIALIZE === "after-set-model") lateInitialize = initialize.request_id;
    else if (process.env.FAKE_INITIALIZE !== "never") write(initialized(initialize.request_id));
    return;
  }
  if (!prompted) {
    prompted = true;
    write({ type: "system", subtype: "init", cwd: process.cwd(), session_id: sessionId, tools: [], model, permissionMode: mode, ...recordedCommands() });
    write({ type: "system", subtype: "status", status: "requesting", session_id: sessionId });
    if (process.env.FAKE_LEAVE_PLAN === "1" && mode === "plan") {
      mode = "default";
      write({ type: "system", subtype: "status", status: null, permissionMode: mode, session_id: sessionId });
    }
    if (lateInitialize !== undefined && process.env.FAKE_INITIALIZE === "late") write(initialized(lateInitialize));
    return;
  }
  if (process.env.FAKE_STDIN_LOG) fs.appendFileSync(process.env.FAKE_STDIN_LOG, `${text}\n`);
  const line = JSON.parse(text);
  if (line.type !== "control_request") return;
  const { request_id: requestId, request } = line;
  if (request.subtype === "set_permission_mode") {
    if (!MODES.includes(request.mode)) {
      const error = `Cannot set permission mode: must be one of ${MODES.join(", ")}`;
      write({ type: "control_response", response: { subtype: "error", request_id: requestId, error, error_code: "invalid_mode" } });
      return;
    }
    mode = request.mode;
    write({ type: "control_response", response: { subtype: "success", request_id: requestId, response: { mode } } });
    write({ type: "system", subtype: "status", status: null, permissionMode: mode, session_id: sessionId });
  } else if (request.subtype === "set_model") {
    model = request.model;
    write({ type: "control_response", response: { subtype: "success", request_id: requestId, response: { model } } });
    if (lateInitialize !== undefined && process.env.FAKE_INITIALIZE === "after-set-model") write(initialized(lateInitialize));
    lateInitialize = undefined;
  } else if (request.subtype === "interrupt") {
    write({ type: "control_response", response: { subtype: "success", request_id: requestId, response: { still_queued: [] } } });
    endTurn();
  }
}

let pending = "";
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
  endTurn();
  process.exit(0);
});
