#!/usr/bin/env node
// Plays a recorded stream back as a CLI would: `print-and-exit.js <ndjson file|-> <exit code> [stderr text]` writes
// the file to stdout (nothing for "-"), the text to stderr, and exits with the code. For adapters whose meaning
// depends on how the process ended (an error and no done, then exit 0; plain text on stderr, then exit 1).
// PRINT_AND_STAY=1: it stays after writing, until a signal ends it (a CLI that hangs after its last line).
"use strict";
const fs = require("node:fs");

const [file, exitCode, stderrText] = process.argv.slice(2);
if (file === undefined || !/^\d+$/.test(exitCode ?? "")) {
  process.stderr.write("usage: print-and-exit.js <ndjson file|-> <exit code> [stderr text]\n");
  process.exit(64);
}
if (file !== "-") process.stdout.write(fs.readFileSync(file));
if (stderrText !== undefined) process.stderr.write(stderrText);
process.exitCode = Number(exitCode);
if (process.env.PRINT_AND_STAY === "1") setInterval(() => {}, 1000);
