// What process cleanup costs. The watchdog, per running CLI: the time its start adds to starting a CLI (it runs
// before CliProcess.start returns), against spawning the CLI itself in the same run; and its memory against that of
// the CLI, an idle Node process too. The cookie: one pass over /proc looking for it, which every 50 ms poll of a
// stop does once the group is gone, against one readdir of /proc. Linux only.
// Run: node esbuild.mjs && npx tsc -p . && node out/bench/process-cleanup-cost.bench.js
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import { performance } from "node:perf_hooks";
import { CliProcess } from "../src/process/cli-process";
import { processGroupTree } from "../src/process/process-tree";
import { DEFAULT_WATCHDOG_SCRIPT, startWatchdog } from "../src/process/watchdog";
import { escapeesPidFile, processesMentioning, removeEscapeesDirs, STARTS_ESCAPEES, waitForEscapees } from "../test/helpers/escapees";

const ROUNDS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** RSS counts the Node binary's pages that every Node process shares; Private_* is what this process alone adds. */
function memoryMiB(pid: number): { rss: number; private: number } {
  const fields = new Map(
    fs
      .readFileSync(`/proc/${pid}/smaps_rollup`, "latin1")
      .split("\n")
      .map((line) => line.split(/:\s+/))
      .map(([name, value]) => [name, Number.parseInt(value ?? "", 10) / 1024] as const),
  );
  return { rss: fields.get("Rss") ?? NaN, private: (fields.get("Private_Clean") ?? NaN) + (fields.get("Private_Dirty") ?? NaN) };
}

/** The synchronous part of each start, interleaved so both see the same machine load. */
function spawnTimes(): { cli: number[]; watchdog: number[] } {
  const cli: number[] = [];
  const watchdog: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    cli.push(performance.now() - t);
    t = performance.now();
    const guard = startWatchdog(DEFAULT_WATCHDOG_SCRIPT, child.pid ?? 0, randomUUID());
    watchdog.push(performance.now() - t);
    guard?.release();
    child.kill("SIGKILL");
  }
  return { cli, watchdog };
}

async function memory(): Promise<{ watchdog: { rss: number; private: number }; cli: { rss: number; private: number } }> {
  const pidFile = escapeesPidFile();
  let exited: () => void = () => {};
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const cli = CliProcess.start({ command: STARTS_ESCAPEES, args: [`--pid-file=${pidFile}`], cwd: os.tmpdir() }, { onStdout: () => {}, onExit: () => exited() });
  // By the time the CLI has started three more Node processes, the watchdog has long settled.
  const escapees = await waitForEscapees(pidFile);
  const [watchdog] = processesMentioning(escapees.cookie ?? "");
  const result = { watchdog: memoryMiB(watchdog), cli: memoryMiB(escapees.cli) };
  void cli.stop();
  await exit;
  removeEscapeesDirs();
  return result;
}

/** A group that does not exist and a cookie nobody holds: isAlive() reads every process's environment. */
function scanTimes(): { readdir: number[]; scan: number[] } {
  const tree = processGroupTree(2 ** 22 + 1, randomUUID());
  const readdir: number[] = [];
  const scan: number[] = [];
  for (let i = 0; i < ROUNDS * 10; i++) {
    let t = performance.now();
    fs.readdirSync("/proc");
    readdir.push(performance.now() - t);
    t = performance.now();
    tree.isAlive();
    scan.push(performance.now() - t);
  }
  return { readdir, scan };
}

async function main(): Promise<void> {
  const times = spawnTimes();
  const cliMs = median(times.cli);
  const watchdogMs = median(times.watchdog);
  console.log(`start, median of ${ROUNDS}: CLI spawn ${cliMs.toFixed(2)} ms, watchdog start ${watchdogMs.toFixed(2)} ms (${(watchdogMs / cliMs).toFixed(2)}x)`);
  const { readdir, scan } = scanTimes();
  const processes = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
  console.log(`cookie scan of ${processes} processes, median of ${ROUNDS * 10}: ${median(scan).toFixed(2)} ms (${(median(scan) / median(readdir)).toFixed(1)}x one readdir of /proc)`);
  const { watchdog, cli } = await memory();
  console.log(`RSS: watchdog ${watchdog.rss.toFixed(1)} MiB, an idle Node CLI ${cli.rss.toFixed(1)} MiB (${(watchdog.rss / cli.rss).toFixed(2)}x)`);
  console.log(`private memory: watchdog ${watchdog.private.toFixed(1)} MiB, an idle Node CLI ${cli.private.toFixed(1)} MiB (${(watchdog.private / cli.private).toFixed(2)}x)`);
}

void main();
