#!/usr/bin/env node
// Writes argv[2] bytes (rounded down to a multiple of 3) of "€" to stderr, then the marker argv[3], and exits.
"use strict";
const fs = require("node:fs");

const fillerBytes = Number(process.argv[2]);
const marker = process.argv[3] ?? "";
const euros = Buffer.from("€".repeat(21_845)); // 65 535 bytes

for (let written = 0, total = fillerBytes - (fillerBytes % 3); written < total; ) {
  // Starting at written % 3 keeps whole characters even after a short write.
  const start = written % 3;
  const size = Math.min(euros.length - start, total - written);
  written += fs.writeSync(2, euros, start, size);
}
fs.writeSync(2, marker);
process.exit(0);
