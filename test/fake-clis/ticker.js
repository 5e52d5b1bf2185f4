#!/usr/bin/env node
// Writes "line 0" to stdout at once and "line N" every --interval-ms (default 50) until --lines (default 1) are out.
// On every interval it also writes "tick N" to stderr, so a test can follow its clock while stdout is quiet.
// --then=exit (default) exits right after the last line; --then=hang keeps ticking on stderr until signalled.
"use strict";
const fs = require("node:fs");

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}
const lines = Number(option("lines", "1"));
const intervalMs = Number(option("interval-ms", "50"));
const then = option("then", "exit");

let sent = 0;
let ticks = 0;
function sendLine() {
  fs.writeSync(1, `line ${sent}\n`);
  sent++;
  if (sent === lines && then === "exit") process.exit(0);
}

sendLine();
setInterval(() => {
  if (sent < lines) sendLine();
  fs.writeSync(2, `tick ${ticks}\n`);
  ticks++;
}, intervalMs);
