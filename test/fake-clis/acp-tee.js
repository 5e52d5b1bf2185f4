#!/usr/bin/env node
// Sits between an ACP client and a real agent and logs their traffic as a client would: every JSON-RPC line of both
// directions, in the order the tee passes them on, appended to ACP_TEE_LOG (one message a line: the `acp` dialect's
// input). Everything is passed on byte for byte; stderr goes straight through. Exits as the agent did.
//
//   ACP_TEE_LOG=run.ndjson agent-stream ask --profile acp --cli node --arg=test/fake-clis/acp-tee.js --arg=qwen --arg=--acp -- "Say hi."
//
// ACP_TEE_WRAP=1 writes each line wrapped, {"direction":"outgoing"|"incoming","message":{…}} (outgoing: to the agent).
// ACP_TEE_STDERR=FILE also keeps the agent's stderr there, byte for byte (`ask --json` does not print it).
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");

const [command, ...args] = process.argv.slice(2);
const logFile = process.env.ACP_TEE_LOG;
if (command === undefined || !logFile) {
  process.stderr.write("usage: ACP_TEE_LOG=FILE acp-tee.js AGENT [ARG]...\n");
  process.exit(2);
}
const wrap = process.env.ACP_TEE_WRAP === "1";
const log = fs.openSync(logFile, "a");

/** Complete lines only: a message split across chunks is logged once it is whole. */
function lineLogger(direction) {
  let pending = "";
  return (chunk) => {
    pending += chunk.toString("utf8");
    let newline;
    while ((newline = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, newline).replace(/\r$/, "");
      pending = pending.slice(newline + 1);
      if (line.trim() !== "") fs.writeSync(log, (wrap ? wrapped(direction, line) : line) + "\n");
    }
  };
}

function wrapped(direction, line) {
  try {
    return JSON.stringify({ direction, message: JSON.parse(line) });
  } catch {
    return line;
  }
}

// The agent stays in our process group: the client's signals to the group reach it as they would without the tee.
const stderrFile = process.env.ACP_TEE_STDERR;
const agent = spawn(command, args, { stdio: ["pipe", "pipe", stderrFile ? "pipe" : "inherit"] });
if (stderrFile) {
  const kept = fs.openSync(stderrFile, "a");
  agent.stderr.on("data", (chunk) => {
    fs.writeSync(kept, chunk);
    process.stderr.write(chunk);
  });
}
const logOutgoing = lineLogger("outgoing");
const logIncoming = lineLogger("incoming");

process.stdin.on("data", (chunk) => {
  logOutgoing(chunk);
  agent.stdin.write(chunk);
});
process.stdin.on("end", () => agent.stdin.end());
agent.stdin.on("error", () => {});
agent.stdout.on("data", (chunk) => {
  logIncoming(chunk);
  process.stdout.write(chunk);
});
agent.on("error", (error) => {
  process.stderr.write(`acp-tee: ${command} could not be started: ${error.message}\n`);
  process.exit(127);
});
agent.on("close", (code, signal) => {
  fs.closeSync(log);
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
// The group's signals are the agent's to act on; the tee ends when it does.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});
