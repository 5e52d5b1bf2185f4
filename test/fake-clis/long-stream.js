#!/usr/bin/env node
// A Locus (protocol 1) stream generated on the fly, too large or too odd to keep as a fixture:
//   long-stream.js text <characters> [thinking]  one answer of that many characters of text (or thinking) deltas
//   long-stream.js deep-parameters|deep-usage    a tool call's parameters, or the done's usage, nested 100,000 deep
//   long-stream.js blocks <count>                that many tiny blocks: a status, a text delta and a tool call
//                                                with a 4 KiB name, in turn
// then a done, exit 0. Writes block by block with writeSync, so its own memory stays small whatever it prints.
"use strict";
const fs = require("node:fs");

const DELTA_CHARS = 64 * 1024;
const DEPTH = 100_000;
const [mode, count, kind] = process.argv.slice(2);
const line = (type, payload) => JSON.stringify({ protocol: 1, type, sessionId: "long-stream", timestamp: 1, payload }) + "\n";
const write = (text) => {
  const bytes = Buffer.from(text, "utf8");
  for (let written = 0; written < bytes.length; ) written += fs.writeSync(1, bytes, written);
};
/** Arrays nested DEPTH deep, written as text (JSON.stringify cannot write them); put where a line says "DEEP". */
const withDeepValue = (text) => text.replace('"DEEP"', "[".repeat(DEPTH) + "]".repeat(DEPTH));

write(line("start", { command: "exec" }));
if (mode === "text") {
  const type = kind === "thinking" ? "thinking" : "text_delta";
  // Sixty-four deltas per write: one string, one buffer, one system call.
  const deltas = line(type, { content: "All work and no play makes a long answer. ".repeat(DELTA_CHARS / 43).padEnd(DELTA_CHARS, ".") }).repeat(64);
  for (let sent = 0; sent < Number(count); sent += 64 * DELTA_CHARS) write(deltas);
  write(line("done", { exitCode: 0, duration: 1, success: true }));
} else if (mode === "deep-parameters") {
  write(withDeepValue(line("tool_started", { tool: "Read", toolId: "t1", parameters: { path: "DEEP" } })));
  write(line("tool_completed", { tool: "Read", toolId: "t1", success: true }));
  write(line("text_delta", { content: "after the deep tool" }));
  write(line("done", { exitCode: 0, duration: 1, success: true }));
} else if (mode === "deep-usage") {
  write(line("text_delta", { content: "an answer" }));
  write(withDeepValue(line("done", { exitCode: 0, duration: 1, success: true, usage: "DEEP" })));
} else if (mode === "blocks") {
  const name = "Tool".padEnd(4096, "x");
  const batch = [];
  for (let i = 0; i < 3000; i += 3) {
    batch.push(line("status", { status: "working", message: `step ${i}` }));
    batch.push(line("text_delta", { content: `a word ${i}` }));
    batch.push(line("tool_started", { tool: `${name}${i}`, toolId: `t${i}` }));
  }
  const text = batch.join("");
  for (let sent = 0; sent < Number(count); sent += 3000) write(text);
  write(line("done", { exitCode: 0, duration: 1, success: true }));
} else {
  process.stderr.write("usage: long-stream.js text <characters> [thinking] | deep-parameters | deep-usage | blocks <count>\n");
  process.exit(64);
}
