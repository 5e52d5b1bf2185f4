#!/usr/bin/env node
// A stand-in agent CLI that fails the way FAKE_ERROR_CODE says (start, text, error, done with exit code 1), for the
// notification tests. `fake-failing login` is its interactive login: it writes FAKE_LOGIN_MARKER and exits 0.
"use strict";
const fs = require("node:fs");

const args = process.argv.slice(2);
if (args[0] === "login") {
  process.stdout.write("Logged in to the fake agent.\n");
  if (process.env.FAKE_LOGIN_MARKER) fs.writeFileSync(process.env.FAKE_LOGIN_MARKER, `login ${process.pid}\n`);
  process.exit(0);
}
const prompt = args.at(-1) ?? "";
const sessionId = "failing-" + process.pid;
const emit = (type, payload) => process.stdout.write(JSON.stringify({ protocol: 1, type, sessionId, timestamp: Date.now(), payload }) + "\n");
const code = process.env.FAKE_ERROR_CODE || "UNKNOWN";
emit("start", { command: "exec" });
emit("text_delta", { content: `Working on: ${prompt.split("\n")[0]}` });
emit("error", { error: { code, message: `fake ${code} for the test`, recoverable: false } });
emit("done", { exitCode: 1, duration: 1, success: false });
process.exitCode = 1;
