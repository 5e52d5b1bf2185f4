// For tests of process cleanup: runs test/fake-clis/starts-escapees.js and checks, through /proc, what it left alive.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { eventually, TimedOut } from "./eventually";
import { fakeCli } from "./repo";

export const STARTS_ESCAPEES = fakeCli("starts-escapees.js");

/** What starts-escapees.js wrote: its own pid, the two processes that left its group, and its cookie. */
export interface Escapees {
  cli: number;
  detached: number;
  daemon: number;
  cookie: string | null;
}

/** A fresh folder for the pid file; removed by `removeEscapeesDirs`. */
const dirs: string[] = [];

export function escapeesPidFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "escapees-"));
  dirs.push(dir);
  return path.join(dir, "pids.json");
}

export function removeEscapeesDirs(): void {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Resolves once the fake CLI wrote its pid file; rejects after `timeoutMs` (or when `failed` says to give up). */
export function waitForEscapees(pidFile: string, failed: () => string | undefined = () => undefined, timeoutMs = 15_000): Promise<Escapees> {
  return eventually(
    "the pid file of starts-escapees.js",
    () => {
      if (fs.existsSync(pidFile)) return JSON.parse(fs.readFileSync(pidFile, "utf8")) as Escapees;
      const reason = failed();
      if (reason !== undefined) throw new Error(`no pid file: ${reason}`);
      return undefined;
    },
    timeoutMs,
  );
}

export function escapeePids(escapees: Escapees): number[] {
  return [escapees.cli, escapees.detached, escapees.daemon];
}

/**
 * Whether nothing runs under this pid any more. A zombie counts as gone: it has exited and only waits to be
 * reaped, and a container whose PID 1 never reaps orphans (like this sandbox) keeps it forever.
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error instanceof Error && (error as NodeJS.ErrnoException).code === "ESRCH") return true;
    throw error;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Polls until every pid is gone or `withinMs` passed; returns those still alive then (none is the good answer). */
export function survivorsAfter(pids: readonly number[], withinMs: number): Promise<number[]> {
  return whenEmpty(() => pids.filter((pid) => !isGone(pid)), withinMs);
}

/** Polls `find` until it finds nothing or `withinMs` passed; returns what it found last. */
export async function whenEmpty(find: () => number[], withinMs: number): Promise<number[]> {
  let found: number[] = [];
  try {
    return await eventually("nothing to be found", () => (found = find()).length === 0 && found, withinMs);
  } catch (error) {
    if (error instanceof TimedOut) return found;
    throw error;
  }
}

export function processGroupOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

/** Running processes whose command line mentions `text` (the watchdog gets the run's cookie as an argument). */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || isGone(Number(name))) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text)) found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** SIGKILL to whatever a failed test left behind, so one failure does not leak into the next tests. */
export function killLeftovers(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * For a describe block: skips it off Linux (only /proc shows who holds a cookie), and after each test SIGKILLs what
 * the returned list holds (what a failed test left behind) and removes the pid files.
 */
export function linuxCleanupHooks(): number[] {
  const leftovers: number[] = [];
  before(function () {
    if (process.platform !== "linux") this.skip();
  });
  afterEach(() => {
    killLeftovers(leftovers.splice(0));
    removeEscapeesDirs();
  });
  return leftovers;
}
