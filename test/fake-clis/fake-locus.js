#!/usr/bin/env node
// A stand-in for `locus exec --json-stream "<prompt>"`. FAKE_SCENARIO picks how it behaves.
// FAKE_PID_FILE=<path>: appends this process's pid, then the pid of each child it starts, one per line, so a test
// that cannot see the process (it runs under VS Code's extension host) can check they are gone after a Stop.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const { parseArgs } = require("node:util");

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  options: { "json-stream": { type: "boolean" } },
  allowPositionals: true,
  strict: true,
});
const [command, prompt] = positionals;
if (command !== "exec" || !values["json-stream"] || prompt === undefined) {
  process.stderr.write(`usage: fake-locus exec --json-stream [--] <prompt>; got ${JSON.stringify(process.argv.slice(2))}\n`);
  process.exit(64);
}

const recordPid = (pid) => {
  if (process.env.FAKE_PID_FILE) fs.appendFileSync(process.env.FAKE_PID_FILE, `${pid}\n`);
};
recordPid(process.pid);

const sessionId = "fake-" + process.pid;
const began = Date.now();
const emit = (type, payload) =>
  process.stdout.write(JSON.stringify({ protocol: 1, type, sessionId, timestamp: Date.now(), payload }) + "\n");
const done = (exitCode, extra = {}) =>
  emit("done", { exitCode, duration: Date.now() - began, success: exitCode === 0, ...extra });

const scenarios = {
  // A whole answer: thinking, a tool call, markdown text that echoes the prompt.
  answer() {
    emit("start", { command: "exec", model: "fake-model", cwd: process.cwd() });
    emit("thinking", { content: "The user asked something. " });
    emit("tool_started", { tool: "Read", toolId: "t1", parameters: { file_path: "README.md" } });
    emit("tool_completed", { tool: "Read", toolId: "t1", success: true, duration: 5 });
    for (const piece of ["You asked: ", prompt, "\n\n", "Done ✅ 完了"]) emit("text_delta", { content: piece });
    done(0, { toolsUsed: ["Read"], tokensUsed: 42 });
  },
  // Dies mid-answer with a stack trace on stderr and no done.
  crash() {
    emit("start", { command: "exec" });
    emit("text_delta", { content: "partial answer" });
    process.stderr.write("at loadConfig (config.js:10)\nTypeError: Cannot read properties of undefined\n");
    process.exit(3);
  },
  // The conversation a follow-up continues is gone from the agent's side (a `--resume` of a lost session).
  lost() {
    emit("start", { command: "exec" });
    emit("error", { error: { code: "SESSION_NOT_FOUND", message: "No conversation found with this session ID", recoverable: false } });
    done(1);
    process.exit(1);
  },
  // Noise on stdout among valid events.
  noisy() {
    process.stdout.write("Loading locus v9…\n");
    emit("start", { command: "exec" });
    process.stdout.write("{not json\n");
    process.stdout.write(JSON.stringify({ protocol: 1, type: "done", sessionId, timestamp: 1, payload: { exitCode: "0" } }) + "\n");
    emit("text_delta", { content: "still here" });
    done(0);
  },
  // Streams until interrupted, then reports the interruption like Locus does: error + done, exit 1.
  // FAKE_CHILD=1: first starts a child that runs until a signal ends it, like a tool's shell command.
  slow() {
    if (process.env.FAKE_CHILD === "1") {
      recordPid(spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" }).pid);
    }
    emit("start", { command: "exec" });
    const timer = setInterval(() => emit("text_delta", { content: "tick " }), 20);
    const onSignal = (signal) => {
      clearInterval(timer);
      emit("error", { error: { code: "UNKNOWN", message: `terminated by signal ${signal}`, recoverable: false } });
      done(1);
      process.exit(1);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  },
  // Starts, then says nothing more and ignores SIGINT: only a timeout and escalation end it.
  silent() {
    process.on("SIGINT", () => {});
    emit("start", { command: "exec" });
    setInterval(() => {}, 1 << 30);
  },
  // Many deltas as fast as the pipe takes them.
  flood() {
    emit("start", { command: "exec" });
    const total = Number(process.env.FAKE_DELTAS || 100000);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent++;
        const ok = process.stdout.write(JSON.stringify({ protocol: 1, type: "text_delta", sessionId, timestamp: Date.now(), payload: { content: `${sent} ` } }) + "\n");
        if (!ok) return process.stdout.once("drain", pump);
      }
      done(0);
    };
    pump();
  },
};

const scenario = scenarios[process.env.FAKE_SCENARIO || "answer"];
if (!scenario) {
  process.stderr.write(`unknown FAKE_SCENARIO ${process.env.FAKE_SCENARIO}\n`);
  process.exit(64);
}
scenario();
