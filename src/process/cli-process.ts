// Runs one agent CLI as a child process: forwards its output, stops it on request or when it goes silent, and
// reports exactly one exit once its whole process tree is gone.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { ByteTail } from "./byte-tail";
import { formatCommandLine } from "./command-line";
import { InactivityTimer } from "./inactivity-timer";
import { processTreeOf, runCookieEnvironment, type ProcessTree } from "./process-tree";
import type { Scheduler } from "./scheduler";
import { SignalEscalation, type EscalationStep } from "./signal-escalation";
import { resolveCommandPath } from "./command-path";
import { describeSpawnError, type SpawnError } from "./spawn-error";
import { DEFAULT_WATCHDOG_SCRIPT, startWatchdog, type Watchdog } from "./watchdog";

export interface CliProcessOptions {
  /** The executable; started directly, never through a shell. */
  command: string;
  /** Passed as-is: a prompt is one argument, never split or interpreted. */
  args: readonly string[];
  cwd: string;
  /**
   * Defaults to process.env; CLAUDECODE is always removed from the child's environment, and AGENT_STREAM_RUN gets
   * this run's cookie (see RUN_COOKIE_VARIABLE).
   */
  env?: NodeJS.ProcessEnv;
  /** Default 120 000; 0 turns it off. No stdout bytes for this long stops the CLI with reason "timeout". */
  inactivityTimeoutMs?: number;
  /** The clock of the inactivity timeout; default the real one. */
  scheduler?: Scheduler;
  /** SIGINT → SIGTERM escalation delay; default 2000. */
  stopGraceMs?: number;
  /** SIGTERM → SIGKILL escalation delay; default 1000. */
  killGraceMs?: number;
  /** How much of stderr is kept for the exit report; default 64 KiB. */
  stderrTailBytes?: number;
  /**
   * What the CLI reads on stdin. Without it stdin is closed at once (some CLIs, Claude Code among them, wait for it
   * to close before they start). With it, stdin stays open for `writeInput` until `endInput`.
   */
  input?: CliInput;
  /** The watchdog program that ends the tree if this process dies first; default dist/process-watchdog.js. */
  watchdogScript?: string;
}

export interface CliInput {
  /** Written as soon as the process starts (a prompt, as a JSON line). */
  readonly initial: string;
  /**
   * The CLI's own way to stop (Claude's `interrupt` control request, pi's `abort`), tried before any signal: written
   * on Stop while stdin is still open; the CLI then gets `graceMs` to finish and exit before SIGINT.
   */
  readonly interrupt?: { line: string; graceMs: number };
  /** A CLI that takes a message while it works: see MidTurnInput. */
  readonly steer?: MidTurnInput;
}

/**
 * How a CLI that reads its prompt on stdin takes another message in the middle of its turn (Claude's stream-json user
 * line, pi's rpc `steer`): the line that delivers one, and how its stream says it took a message into its conversation.
 */
export interface MidTurnInput {
  line(text: string): string;
  /**
   * Whether this value of the stream says the CLI took one of the messages written to it (the prompt too) into its
   * conversation. Counted, not matched by words: pi expands a skill command before it shows the message.
   */
  isTaken(value: unknown): boolean;
  /**
   * What the CLI does with a message it had not taken when its work ends. Claude answers it with a turn of its own:
   * the run waits for that. pi leaves it in its queue for a next prompt that never comes (the stream's next line is
   * its `agent_end`): the run ends there, and the message is the caller's to send again.
   */
  readonly lateMessage: "answered" | "left-queued";
}

export type CliExitReason = "exited" | "stopped" | "timeout" | "spawn-failed";

export interface CliExit {
  reason: CliExitReason;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The last (at most stderrTailBytes) bytes of stderr, decoded as UTF-8 from a character boundary. */
  stderrTail: string;
  /** Only for "spawn-failed": the errno (ENOENT, EACCES, …) and a message for humans that says how to fix it. */
  spawnError?: { errno: string; message: string };
}

export interface CliProcessHandlers {
  /** Every stdout chunk, in order. */
  onStdout(chunk: Buffer): void;
  /** Live stderr, for logs. */
  onStderr?(chunk: Buffer): void;
  /** The inactivity timeout fired and the CLI is being stopped; onExit (reason "timeout") follows. */
  onInactivityTimeout?(): void;
  /** Exactly once, after all stdout was delivered and the process tree is gone. */
  onExit(exit: CliExit): void;
}

/** How long the tree gets after SIGINT before SIGTERM, unless a caller says otherwise. */
export const DEFAULT_STOP_GRACE_MS = 2000;
/** How long the tree gets after SIGTERM before SIGKILL, and after SIGKILL before giving up. */
export const DEFAULT_KILL_GRACE_MS = 1000;

const defaults = {
  inactivityTimeoutMs: 120_000,
  stopGraceMs: DEFAULT_STOP_GRACE_MS,
  killGraceMs: DEFAULT_KILL_GRACE_MS,
  stderrTailBytes: 64 * 1024,
};

type EscalationKind = "stop" | "kill" | "cleanup";

export class CliProcess {
  readonly pid: number | undefined;
  readonly commandLine: string;

  private readonly child: ChildProcess | undefined;
  private readonly tree: ProcessTree | undefined;
  private readonly watchdog: Watchdog | undefined;
  private readonly stderrTail: ByteTail;
  private readonly stopGraceMs: number;
  private readonly killGraceMs: number;
  private readonly exited: Promise<CliExit>;
  private resolveExited: (exit: CliExit) => void = () => {};
  private removeListeners: () => void = () => {};

  private inactivity: InactivityTimer | undefined;
  /** Only armed when the tree is gone but stdout is still open: see watchForAbandonedPipes. */
  private pipeWatch: InactivityTimer | undefined;
  private escalation: SignalEscalation | undefined;
  private escalationKind: EscalationKind | undefined;
  private leaderExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private stdioClosed = false;
  private treeSettled = false;
  private paused = false;
  private waitingForUser = false;
  private requestedReason: "stopped" | "timeout" | undefined;
  private result: CliExit | undefined;
  private inputOpen = false;

  static start(options: CliProcessOptions, handlers: CliProcessHandlers): CliProcess {
    return new CliProcess(options, handlers);
  }

  private constructor(
    private readonly options: CliProcessOptions,
    private readonly handlers: CliProcessHandlers,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.commandLine = formatCommandLine(options.command, options.args);
    this.stderrTail = new ByteTail(options.stderrTailBytes ?? defaults.stderrTailBytes);
    this.stopGraceMs = options.stopGraceMs ?? defaults.stopGraceMs;
    this.killGraceMs = options.killGraceMs ?? defaults.killGraceMs;
    // Marks every process of this run, even one that leaves the group, so that ending the tree finds it.
    const cookie = randomUUID();
    const env = runCookieEnvironment(childEnvironment(options.env ?? process.env), cookie);

    // Resolved here, the one place every runner passes through, so no runner can start a workspace's own file.
    const file = resolveCommandPath(options.command, env);
    if (!file.ok) {
      process.nextTick(() => this.finishSpawnFailure({ errno: file.errno, message: file.message }));
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(file.file, [...options.args], {
        cwd: options.cwd,
        env,
        shell: false,
        // Its own process group, so a stop reaches everything the CLI started. Windows would open a console.
        detached: process.platform !== "win32",
        // Some CLIs (Claude Code among them) wait for stdin to close before they start working.
        stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      // Some failures (E2BIG, a working folder that is a file) are thrown instead of emitted.
      process.nextTick(() => this.failSpawn(error, file.file, env));
      return;
    }
    this.child = child;
    this.pid = child.pid;
    if (child.pid === undefined) {
      child.once("error", (error) => this.failSpawn(error, file.file, env));
      return;
    }
    this.tree = processTreeOf(child, child.pid, cookie);
    this.watchdog = startWatchdog(options.watchdogScript ?? DEFAULT_WATCHDOG_SCRIPT, child.pid, cookie);
    this.removeListeners = this.listenTo(child);
    if (options.input !== undefined && child.stdin !== null) {
      this.inputOpen = true;
      // A CLI that exits without reading all of it gives EPIPE: its exit says what happened, not this.
      child.stdin.on("error", () => (this.inputOpen = false));
      this.writeInput(options.input.initial);
    }
    const timeoutMs = options.inactivityTimeoutMs ?? defaults.inactivityTimeoutMs;
    if (timeoutMs > 0) this.inactivity = InactivityTimer.start(timeoutMs, () => this.onInactive(), options.scheduler);
  }

  /** From spawn until onExit. */
  get running(): boolean {
    return this.pid !== undefined && this.result === undefined;
  }

  /**
   * The user's Stop: the CLI's own interrupt on stdin when it has one (see CliInput), then SIGINT to the whole tree
   * (the group, and on Linux every process with the run's cookie), SIGTERM after stopGraceMs, SIGKILL after
   * killGraceMs more. Every call returns the same promise, which settles
   * with the one exit.
   */
  stop(): Promise<CliExit> {
    this.beginStop("stopped");
    return this.exited;
  }

  /** Writes to the CLI's stdin while it is open; false when it is not (no input, or ended). */
  writeInput(text: string): boolean {
    const stdin = this.child?.stdin;
    if (!this.inputOpen || stdin == null || stdin.destroyed) return false;
    stdin.write(text);
    return true;
  }

  /** Bytes written to stdin that the CLI has not read yet (they wait in our buffer once its pipe is full). */
  get unreadInputBytes(): number {
    return this.child?.stdin?.writableLength ?? 0;
  }

  /** Closes the CLI's stdin: a CLI that reads its prompts there finishes its work and exits. */
  endInput(): void {
    if (!this.inputOpen) return;
    this.inputOpen = false;
    this.child?.stdin?.end();
  }

  /** Window close or deactivation: SIGKILL to the whole tree, no grace. */
  kill(): void {
    if (this.tree === undefined || this.result !== undefined || this.treeSettled) return;
    if (this.escalationKind === "kill") return;
    if (this.leaderExit === undefined) this.requestedReason ??= "stopped";
    this.inactivity?.dispose();
    this.escalate("kill", [{ signal: "SIGKILL", graceMs: this.killGraceMs }]);
  }

  /**
   * Backpressure: stop reading stdout until resume(); the CLI blocks once the pipe is full. Paused time does not
   * count toward the inactivity timeout, and onExit waits for resume() to deliver the rest of stdout.
   */
  pause(): void {
    if (this.child?.stdout == null || this.paused) return;
    this.paused = true;
    this.child.stdout.pause();
    this.inactivity?.pause();
    this.pipeWatch?.pause();
  }

  resume(): void {
    if (this.child?.stdout == null || !this.paused) return;
    this.paused = false;
    this.child.stdout.resume();
    if (!this.waitingForUser) this.inactivity?.resume();
    this.pipeWatch?.resume();
  }

  /**
   * While the CLI waits for the user (a permission question it asked), its silence is not a hang: the inactivity
   * timeout is held until `waiting` is false again.
   */
  setWaitingForUser(waiting: boolean): void {
    if (this.waitingForUser === waiting) return;
    this.waitingForUser = waiting;
    if (this.paused) return;
    if (waiting) this.inactivity?.pause();
    else this.inactivity?.resume();
  }

  private listenTo(child: ChildProcess): () => void {
    const stdout = child.stdout as Readable;
    const stderr = child.stderr as Readable;
    const onStdout = (chunk: Buffer): void => {
      this.inactivity?.recordActivity();
      this.pipeWatch?.recordActivity();
      this.handlers.onStdout(chunk);
    };
    const onStderr = (chunk: Buffer): void => {
      this.stderrTail.push(chunk);
      this.pipeWatch?.recordActivity();
      this.handlers.onStderr?.(chunk);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => this.onLeaderExit(code, signal);
    const onClose = (): void => this.onStdioClosed();
    // After a successful spawn, 'error' only reports a failed kill, which the escalation already outlasts;
    // a pipe read error ends the stream and 'close' follows. Listening keeps either from crashing the host.
    const ignore = (): void => {};
    stdout.on("data", onStdout);
    stderr.on("data", onStderr);
    stdout.on("error", ignore);
    stderr.on("error", ignore);
    child.on("exit", onExit);
    child.on("close", onClose);
    child.on("error", ignore);
    return () => {
      stdout.off("data", onStdout);
      stderr.off("data", onStderr);
      stdout.off("error", ignore);
      stderr.off("error", ignore);
      child.off("exit", onExit);
      child.off("close", onClose);
      child.off("error", ignore);
    };
  }

  private onInactive(): void {
    if (this.beginStop("timeout")) this.handlers.onInactivityTimeout?.();
  }

  /** Returns whether this call started the stop. */
  private beginStop(reason: "stopped" | "timeout"): boolean {
    // Once the CLI has exited by itself the reason stays "exited"; cleanup of its leftovers is already under way.
    if (this.tree === undefined || this.result !== undefined || this.leaderExit !== undefined) return false;
    if (this.escalationKind === "stop" || this.escalationKind === "kill") return false;
    this.requestedReason = reason;
    this.inactivity?.dispose();
    const interrupt = this.options.input?.interrupt;
    this.escalate("stop", [
      ...(interrupt === undefined ? [] : [{ ask: () => this.writeInput(interrupt.line), graceMs: interrupt.graceMs }]),
      { signal: "SIGINT", graceMs: this.stopGraceMs },
      { signal: "SIGTERM", graceMs: this.killGraceMs },
      { signal: "SIGKILL", graceMs: this.killGraceMs },
    ]);
    return true;
  }

  private onLeaderExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.leaderExit = { code, signal };
    this.inactivity?.dispose();
    if (this.escalation === undefined && !this.treeSettled) {
      // Whatever the CLI left running in its group (a background job, a stuck tool) must not outlive it,
      // nor keep stdout open and hold back the exit.
      this.escalate("cleanup", [
        { signal: "SIGTERM", graceMs: this.killGraceMs },
        { signal: "SIGKILL", graceMs: this.killGraceMs },
      ]);
    }
    this.watchForAbandonedPipes();
    this.finishIfDone();
  }

  private onStdioClosed(): void {
    this.stdioClosed = true;
    this.pipeWatch?.dispose();
    this.finishIfDone();
  }

  private escalate(kind: EscalationKind, steps: EscalationStep[]): void {
    if (this.tree === undefined) return;
    this.escalation?.dispose();
    this.escalationKind = kind;
    const escalation = new SignalEscalation(this.tree, steps, () => this.onTreeSettled(escalation));
    this.escalation = escalation;
    escalation.start();
  }

  /** The tree is gone, or the escalation gave up on what survived SIGKILL; either way there is nothing left to do. */
  private onTreeSettled(escalation: SignalEscalation): void {
    if (escalation !== this.escalation) return;
    this.escalation = undefined;
    this.treeSettled = true;
    this.watchForAbandonedPipes();
    this.finishIfDone();
  }

  /**
   * The tree is gone but stdout or stderr is still open: a process we cannot recognise as the CLI's holds them (it
   * left the group and shed the run's cookie, or we are not on Linux). Once they have been idle for killGraceMs, stop
   * waiting for them.
   */
  private watchForAbandonedPipes(): void {
    if (this.leaderExit === undefined || !this.treeSettled || this.stdioClosed || this.pipeWatch !== undefined) return;
    this.pipeWatch = InactivityTimer.start(this.killGraceMs, () => this.abandonPipes());
    if (this.paused) this.pipeWatch.pause();
  }

  private abandonPipes(): void {
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.onStdioClosed();
  }

  private finishIfDone(): void {
    if (this.result !== undefined || this.leaderExit === undefined || !this.stdioClosed || !this.treeSettled) return;
    this.finish({
      reason: this.requestedReason ?? "exited",
      exitCode: this.leaderExit.code,
      signal: this.leaderExit.signal,
      stderrTail: this.stderrTail.text(),
    });
  }

  private failSpawn(error: unknown, file: string, env: NodeJS.ProcessEnv): void {
    this.finishSpawnFailure(describeSpawnError(error, file, this.options.cwd, env));
  }

  private finishSpawnFailure(spawnError: SpawnError): void {
    if (this.result !== undefined) return;
    this.finish({ reason: "spawn-failed", exitCode: null, signal: null, stderrTail: "", spawnError });
  }

  private finish(exit: CliExit): void {
    this.result = exit;
    this.inputOpen = false;
    this.inactivity?.dispose();
    this.pipeWatch?.dispose();
    this.escalation?.dispose();
    this.escalation = undefined;
    this.removeListeners();
    this.watchdog?.release();
    this.resolveExited(exit);
    this.handlers.onExit(exit);
  }
}

/** Claude Code sets CLAUDECODE for its own children; a `claude` that inherits it believes it is nested and refuses. */
function childEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const name of Object.keys(env)) {
    const isClaudeCode = process.platform === "win32" ? name.toUpperCase() === "CLAUDECODE" : name === "CLAUDECODE";
    if (isClaudeCode) delete env[name];
  }
  return env;
}
