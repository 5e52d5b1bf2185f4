// A session enforces the protocol's promises for everyone downstream: `start` first, tool `started`
// before `completed`, exactly one `done`, always last — making up what the CLI failed to send and saying why.
import { randomUUID } from "node:crypto";
import { stderrExcerpt, withStderrExcerpt } from "../common/stderr-excerpt";
import { PROTOCOL_VERSION, type CliStreamEvent, type EventOfType, type ProtocolError } from "../protocol/events";
import type { DoneSummary, FinalStatus, Problem, Transcript, TranscriptBlock } from "../protocol/transcript";
import { isFinished, type SessionState } from "../protocol/session-states";
import { withCause, type RunEnvironment } from "./error-cause";
import { nextState, type SessionInput } from "./session-state";
import { TranscriptBuilder, type TranscriptLimits } from "./transcript-builder";
import type { SessionChange } from "../protocol/messages";

/** How the process behind a live session ended (structurally the process manager's exit report). */
export interface ProcessEnding {
  reason: "exited" | "stopped" | "timeout" | "spawn-failed";
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
  spawnError?: { errno: string; message: string };
}

export type StopCause = "user" | "timeout";

export interface SessionOptions {
  /** The stream's dialect; a function when it is known only once the stream says (the `auto` dialect). */
  dialect: string | (() => string);
  /** Clock for live sessions; a replayed file measures durations by event timestamps instead. */
  now?: () => number;
  /** Every event of the normalized protocol-1 stream, synthesized ones included, in order. */
  onEvent?: (event: CliStreamEvent) => void;
  onChange?: (change: SessionChange) => void;
  /**
   * False: keep no transcript (`agent-stream run` streams every event and needs only the done), so memory stays
   * flat however long the answer. Changes still describe every block and delta; `blocks` stays empty.
   */
  keepBlocks?: boolean;
  /** True: the changes' listener holds the transcript (the panel's turn); it is bounded but not held here again. */
  heldByListener?: boolean;
  /** The transcript's limits; the defaults (TRANSCRIPT_LIMITS) unless a test needs small ones. */
  limits?: Partial<TranscriptLimits>;
  /**
   * True: a `start` after a `done` begins the stream's next turn (`agent-stream ask --json` writes one start…done per
   * prompt), and the transcript holds every turn's blocks in order, with the last turn's status and done. False (a
   * live run of one process): whatever follows the done is out of order.
   */
  severalTurns?: boolean;
  /** A live run's agent environment: an error it explains (a refused API key, root) gets its cause. */
  environment?: RunEnvironment;
}

/** Problems a session lists one by one; past these it counts them by code. */
export const MAX_LISTED_PROBLEMS = 1000;
/** What a shell reports for Ctrl-C; used when a stopped CLI exits 0 without saying it was done. */
const USER_STOP_EXIT_CODE = 130;
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

export class Session {
  private stateValue: SessionState = "idle";
  private readonly transcript: TranscriptBuilder;
  private readonly problemList: Problem[] = [];
  private readonly unlistedProblems = new Map<Problem["code"], number>();
  private sessionIdValue: string | null = null;
  private doneValue: DoneSummary | null = null;
  private finalStatusValue: FinalStatus | null = null;
  private sawStart = false;
  /** The dialect a normalized stream says its events were read from (its start's `dialect`). */
  private sourceDialect: string | null = null;
  private stopCause: StopCause | null = null;
  private pendingFatalError = false;
  /** Malformed lines seen before the stream started wait for its `start`, so a banner line cannot displace it. */
  private malformedBeforeStart: Problem[] = [];
  private beganAt: number | null = null;
  private firstTimestamp: number | null = null;
  private lastTimestamp: number | null = null;
  private readonly now: () => number;

  constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? Date.now;
    this.transcript = new TranscriptBuilder(options.onChange, { keepBlocks: options.keepBlocks, heldByListener: options.heldByListener, limits: options.limits });
  }

  get state(): SessionState {
    return this.stateValue;
  }

  get sessionId(): string | null {
    return this.sessionIdValue;
  }

  get done(): DoneSummary | null {
    return this.doneValue;
  }

  get problems(): readonly Problem[] {
    return this.problemList;
  }

  /** A copy of the transcript so far, for a view that (re)loads mid-stream. */
  get blocks(): TranscriptBlock[] {
    return this.transcript.snapshot.map((block) => ({ ...block }));
  }

  get finalStatus(): FinalStatus | null {
    return this.finalStatusValue;
  }

  get runningTools(): readonly { tool: string; toolId: string | null }[] {
    return this.transcript.runningTools;
  }

  get stoppedBy(): StopCause | null {
    return this.stopCause;
  }

  /** A live session begins when its process is started; its clock starts here. */
  begin(): void {
    if (this.stateValue !== "idle") return;
    this.beganAt = this.now();
    this.move("begin");
  }

  acceptEvent(event: CliStreamEvent, line: number | null): void {
    if (isFinished(this.stateValue) && event.type === "start" && this.options.severalTurns === true) this.beginNextTurn();
    if (isFinished(this.stateValue)) {
      this.report(line, "OUT_OF_ORDER", `${event.type} after done ignored`);
      return;
    }
    this.noteTimestamp(event.timestamp);
    if (event.type === "start") {
      this.acceptStart(event, line);
      return;
    }
    if (!this.sawStart) {
      this.report(line, "OUT_OF_ORDER", `stream began with ${event.type}, not start; a start was assumed`);
      this.synthesizeStart(event.sessionId);
    }
    if (this.pendingFatalError && event.type !== "done") {
      this.report(line, "OUT_OF_ORDER", `${event.type} after a fatal error; done should follow it immediately`);
    }
    this.pendingFatalError = false;
    this.apply(event, line);
  }

  /** A line that could not be used. Malformed lines also enter the normalized stream as recoverable errors. */
  acceptProblem(problem: Problem): void {
    if (!this.list(problem)) return;
    if (problem.code !== "MALFORMED_EVENT" || isFinished(this.stateValue)) return;
    if (!this.sawStart) {
      this.malformedBeforeStart.push(problem);
      return;
    }
    this.emitMalformed(problem);
  }

  private emitMalformed(problem: Problem): void {
    const message = `line ${problem.line ?? "?"}: ${problem.message}`;
    this.emit("error", { error: { code: "MALFORMED_EVENT", message, recoverable: true } });
  }

  private flushMalformedBeforeStart(): void {
    const waiting = this.malformedBeforeStart;
    this.malformedBeforeStart = [];
    for (const problem of waiting) this.emitMalformed(problem);
  }

  /**
   * We are stopping the CLI. What it says about being interrupted is not news to the user,
   * so its own errors from here on are not shown; a timeout is explained once, here.
   */
  /** The user sent a message into the running turn (the run wrote it to the agent): it shows where it was sent. */
  noteSteer(text: string): void {
    this.transcript.addSteer(text);
  }

  stopRequested(cause: StopCause, detail?: string): void {
    if (this.stopCause !== null || isFinished(this.stateValue)) return;
    this.stopCause = cause;
    if (cause === "timeout") {
      this.ensureStarted();
      this.addError({
        code: "NETWORK_TIMEOUT",
        message: detail ?? "The CLI produced no output for too long and was stopped.",
        recoverable: false,
      });
    }
  }

  /** A replayed stream reached its end. */
  endOfStream(): void {
    if (isFinished(this.stateValue)) return;
    this.report(null, "MISSING_DONE", "stream ended without a done event");
    this.synthesizeDone(1);
  }

  /** A recorded stream could not be read to its end (the file went away, a read error): said, then done. */
  sourceFailed(message: string): void {
    if (isFinished(this.stateValue)) return;
    this.ensureStarted();
    this.addError({ code: "UNKNOWN", message, recoverable: false });
    this.synthesizeDone(1);
  }

  /** The process is gone and all of its output was read. */
  processEnded(ending: ProcessEnding): void {
    if (isFinished(this.stateValue)) return;
    this.ensureStarted();
    const exitCode = ending.exitCode ?? signalExitCode(ending.signal);
    if (ending.reason === "spawn-failed") {
      this.addError({
        code: "CLI_NOT_FOUND",
        message: ending.spawnError?.message ?? "The CLI could not be started.",
        recoverable: false,
      });
      this.synthesizeDone(127);
      return;
    }
    if (this.stopCause === null && ending.reason === "exited") {
      this.addError({ code: "PROCESS_CRASHED", message: crashMessage(exitCode, ending), recoverable: false });
    }
    this.synthesizeDone(exitCode !== 0 ? exitCode : this.stopCause === "user" ? USER_STOP_EXIT_CODE : 1);
  }

  toTranscript(): Transcript {
    const done = this.doneValue;
    if (done === null || this.finalStatusValue === null) throw new Error("toTranscript before the session is done");
    return {
      sessionId: this.sessionIdValue,
      dialect: this.sourceDialect ?? (typeof this.options.dialect === "function" ? this.options.dialect() : this.options.dialect),
      status: this.finalStatusValue,
      blocks: this.blocks,
      done: { ...done, toolsUsed: [...done.toolsUsed] },
      problems: [...this.problemList],
    };
  }

  /** The turn is over and the next begins: the blocks stay, what the done said is the next turn's to say. */
  private beginNextTurn(): void {
    this.sawStart = false;
    this.doneValue = null;
    this.finalStatusValue = null;
    this.stopCause = null;
    this.pendingFatalError = false;
    this.move("next_turn");
  }

  private acceptStart(event: EventOfType<"start">, line: number | null): void {
    if (this.sawStart) {
      this.report(line, "OUT_OF_ORDER", "a second start ignored");
      return;
    }
    this.sawStart = true;
    this.sessionIdValue = event.sessionId;
    if (event.payload.dialect !== undefined) this.sourceDialect = event.payload.dialect;
    this.move("start");
    this.options.onEvent?.(event);
    this.flushMalformedBeforeStart();
  }

  private apply(event: CliStreamEvent, line: number | null): void {
    switch (event.type) {
      case "start":
        return;
      case "text_delta":
        this.transcript.appendText("text", event.payload.content);
        break;
      case "thinking":
        this.transcript.appendText("thinking", event.payload.content);
        break;
      case "tool_started": {
        const p = event.payload;
        this.transcript.startTool(p.tool, p.toolId ?? null, p.parameters ?? null, event.timestamp, { toolKind: p.kind, title: p.title, locations: p.locations });
        break;
      }
      case "tool_completed":
        this.completeTool(event, line);
        break;
      case "tool_updated":
        this.transcript.updateTool({ ...event.payload, toolKind: event.payload.kind, timestamp: event.timestamp });
        this.move("tool_completed");
        this.options.onEvent?.(event);
        return;
      case "permission_requested": {
        const p = event.payload;
        this.transcript.addPermission(p.requestId, p.toolId ?? null, p.title, p.options, p.outsideWorkspace ?? []);
        this.move("status");
        this.options.onEvent?.(event);
        return;
      }
      case "permission_answered": {
        const p = event.payload;
        if (!this.transcript.answerPermission(p.requestId, { decision: p.decision, optionId: p.optionId ?? null, by: p.by })) {
          this.report(line, "OUT_OF_ORDER", `permission_answered for request ${p.requestId} that was never asked`);
        }
        this.move("status");
        this.options.onEvent?.(event);
        return;
      }
      case "plan":
        this.transcript.setPlan(event.payload.entries);
        this.move("status");
        this.options.onEvent?.(event);
        return;
      case "status":
        this.transcript.addStatus(event.payload.status, event.payload.message ?? null);
        break;
      case "error": {
        // Our own stop makes the CLI report an interruption: that is not a crash the user needs to read about.
        if (this.stopCause !== null) return;
        this.pendingFatalError = !event.payload.error.recoverable;
        const error = this.explained(event.payload.error);
        this.transcript.addError(error);
        this.move(event.type);
        this.options.onEvent?.(error === event.payload.error ? event : { ...event, payload: { ...event.payload, error } });
        return;
      }
      case "done":
        this.finish(event.payload, false);
        this.options.onEvent?.(this.withStatus(event));
        return;
    }
    this.move(event.type);
    this.options.onEvent?.(event);
  }

  private completeTool(event: EventOfType<"tool_completed">, line: number | null): void {
    const p = event.payload;
    const matched = this.transcript.completeTool({
      tool: p.tool,
      toolId: p.toolId ?? null,
      success: p.success,
      durationMs: p.duration ?? null,
      error: p.error ?? null,
      timestamp: event.timestamp,
      output: p.output,
      diffs: p.diffs,
    });
    if (matched) return;
    this.report(line, "OUT_OF_ORDER", `tool_completed for ${p.tool}${p.toolId ? ` (${p.toolId})` : ""} without a tool_started`);
    // Keep the normalized stream valid: its consumers may rely on started-before-completed.
    this.emit("tool_started", { tool: p.tool, ...(p.toolId ? { toolId: p.toolId } : {}) });
  }

  private finish(payload: EventOfType<"done">["payload"], synthesized: boolean): void {
    this.transcript.finish();
    this.listUnlistedProblems();
    this.doneValue = {
      exitCode: payload.exitCode,
      durationMs: payload.duration,
      toolsUsed: payload.toolsUsed ?? this.transcript.toolsUsed,
      tokensUsed: payload.tokensUsed ?? null,
      success: payload.success,
      synthesized,
      usage: payload.usage ?? null,
    };
    this.finalStatusValue = payload.status ?? (payload.success ? "completed" : this.stopCause === "user" ? "canceled" : "failed");
    this.move(`done:${this.finalStatusValue}`);
    this.options.onChange?.({ kind: "done", done: this.doneValue, status: this.finalStatusValue });
  }

  private synthesizeDone(exitCode: number): void {
    this.ensureStarted();
    const payload = { exitCode, duration: this.elapsed(), toolsUsed: this.transcript.toolsUsed, success: false };
    this.finish(payload, true);
    this.options.onEvent?.(this.withStatus(this.envelope("done", payload)));
  }

  /** The done as passed on: saying how the turn ended, so a stopped run reads back as canceled, not failed. */
  private withStatus(event: EventOfType<"done">): EventOfType<"done"> {
    const status = this.finalStatusValue;
    if (status === null || event.payload.status === status) return event;
    return { ...event, payload: { ...event.payload, status } };
  }

  private ensureStarted(): void {
    if (!this.sawStart) this.synthesizeStart(null);
  }

  private synthesizeStart(sessionId: string | null): void {
    this.sawStart = true;
    this.sessionIdValue = sessionId ?? this.sessionIdValue ?? randomUUID();
    this.move("start");
    this.options.onEvent?.(this.envelope("start", { command: "exec" }));
    this.flushMalformedBeforeStart();
  }

  private addError(found: ProtocolError): void {
    const error = this.explained(found);
    this.transcript.addError(error);
    this.move("error");
    this.options.onEvent?.(this.envelope("error", { error }));
  }

  private explained(error: ProtocolError): ProtocolError {
    return this.options.environment === undefined ? error : withCause(error, this.options.environment);
  }

  private emit<T extends "error" | "tool_started">(type: T, payload: EventOfType<T>["payload"]): void {
    this.options.onEvent?.(this.envelope(type, payload));
  }

  private envelope<T extends CliStreamEvent["type"]>(type: T, payload: EventOfType<T>["payload"]): EventOfType<T> {
    return {
      protocol: PROTOCOL_VERSION,
      type,
      sessionId: this.sessionIdValue ?? "",
      timestamp: this.eventTime(),
      payload,
    } as EventOfType<T>;
  }

  private report(line: number | null, code: Problem["code"], message: string): void {
    this.list({ line, code, message });
  }

  /**
   * Lists a problem, unless MAX_LISTED_PROBLEMS are listed already: then it is only counted (a stream of garbage
   * must not fill memory, with problems or with the error cards they make). False when it was not listed.
   */
  private list(problem: Problem): boolean {
    // What the end of the stream says (a missing done) is always listed: there are only ever a few such.
    if (this.problemList.length >= MAX_LISTED_PROBLEMS && problem.line !== null) {
      this.unlistedProblems.set(problem.code, (this.unlistedProblems.get(problem.code) ?? 0) + 1);
      return false;
    }
    this.problemList.push(problem);
    this.options.onChange?.({ kind: "problem", problem });
    return true;
  }

  /** At the end, one line per kind of problem that was only counted. */
  private listUnlistedProblems(): void {
    for (const [code, count] of this.unlistedProblems) {
      const problem: Problem = { line: null, code, message: `and ${count.toLocaleString("en-US")} more like it, not listed` };
      this.problemList.push(problem);
      this.options.onChange?.({ kind: "problem", problem });
    }
    this.unlistedProblems.clear();
  }

  private move(input: SessionInput): void {
    const next = nextState(this.stateValue, input);
    if (next === this.stateValue) return;
    this.stateValue = next;
    this.options.onChange?.({ kind: "state", state: next });
  }

  private noteTimestamp(timestamp: number): void {
    if (this.firstTimestamp === null) this.firstTimestamp = timestamp;
    this.lastTimestamp = timestamp;
  }

  /** Live sessions measure by the clock; a replayed stream by its own timestamps. */
  private elapsed(): number {
    if (this.beganAt !== null) return Math.max(0, this.now() - this.beganAt);
    if (this.firstTimestamp !== null && this.lastTimestamp !== null) return Math.max(0, this.lastTimestamp - this.firstTimestamp);
    return 0;
  }

  private eventTime(): number {
    return this.beganAt !== null ? this.now() : (this.lastTimestamp ?? this.now());
  }
}

function signalExitCode(signal: NodeJS.Signals | null): number {
  if (signal === null) return 1;
  return 128 + (SIGNAL_NUMBERS[signal] ?? 0);
}

function crashMessage(exitCode: number, ending: ProcessEnding): string {
  const how = ending.signal !== null ? `was killed by ${ending.signal}` : `exited with code ${exitCode}`;
  const tail = stderrExcerpt(ending.stderrTail);
  const base = `The CLI ${how} before finishing its stream (no done event).`;
  return tail ? withStderrExcerpt(base, tail) : `${base} It wrote nothing to stderr.`;
}
