#!/usr/bin/env node
// An agent that reads its prompt on stdin, as Claude Code (--input-format stream-json) and pi (--mode rpc) do.
// Echoes each stdin line as `got <line>`, prints `tick N` every 20 ms while it works, and prints the name of every
// signal it receives. On a line containing "interrupt" it stops working and prints "interrupted" (unless
// --ignore-interrupt). It exits 0 when stdin closes. --exit-on-interrupt: exits 0 right after "interrupted".
"use strict";
const fs = require("node:fs");

const ignoreInterrupt = process.argv.includes("--ignore-interrupt");
const exitOnInterrupt = process.argv.includes("--exit-on-interrupt");
let ticks = 0;
const ticker = setInterval(() => fs.writeSync(1, `tick ${++ticks}\n`), 20);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => fs.writeSync(1, `${signal}\n`));

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    fs.writeSync(1, `got ${line}\n`);
    if (line.includes("interrupt") && !ignoreInterrupt) {
      clearInterval(ticker);
      fs.writeSync(1, "interrupted\n");
      if (exitOnInterrupt) process.exit(0);
    }
  }
});
process.stdin.on("end", () => {
  fs.writeSync(1, "stdin closed\n");
  process.exit(0);
});
