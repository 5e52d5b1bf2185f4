#!/usr/bin/env node
// Starts two processes that leave this CLI's process group, as real tools do, and then runs until a signal ends it:
//   a "detached" child (spawn with detached: true, so setsid: a session and group of its own), and
//   a "daemon": a child that starts a detached grandchild and exits (the double fork of a classic daemon).
// Both sleep forever. Once both run, writes a JSON object to --pid-file=PATH (atomically, by rename):
//   { "cli": pid, "detached": pid, "daemon": pid, "cookie": the AGENT_STREAM_RUN it was started with }.
// --then=exit|wait: once the file is written, exit 0, or wait (the default).
// Internal roles: --role=sleeper prints its pid and sleeps; --role=forker starts a detached sleeper, prints its pid
// and exits.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

/** Starts this script in `role` and resolves with the first line it prints (a pid). */
function startRole(role, detached) {
  const child = spawn(process.execPath, [__filename, `--role=${role}`], { stdio: ["ignore", "pipe", "ignore"], detached });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const newline = text.indexOf("\n");
      if (newline === -1) return;
      child.stdout.destroy();
      resolve(Number(text.slice(0, newline)));
    });
    child.once("error", reject);
  });
}

async function main() {
  const role = option("role", "cli");
  if (role === "sleeper") {
    setInterval(() => {}, 60_000);
    fs.writeSync(1, `${process.pid}\n`);
    return;
  }
  if (role === "forker") {
    fs.writeSync(1, `${await startRole("sleeper", true)}\n`);
    process.exit(0);
  }
  setInterval(() => {}, 60_000);
  const [detached, daemon] = await Promise.all([startRole("sleeper", true), startRole("forker", false)]);
  const pidFile = option("pid-file", "");
  const record = { cli: process.pid, detached, daemon, cookie: process.env.AGENT_STREAM_RUN ?? null };
  fs.writeFileSync(`${pidFile}.tmp`, JSON.stringify(record));
  fs.renameSync(`${pidFile}.tmp`, pidFile);
  if (option("then", "wait") === "exit") process.exit(0);
}

main();
