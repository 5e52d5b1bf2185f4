// One run of a real agent CLI: its stdout kept byte for byte, the tail of its stderr, its JSON lines offered to
// a scenario's driver (to interrupt it or feed it input at the right moment), and how it ended.
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";

export interface CliRunOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** "pipe" for CLIs driven through stdin; otherwise stdin is /dev/null. */
  readonly stdin: "pipe" | "ignore";
  /** Past this the run is killed with SIGKILL and marked as timed out. */
  readonly timeoutMs: number;
}

export interface CliExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

const STDERR_TAIL_BYTES = 4096;

export class CliRun {
  readonly exited: Promise<CliExit>;
  private readonly child: ChildProcess;
  private readonly stdoutChunks: Buffer[] = [];
  private stderrTail = Buffer.alloc(0);
  private readonly decoder = new StringDecoder("utf8");
  private partialLine = "";
  private readonly lines: unknown[] = [];
  private readonly lineWaiters = new Set<() => void>();
  private finished = false;

  constructor(options: CliRunOptions) {
    const startedAt = Date.now();
    this.child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.stdin, "pipe", "pipe"],
      // Its own process group, as the extension starts a CLI: a signal can then reach the CLI's children too
      // (Gemini CLI relaunches itself as a child; Codex and opencode run tools in children).
      detached: true,
    });
    this.child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = Buffer.concat([this.stderrTail, chunk]).subarray(-STDERR_TAIL_BYTES);
    });
    // A CLI that exits before reading all its input makes our writes fail with EPIPE: that is its business.
    this.child.stdin?.on("error", () => undefined);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.signalGroup("SIGKILL");
    }, options.timeoutMs);
    this.exited = new Promise((resolve, reject) => {
      this.child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      this.child.once("close", (exitCode, signal) => {
        clearTimeout(timer);
        this.finished = true;
        this.notifyLineWaiters();
        resolve({ exitCode, signal, timedOut, durationMs: Date.now() - startedAt });
      });
    });
  }

  get stdout(): Buffer {
    return Buffer.concat(this.stdoutChunks);
  }

  get stderrTailText(): string {
    // The cut may fall inside a UTF-8 sequence; drop the broken start rather than show a replacement character.
    return this.stderrTail.toString("utf8").replace(/^\uFFFD+/, "");
  }

  /** Resolves with the `nth` JSON line (already seen or still to come) that `matches`. */
  waitForLine(matches: (line: unknown) => boolean, options: { nth?: number; timeoutMs?: number } = {}): Promise<unknown> {
    const { nth = 1, timeoutMs = 60_000 } = options;
    return new Promise((resolve, reject) => {
      let searched = 0;
      let found = 0;
      const check = () => {
        for (; searched < this.lines.length; searched++) {
          const line = this.lines[searched];
          if (!matches(line) || ++found < nth) continue;
          stop();
          resolve(line);
          return;
        }
        if (!this.finished) return;
        stop();
        reject(new Error("the CLI exited before the awaited line"));
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`no awaited line within ${timeoutMs} ms`));
      }, timeoutMs);
      const stop = () => {
        clearTimeout(timer);
        this.lineWaiters.delete(check);
      };
      this.lineWaiters.add(check);
      check();
    });
  }

  /** Writes one JSON value as a line on the CLI's stdin. */
  writeLine(value: unknown): void {
    this.child.stdin?.write(`${JSON.stringify(value)}\n`);
  }

  endInput(): void {
    this.child.stdin?.end();
  }

  /** Signals the CLI's own process only. */
  signal(signal: NodeJS.Signals): void {
    if (!this.finished) this.child.kill(signal);
  }

  /** Signals the CLI's whole process group, as a terminal's Ctrl+C or the extension's Stop does. */
  signalGroup(signal: NodeJS.Signals): void {
    if (this.finished || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutChunks.push(chunk);
    const text = this.partialLine + this.decoder.write(chunk);
    const parts = text.split("\n");
    this.partialLine = parts.pop() ?? "";
    for (const part of parts) {
      if (part.trim() === "") continue;
      try {
        this.lines.push(JSON.parse(part));
      } catch {
        this.lines.push(part);
      }
    }
    if (parts.length > 0) this.notifyLineWaiters();
  }

  private notifyLineWaiters(): void {
    for (const waiter of [...this.lineWaiters]) waiter();
  }
}
