// Signals and probes everything a CLI started: its process group on POSIX (and on Linux every process that carries
// the run's cookie, even one that left the group), its process tree on Windows.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { errorCode } from "./error-code";

export interface ProcessTree {
  /** Sends the signal to every process of the tree; a tree that is already gone is not an error. */
  signal(signal: NodeJS.Signals): void;
  /** Whether any process of the tree may still be running. */
  isAlive(): boolean;
}

/**
 * The environment variable that marks every process of one run: its value lists the runs a process belongs to
 * (ours last), and descendants inherit it whatever group or session they move to. Jenkins' ProcessTreeKiller works
 * the same way.
 */
export const RUN_COOKIE_VARIABLE = "AGENT_STREAM_RUN";

/**
 * `child` must have been spawned with `detached: true` on POSIX, so that its pid is also its process group id.
 * `cookie` is the run's value in RUN_COOKIE_VARIABLE (see runCookieEnvironment).
 */
export function processTreeOf(child: ChildProcess, pid: number, cookie?: string): ProcessTree {
  return process.platform === "win32" ? new WindowsProcessTree(child, pid) : processGroupTree(pid, cookie);
}

/** For a process that did not start the group itself (the watchdog): the group, plus the cookie's holders on Linux. */
export function processGroupTree(groupId: number, cookie?: string): ProcessTree {
  return new PosixProcessTree(groupId, process.platform === "linux" && cookie !== undefined ? Buffer.from(cookie) : undefined);
}

/** The child's environment with this run's cookie added to those it inherited (a run started inside another run). */
export function runCookieEnvironment(env: NodeJS.ProcessEnv, cookie: string): NodeJS.ProcessEnv {
  const inherited = env[RUN_COOKIE_VARIABLE];
  return { ...env, [RUN_COOKIE_VARIABLE]: inherited === undefined || inherited === "" ? cookie : `${inherited} ${cookie}` };
}

class PosixProcessTree implements ProcessTree {
  constructor(
    private readonly groupId: number,
    /** Only on Linux, where /proc/<pid>/environ shows it. */
    private readonly cookie: Buffer | undefined,
  ) {}

  signal(signal: NodeJS.Signals): void {
    signalQuietly(-this.groupId, signal);
    if (this.cookie === undefined) return;
    // Not the group's members again: a CLI may take a second SIGINT as "quit at once".
    for (const pid of cookieHolders(this.cookie, false)) {
      const stat = readProcessStat(pid);
      if (stat !== undefined && stat.groupId !== this.groupId) signalQuietly(pid, signal);
    }
  }

  isAlive(): boolean {
    if (this.groupIsAlive()) return true;
    return this.cookie !== undefined && cookieHolders(this.cookie, true).length > 0;
  }

  private groupIsAlive(): boolean {
    try {
      process.kill(-this.groupId, 0);
    } catch (error) {
      return errorCode(error) === "EPERM";
    }
    return process.platform !== "linux" || hasRunningMember(this.groupId);
  }
}

function signalQuietly(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: gone already. EPERM: a process we may not signal; nothing more we can do about it.
  }
}

/**
 * Windows has neither process groups nor SIGINT for a windowless child, so every step is a forced tree kill.
 * Liveness can only be seen for the CLI itself.
 */
class WindowsProcessTree implements ProcessTree {
  constructor(
    private readonly child: ChildProcess,
    private readonly pid: number,
  ) {}

  signal(): void {
    if (!this.isAlive()) return;
    const taskkill = spawn(windowsTaskkill(), ["/T", "/F", "/PID", String(this.pid)], {
      shell: false,
      stdio: "ignore",
      windowsHide: true,
    });
    // taskkill exits by itself; if it cannot even start, at least end the CLI.
    taskkill.on("error", () => this.child.kill());
  }

  isAlive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}

/**
 * kill(-group, 0) also succeeds while only zombies are left, and a container whose PID 1 never reaps orphans keeps
 * them forever. So on Linux, look for a member that is not a zombie.
 */
function hasRunningMember(groupId: number): boolean {
  const names = procEntries();
  if (names === undefined) return true;
  // Members were started after the leader, so the newest pids (listed last) are the likeliest hits.
  for (let i = names.length - 1; i >= 0; i--) {
    const stat = readProcessStat(Number(names[i]));
    if (stat !== undefined && stat.groupId === groupId && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

/**
 * Linux: the processes whose environment holds the cookie, wherever they moved (group, session). A zombie's environ
 * cannot be opened (ESRCH), so only running processes are found. One pass over /proc, run only while a tree is being
 * ended, never per line of output; it reads no stat file, the costly part of /proc.
 */
function cookieHolders(cookie: Buffer, firstOnly: boolean): number[] {
  const names = procEntries() ?? [];
  const found: number[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const pid = Number(names[i]);
    if (pid === process.pid || !readProcFile(pid, "environ")?.includes(cookie)) continue;
    found.push(pid);
    if (firstOnly) break;
  }
  return found;
}

/** The numeric entries of /proc; undefined when it cannot be read. */
function procEntries(): string[] | undefined {
  try {
    return fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
}

function readProcessStat(pid: number): { state: string; groupId: number } | undefined {
  const text = readProcFile(pid, "stat")?.toString("latin1");
  if (text === undefined) return undefined;
  // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses, so split after the last ")".
  const [state, , groupId] = text.slice(text.lastIndexOf(")") + 2).split(" ", 3);
  return { state, groupId: Number(groupId) };
}

/** One buffer for every read: a scan reads hundreds of small files, and readFileSync would allocate for each. */
let scratch = Buffer.alloc(64 * 1024);

/** The file's bytes, valid until the next call; undefined for a process that is gone or not ours to read. */
function readProcFile(pid: number, name: "stat" | "environ"): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(`/proc/${pid}/${name}`, "r");
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === scratch.length) scratch = Buffer.concat([scratch, Buffer.alloc(scratch.length)]);
      const read = fs.readSync(fd, scratch, length, scratch.length - length, null);
      if (read === 0) return scratch.subarray(0, length);
      length += read;
    }
  } catch {
    return undefined; // exited while we read
  } finally {
    fs.closeSync(fd);
  }
}

/** By absolute path: Windows looks for a bare name in the current folder (the workspace) first. */
function windowsTaskkill(): string {
  return path.win32.join(process.env["SystemRoot"] ?? "C:\\Windows", "System32", "taskkill.exe");
}
