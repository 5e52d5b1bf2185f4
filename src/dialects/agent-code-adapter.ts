// agent-code's `agent -p "<prompt>" --output-format json` (docs/protocols/agent-jsonl-output.md: its event
// table and exit codes). One flat JSON object per line. Tool calls carry no id, so a result completes the oldest
// running call of its tool's name; an `error` line carries no verdict, so what follows it says whether it was fatal.
import * as z from "zod/mini";
import { isRecord } from "../protocol/json-record";
import type { ProtocolError, ProtocolErrorCode } from "../protocol/events";
import type { ToolDiff } from "../protocol/transcript";
import { addUsage } from "../common/usage-totals";
import { dollars, turnUsage, type TurnUsage } from "../protocol/usage";
import { defineDialect, type AdapterOutput, type DialectAdapter, type StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import { wrongType, type Json, type Verdict } from "./kit/cli-line";
import { inputDiffs } from "./kit/file-edits";
import { LineTable, count, exitCode, lineSchema, type LineOf } from "./kit/line-schema";
import { Stopwatch, usageMessage } from "./kit/run-words";

// The lines it writes, as far as they are read (crates/cli/src/output.rs).
const SESSION_START = lineSchema(z.object({ session_id: z.string(), model: z.optional(z.string()) }));
const CONTENT = lineSchema(z.object({ type: z.enum(["text_delta", "thinking"]), content: z.string() }));
/** Its input is checked after the card is shown: a tool call with odd input is still a tool call. */
const TOOL_CALL = lineSchema(z.object({ tool: z.string(), input: z.optional(z.unknown()) }));
const TOOL_RESULT = lineSchema(z.object({ tool: z.string(), is_error: z.boolean(), output: z.optional(z.string()) }));
const TURN_COMPLETE = lineSchema(z.object({ input_tokens: z.optional(count), output_tokens: z.optional(count), cost_usd: z.optional(count) }));
const MESSAGE = lineSchema(z.object({ message: z.string() }));
const COMPACT = lineSchema(z.object({ freed_tokens: z.optional(count) }));
const SESSION_END = lineSchema(z.object({ exit_code: exitCode, total_cost_usd: z.optional(count) }));

/**
 * The documented exit codes (ExitCode in the CLI's output.rs). None of them means "log in again": 7 is the CLI's
 * own permission rules refusing a tool, so every one is UNKNOWN, with words that say what happened.
 */
const EXIT_CODE_MEANINGS: Readonly<Record<number, string>> = {
  1: "agent-code stopped: its configuration is missing or invalid (exit code 1).",
  2: "agent-code stopped: it did not accept its input (exit code 2).",
  3: "agent-code stopped: a tool failed (exit code 3).",
  4: "agent-code stopped: the model call failed (exit code 4).",
  5: "agent-code stopped: the run reached its cost limit (exit code 5).",
  6: "agent-code stopped: the run reached its turn limit (exit code 6).",
  7: "agent-code stopped: a tool was refused by its permission rules (exit code 7).",
};

/** agent-code words a model provider's failure "<kind>: <details>"; the kind tells when the details do not. */
const ERROR_KIND_CODES: readonly [RegExp, ProtocolErrorCode][] = [[/^auth:/, "AUTH_EXPIRED"]];

/** Lines that mean the CLI went on after an error it reported: the error was not the end of the run. */
const WENT_ON_TYPES = new Set(["turn_start", "text_delta", "thinking", "tool_call", "tool_result", "compact"]);

/** agent-code's tools that change a file (crates/lib/src/tools): FileEdit `{file_path, old_string, new_string, replace_all}`, FileWrite `{file_path, content}`. */
const FILE_TOOLS: Readonly<Record<string, "edit" | "write">> = { FileEdit: "edit", FileWrite: "write" };

/** Warnings about waiting to try a model call again; the others (budget, context) are shown as they are. */
const RETRY_WORDS = /\b(retry|retrying|backoff|rate[ _-]?limit(ed)?|overloaded)\b/i;

export class AgentCodeAdapter implements DialectAdapter {
  readonly dialect = "agent-code";
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  private sawEnd = false;
  /** The last error the CLI reported, held until the next line: fatal if the run ends there, recoverable if not. */
  private heldError: ProtocolError | null = null;
  private tokens: number | undefined;
  private turnCosts: number | undefined;
  /** The model turns' figures added up; the session's `total_cost_usd`, when it ends, is the cost. */
  private usage: TurnUsage | undefined;
  /**
   * What each running edit proposes, by tool name, oldest first: a result names only its tool, and completes the
   * oldest running call of that name (as the session pairs them).
   */
  private readonly proposed = new Map<string, (ToolDiff[] | undefined)[]>();

  private readonly lines = new LineTable()
    .on("session_start", SESSION_START, (line, out) => this.onSessionStart(line, out))
    .onEach(["text_delta", "thinking"], CONTENT, (line, out) => this.onContent(line, out))
    .on("tool_call", TOOL_CALL, (line, out) => this.onToolCall(line, out))
    .on("tool_result", TOOL_RESULT, (line, out) => this.onToolResult(line, out))
    .on("turn_complete", TURN_COMPLETE, (line) => this.onTurnComplete(line))
    .on("error", MESSAGE, (line, out) => this.onError(line, out))
    .on("warning", MESSAGE, (line, out) => this.onWarning(line, out))
    .on("compact", COMPACT, (line, out) => this.onCompact(line, out))
    .on("session_end", SESSION_END, (line, out) => this.onSessionEnd(line, out));
  // turn_start (a new agent turn) and whatever later releases add: nothing to show.

  constructor(now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out, (line) => {
      if (WENT_ON_TYPES.has(line.type)) this.releaseHeldErrorAsRecoverable(out);
    });
  }

  /**
   * Without a `session_end`, the exit code is all the CLI said: an error it reported last, or a documented exit
   * code, ends the session as failed (even after exit 0). Any other ending is left to the session, which explains a
   * crash with the CLI's stderr; a recording (no ending) gets its held error and no `done`.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.sawEnd) return;
    const exitCode = ending?.exitCode ?? null;
    const failure = this.heldError ?? (exitCode !== null && exitCode !== 0 ? exitCodeFailure(exitCode, false) : null);
    this.heldError = null;
    if (failure === null) return;
    this.ensureStarted(out);
    this.emitError(out, failure);
    if (exitCode !== null) this.finish(out, exitCode, false);
  }

  private onSessionStart(line: LineOf<typeof SESSION_START>, out: AdapterOutput): Verdict {
    // Its `timestamp` is an ISO string; events are stamped by our clock, so durations use one clock throughout.
    this.factory.startOnce(out, line.model !== undefined ? { command: "exec", model: line.model } : { command: "exec" }, line.session_id);
    return undefined;
  }

  private onContent(line: LineOf<typeof CONTENT>, out: AdapterOutput): Verdict {
    if (line.content !== "") out.event(this.factory.make(line.type, { content: line.content }));
    return undefined;
  }

  /** agent-code reports a tool call once its input is whole (a finished content block), so it is shown at once. */
  private onToolCall(line: LineOf<typeof TOOL_CALL>, out: AdapterOutput): Verdict {
    const input = line.input;
    const kind = Object.hasOwn(FILE_TOOLS, line.tool) ? FILE_TOOLS[line.tool] : undefined;
    if (kind !== undefined) this.proposed.set(line.tool, [...(this.proposed.get(line.tool) ?? []), inputDiffs(kind, input)]);
    if (isRecord(input)) {
      out.event(this.factory.make("tool_started", { tool: line.tool, parameters: input }));
      return undefined;
    }
    out.event(this.factory.make("tool_started", { tool: line.tool }));
    if (input === undefined || input === null) return undefined;
    return `${wrongType("input", "object", input)}; the tool is shown without parameters`;
  }

  private onToolResult(line: LineOf<typeof TOOL_RESULT>, out: AdapterOutput): Verdict {
    const error = line.is_error ? (line.output ?? "").trim() : "";
    const diffs = this.proposed.get(line.tool)?.shift();
    out.event(
      this.factory.make("tool_completed", {
        tool: line.tool,
        success: !line.is_error,
        ...(error === "" ? {} : { error }),
        ...(!line.is_error && line.output ? { output: line.output } : {}),
        ...(diffs === undefined ? {} : { diffs }),
      }),
    );
    return undefined;
  }

  private onTurnComplete(line: LineOf<typeof TURN_COMPLETE>): Verdict {
    for (const tokens of [line.input_tokens, line.output_tokens]) {
      if (tokens !== undefined) this.tokens = (this.tokens ?? 0) + tokens;
    }
    if (line.cost_usd !== undefined) this.turnCosts = (this.turnCosts ?? 0) + line.cost_usd;
    const turn = turnUsage({ inputTokens: line.input_tokens, outputTokens: line.output_tokens, cost: line.cost_usd ? dollars(line.cost_usd) : undefined });
    if (turn !== undefined) this.usage = this.usage === undefined ? turn : addUsage(this.usage, turn);
    return undefined;
  }

  private onError(line: LineOf<typeof MESSAGE>, out: AdapterOutput): Verdict {
    // Two errors in a row: the CLI went on after the first.
    this.releaseHeldErrorAsRecoverable(out);
    this.heldError = { code: codeFor(line.message), message: line.message, recoverable: false };
    return undefined;
  }

  /** Later releases put the engine's warnings (rate-limit backoff, budget, context) on stdout too. */
  private onWarning(line: LineOf<typeof MESSAGE>, out: AdapterOutput): Verdict {
    this.emitStatus(out, RETRY_WORDS.test(line.message) ? "retrying" : "warning", line.message);
    return undefined;
  }

  private onCompact(line: LineOf<typeof COMPACT>, out: AdapterOutput): Verdict {
    const freed = line.freed_tokens !== undefined && line.freed_tokens > 0 ? ` (about ${line.freed_tokens.toLocaleString("en-US")} tokens freed)` : "";
    this.emitStatus(out, "compacted", `Older parts of the conversation were compacted to fit the model's context${freed}.`);
    return undefined;
  }

  private onSessionEnd(line: LineOf<typeof SESSION_END>, out: AdapterOutput): Verdict {
    this.ensureStarted(out);
    const cost = line.total_cost_usd ?? this.turnCosts;
    const tokens = this.tokens ?? 0;
    if (tokens > 0 || (cost ?? 0) > 0) this.emitStatus(out, "usage", usageMessage({ tokens: tokens > 0 ? tokens : undefined, cost: cost !== undefined && cost > 0 ? cost : undefined }));
    if (line.total_cost_usd !== undefined && line.total_cost_usd > 0) this.usage = turnUsage({ ...this.usage, cost: dollars(line.total_cost_usd) });
    // A stream error in the last turn still ends with exit code 0: the error said it failed, so it did.
    const failure = this.heldError ?? (line.exit_code !== 0 ? exitCodeFailure(line.exit_code, true) : null);
    this.heldError = null;
    if (failure !== null) this.emitError(out, failure);
    this.finish(out, line.exit_code, failure === null);
    return undefined;
  }

  /** A run that fails before its `session_start` (its configuration, its arguments) still gets a start. */
  private ensureStarted(out: AdapterOutput): void {
    this.factory.startOnce(out, { command: "exec" });
  }

  private finish(out: AdapterOutput, exitCode: number, success: boolean): void {
    this.sawEnd = true;
    const payload = { exitCode, duration: this.clock.elapsed(), success };
    const usage = this.usage;
    out.event(this.factory.make("done", { ...payload, ...(this.tokens === undefined ? {} : { tokensUsed: this.tokens }), ...(usage === undefined ? {} : { usage }) }));
  }

  /** The CLI went on after the error it reported last: that error did not end the run. */
  private releaseHeldErrorAsRecoverable(out: AdapterOutput): void {
    const error = this.heldError;
    if (error === null) return;
    this.heldError = null;
    this.emitError(out, { ...error, recoverable: true });
  }

  private emitError(out: AdapterOutput, error: ProtocolError): void {
    out.event(this.factory.make("error", { error }));
  }

  private emitStatus(out: AdapterOutput, status: string, message: string): void {
    out.event(this.factory.make("status", { status, message }));
  }
}

export const agentCodeDialect = defineDialect({
  name: "agent-code",
  summary: "agent-code: `agent -p --output-format json`.",
  create: () => new AgentCodeAdapter(),
  recognizes: isAgentCodeValue,
});

/**
 * Lines only agent-code writes: flat (no protocol-1 envelope), its own event names, and a `turn` number on the
 * names it shares with others (`text_delta`, `thinking`, `error`; pi's `turn_start` has no number).
 */
function isAgentCodeValue(value: Json): boolean {
  if ("protocol" in value || "payload" in value) return false;
  switch (value.type) {
    case "session_start":
      return typeof value.session_id === "string";
    case "session_end":
      return "exit_code" in value;
    case "turn_complete":
      return typeof value.turn === "number" && "input_tokens" in value;
    case "tool_call":
      return typeof value.tool === "string" && typeof value.turn === "number";
    case "tool_result":
      return typeof value.tool === "string" && "is_error" in value;
    case "compact":
      return "freed_tokens" in value;
    case "turn_start":
    case "text_delta":
    case "thinking":
    case "error":
    case "warning":
      return typeof value.turn === "number";
    default:
      return false;
  }
}

function codeFor(message: string): ProtocolErrorCode {
  const code = errorCodeFor(message);
  if (code !== "UNKNOWN") return code;
  return ERROR_KIND_CODES.find(([kind]) => kind.test(message))?.[1] ?? code;
}

/** An exit code's meaning as an error. Without a session_end, an undocumented code (a panic exits 101) is null: a crash. */
function exitCodeFailure(exitCode: number, sawSessionEnd: boolean): ProtocolError | null {
  const meaning = EXIT_CODE_MEANINGS[exitCode];
  if (meaning === undefined) return sawSessionEnd ? { code: "UNKNOWN", message: `agent-code ended the run with exit code ${exitCode}.`, recoverable: false } : null;
  // Without a session_end the CLI stopped before or outside its run, and says why only on stderr.
  const message = sawSessionEnd ? meaning : `${meaning} What it printed on stderr says why.`;
  return { code: "UNKNOWN", message, recoverable: false };
}
