#!/usr/bin/env node
// Starts stubborn-grandchild.js and, once it is ready, prints "grandchild <pid>". Options:
//   --grandchild-ignores=SIGINT,SIGTERM   signals the grandchild ignores (default none)
//   --grandchild-stdout=inherit|ignore    whether the grandchild shares (and holds open) this CLI's stdout (default ignore)
//   --grandchild-detached                 puts the grandchild in a session of its own, outside this process group
//   --grandchild-without-cookie           starts the grandchild without AGENT_STREAM_RUN, the run's cookie
//   --then=exit|wait                      once the grandchild is ready: exit 0, or wait (SIGINT ends it) (default wait)
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}
const then = option("then", "wait");

// The grandchild sends SIGUSR2 once its own signal handlers are in place.
process.on("SIGUSR2", () => {
  fs.writeSync(1, `grandchild ${grandchild.pid}\n`);
  if (then === "exit") process.exit(0);
});

const grandchild = spawn(
  process.execPath,
  [path.join(__dirname, "stubborn-grandchild.js"), option("grandchild-ignores", "")],
  {
    stdio: ["ignore", option("grandchild-stdout", "ignore"), "ignore"],
    detached: process.argv.includes("--grandchild-detached"),
    env: process.argv.includes("--grandchild-without-cookie") ? withoutCookie(process.env) : process.env,
  },
);
setInterval(() => {}, 60_000);

function withoutCookie(env) {
  const copy = { ...env };
  delete copy.AGENT_STREAM_RUN;
  return copy;
}
