// Writes protocol 1 as NDJSON: one envelope per line, `start` first, exactly one `done` last, nothing after it,
// and never faster than the reader takes it (a write that fills the pipe waits for it to drain).
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Writable } from "node:stream";
import type { CliStreamEvent, ProtocolError } from "../protocol/events";
import { PROTOCOL_VERSION } from "../protocol/version";

export interface StartDetails {
  command: string;
  model?: string;
  provider?: string;
  cwd?: string;
}

export interface ToolOutcome {
  tool: string;
  toolId: string;
  success: boolean;
  durationMs: number;
  error?: string;
}

export class ProtocolEmitter {
  readonly sessionId = randomUUID();
  private readonly startedAt = performance.now();
  private readonly toolsUsed: string[] = [];
  private started = false;
  private exitCodeValue: number | null = null;
  private closed = false;
  private drainWaiter: { promise: Promise<void>; resolve: () => void } | null = null;
  private doneWritten: Promise<void> = Promise.resolve();
  private releaseDone: () => void = () => {};

  /** `onClosed` is told when the reader goes away (EPIPE): nobody is listening, so work should stop. */
  constructor(
    private readonly out: Writable,
    private readonly onClosed: () => void = () => {},
  ) {
    out.on("error", this.onError);
  }

  /** Null until `done` was written. */
  get exitCode(): number | null {
    return this.exitCodeValue;
  }

  get isDone(): boolean {
    return this.exitCodeValue !== null;
  }

  start(details: StartDetails): Promise<void> {
    if (this.started) throw new Error("start emitted twice");
    this.started = true;
    return this.write({ ...this.envelope(), type: "start", payload: details });
  }

  text(content: string): Promise<void> {
    return this.write({ ...this.envelope(), type: "text_delta", payload: { content } });
  }

  thinking(content: string): Promise<void> {
    return this.write({ ...this.envelope(), type: "thinking", payload: { content } });
  }

  status(status: string, message?: string): Promise<void> {
    return this.write({ ...this.envelope(), type: "status", payload: message === undefined ? { status } : { status, message } });
  }

  toolStarted(tool: string, toolId: string, parameters: Record<string, unknown>): Promise<void> {
    if (!this.isDone && !this.toolsUsed.includes(tool)) this.toolsUsed.push(tool);
    return this.write({ ...this.envelope(), type: "tool_started", payload: { tool, toolId, parameters } });
  }

  toolCompleted(outcome: ToolOutcome): Promise<void> {
    const { tool, toolId, success, durationMs, error } = outcome;
    const payload = { tool, toolId, success, duration: roundMs(durationMs), ...(error !== undefined ? { error } : {}) };
    return this.write({ ...this.envelope(), type: "tool_completed", payload });
  }

  error(error: ProtocolError): Promise<void> {
    return this.write({ ...this.envelope(), type: "error", payload: { error } });
  }

  /** Only the first call writes; later ones (a second signal, the end of an interrupted answer) do nothing. */
  done(exitCode: number): Promise<void> {
    if (this.isDone) return this.doneWritten;
    const payload = {
      exitCode,
      duration: roundMs(performance.now() - this.startedAt),
      toolsUsed: [...this.toolsUsed],
      success: exitCode === 0,
    };
    this.doneWritten = new Promise((resolve) => {
      this.releaseDone = resolve;
      this.writeLine({ ...this.envelope(), type: "done", payload }, () => resolve());
    });
    this.exitCodeValue = exitCode;
    return this.doneWritten;
  }

  /** Settles once `done` has been handed to the operating system (or the reader is gone). */
  finished(): Promise<void> {
    return this.doneWritten;
  }

  dispose(): void {
    this.out.off("error", this.onError);
  }

  private envelope() {
    return { protocol: PROTOCOL_VERSION, sessionId: this.sessionId, timestamp: Date.now() };
  }

  /** Events after `done` are dropped: `done` is always the last line. */
  private write(event: CliStreamEvent): Promise<void> {
    if (!this.started) throw new Error(`${event.type} emitted before start`);
    if (this.isDone) return Promise.resolve();
    if (this.writeLine(event)) return Promise.resolve();
    if (this.drainWaiter === null) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      this.drainWaiter = { promise, resolve };
      this.out.once("drain", this.onDrain);
    }
    return this.drainWaiter.promise;
  }

  /** True when the reader can take more at once. */
  private writeLine(event: CliStreamEvent, onFlushed?: () => void): boolean {
    if (this.closed) {
      onFlushed?.();
      return true;
    }
    return this.out.write(JSON.stringify(event) + "\n", onFlushed);
  }

  private readonly onDrain = () => {
    const waiter = this.drainWaiter;
    this.drainWaiter = null;
    waiter?.resolve();
  };

  /** The reader went away: whoever waits for it to drain or flush is released, and nothing more is written. */
  private readonly onError = () => {
    if (this.closed) return;
    this.closed = true;
    this.out.off("drain", this.onDrain);
    this.onDrain();
    this.releaseDone();
    this.onClosed();
  };
}

/** Tenths of a millisecond: a tool that takes 0.3 ms did not take 0. */
function roundMs(ms: number): number {
  return Math.max(0, Math.round(ms * 10) / 10);
}
