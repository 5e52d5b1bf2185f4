#!/usr/bin/env node
// Plays back a real CLI's recorded run (test/fixtures/*-recorded/<version>/<scenario>.ndjson[.gz] and its
// .meta.json): the same stdout bytes, the same stderr tail, the same exit code. `agent-stream run` sees what it
// would have seen from the real CLI.
"use strict";
const fs = require("node:fs");
const zlib = require("node:zlib");

const file = process.argv[2];
const bytes = fs.readFileSync(file);
const meta = JSON.parse(fs.readFileSync(file.replace(/\.ndjson(\.gz)?$/, ".meta.json"), "utf8"));
if (meta.stderrTail) process.stderr.write(meta.stderrTail);
process.stdout.write(file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes, () => {
  if (meta.signal) process.kill(process.pid, meta.signal);
  else process.exit(meta.exitCode ?? 0);
});
