#!/usr/bin/env node
// Writes argv[2] bytes to stdout (byte i is i % 251, so lost or reordered bytes show) and exits immediately.
"use strict";
const fs = require("node:fs");

const total = Number(process.argv[2]);
const block = Buffer.alloc(251 * 256);
for (let i = 0; i < block.length; i++) block[i] = i % 251;

for (let written = 0; written < total; ) {
  // Starting at written % 251 keeps the pattern continuous even after a short write.
  const start = written % 251;
  const size = Math.min(block.length - start, total - written);
  written += fs.writeSync(1, block, start, size);
}
process.exit(0);
