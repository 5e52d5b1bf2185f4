#!/usr/bin/env node
// Prints "ready", then the name of every SIGINT or SIGTERM it receives, one per line.
// --exit-on=SIGINT,SIGTERM names the signals it exits on (code 130 / 143); the others it ignores. Default SIGINT.
"use strict";
const fs = require("node:fs");

const option = process.argv.find((arg) => arg.startsWith("--exit-on="));
const exitOn = (option ? option.slice("--exit-on=".length) : "SIGINT").split(",");
const exitCodes = { SIGINT: 130, SIGTERM: 143 };

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    fs.writeSync(1, `${signal}\n`);
    if (exitOn.includes(signal)) process.exit(exitCodes[signal]);
  });
}
setInterval(() => {}, 60_000);
fs.writeSync(1, "ready\n");
