#!/usr/bin/env node
// Reports how it was started (arguments, folder, environment, stdin, process group) as one JSON line on stdout.
"use strict";
const fs = require("node:fs");

// Reads stdin to its end. A stdin that is an open pipe nobody closes would block here forever, as it does real CLIs.
function stdinBytes() {
  const buffer = Buffer.alloc(65536);
  let total = 0;
  for (;;) {
    let read;
    try {
      read = fs.readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code === "EAGAIN") continue;
      return `error ${error.code}`;
    }
    if (read === 0) return total;
    total += read;
  }
}

// Field 5 of /proc/self/stat is the process group id; comm (field 2) may contain spaces, so parse after its ")".
function processGroupId() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

const report = {
  args: process.argv.slice(2),
  cwd: process.cwd(),
  pid: process.pid,
  processGroupId: processGroupId(),
  stdinBytes: stdinBytes(),
  env: {
    CLAUDECODE: process.env.CLAUDECODE ?? null,
    AGENT_STREAM_PROBE: process.env.AGENT_STREAM_PROBE ?? null,
  },
};
fs.writeSync(1, JSON.stringify(report) + "\n");
