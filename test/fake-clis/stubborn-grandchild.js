#!/usr/bin/env node
// Ignores the signals listed in argv[2] (comma separated), tells its parent it is ready (SIGUSR2), and runs until killed.
"use strict";
for (const signal of (process.argv[2] ?? "").split(",").filter(Boolean)) process.on(signal, () => {});
setInterval(() => {}, 60_000);
process.kill(process.ppid, "SIGUSR2");
