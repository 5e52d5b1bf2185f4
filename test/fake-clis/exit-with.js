#!/usr/bin/env node
// Ends at once with the exit code (a number) or by the signal (e.g. SIGTERM) given as its only argument.
"use strict";
const how = process.argv[2] ?? "0";
if (/^\d+$/.test(how)) process.exit(Number(how));
process.kill(process.pid, how);
// Keeps running until the signal lands, so it cannot exit normally first.
setInterval(() => {}, 60_000);
