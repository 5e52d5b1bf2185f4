// agent-code's `agent -p "<prompt>" --output-format json` (../shared/protocols/agent-jsonl-output.md: its event
// table and exit codes). One flat JSON object per line. Tool calls carry no id, so a result completes the oldest
// running call of its tool's name; an `error` line carries no verdict, so what follows it says whether it was fatal.
import { typeName } from "../protocol/describe-issue";
import type { ProtocolError, ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { AdapterOutput, DialectAdapter, DialectDefinition, StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";

type Json = Record<string, unknown>;

/** What a decoder of one kind of line returns: nothing, or what is wrong with the line (a field named). */
type Verdict = string | undefined;

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

/** Warnings about waiting to try a model call again; the others (budget, context) are shown as they are. */
const RETRY_WORDS = /\b(retry|retrying|backoff|rate[ _-]?limit(ed)?|overloaded)\b/i;

export class AgentCodeAdapter implements DialectAdapter {
  readonly dialect = "agent-code";
  private readonly factory: EventFactory;
  private startedAt: number | null = null;
  private sawStart = false;
  private sawEnd = false;
  /** The last error the CLI reported, held until the next line: fatal if the run ends there, recoverable if not. */
  private heldError: ProtocolError | null = null;
  private tokens: number | undefined;
  private turnCosts: number | undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.factory = new EventFactory(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.startedAt ??= this.now();
    if (!isRecord(value)) {
      out.problem("MALFORMED_EVENT", `expected a JSON object, got ${typeName(value)}`);
      return;
    }
    if (typeof value.type !== "string") {
      out.problem("MALFORMED_EVENT", wrongType("type", "string", value.type));
      return;
    }
    if (WENT_ON_TYPES.has(value.type)) this.releaseHeldErrorAsRecoverable(out);
    const verdict = this.decodeRecord(value.type, value, out);
    if (verdict !== undefined) out.problem("MALFORMED_EVENT", `${value.type}: ${verdict}`);
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

  private decodeRecord(type: string, value: Json, out: AdapterOutput): Verdict {
    switch (type) {
      case "session_start":
        return this.onSessionStart(value, out);
      case "text_delta":
      case "thinking":
        return this.onContent(type, value, out);
      case "tool_call":
        return this.onToolCall(value, out);
      case "tool_result":
        return this.onToolResult(value, out);
      case "turn_complete":
        return this.onTurnComplete(value);
      case "error":
        return this.onError(value, out);
      case "warning":
        return this.onWarning(value, out);
      case "compact":
        return this.onCompact(value, out);
      case "session_end":
        return this.onSessionEnd(value, out);
      default:
        // turn_start (a new agent turn) and whatever later releases add: nothing to show.
        return undefined;
    }
  }

  private onSessionStart(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.session_id !== "string") return wrongType("session_id", "string", value.session_id);
    if (value.model !== undefined && typeof value.model !== "string") return wrongType("model", "string", value.model);
    if (this.sawStart) return undefined;
    this.sawStart = true;
    this.factory.sessionId = value.session_id;
    // Its `timestamp` is an ISO string; events are stamped by our clock, so durations use one clock throughout.
    out.event(this.factory.make("start", typeof value.model === "string" ? { command: "exec", model: value.model } : { command: "exec" }));
    return undefined;
  }

  private onContent(type: "text_delta" | "thinking", value: Json, out: AdapterOutput): Verdict {
    if (typeof value.content !== "string") return wrongType("content", "string", value.content);
    if (value.content !== "") out.event(this.factory.make(type, { content: value.content }));
    return undefined;
  }

  /** agent-code reports a tool call once its input is whole (a finished content block), so it is shown at once. */
  private onToolCall(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.tool !== "string") return wrongType("tool", "string", value.tool);
    const input = value.input;
    if (isRecord(input)) {
      out.event(this.factory.make("tool_started", { tool: value.tool, parameters: input }));
      return undefined;
    }
    out.event(this.factory.make("tool_started", { tool: value.tool }));
    if (input === undefined || input === null) return undefined;
    return `${wrongType("input", "object", input)}; the tool is shown without parameters`;
  }

  private onToolResult(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.tool !== "string") return wrongType("tool", "string", value.tool);
    if (typeof value.is_error !== "boolean") return wrongType("is_error", "boolean", value.is_error);
    if (value.output !== undefined && typeof value.output !== "string") return wrongType("output", "string", value.output);
    const error = value.is_error ? (value.output ?? "").trim() : "";
    out.event(this.factory.make("tool_completed", error === "" ? { tool: value.tool, success: !value.is_error } : { tool: value.tool, success: false, error }));
    return undefined;
  }

  private onTurnComplete(value: Json): Verdict {
    for (const key of ["input_tokens", "output_tokens", "cost_usd"] as const) {
      if (value[key] !== undefined && !isCount(value[key])) return wrongType(key, "non-negative number", value[key]);
    }
    for (const key of ["input_tokens", "output_tokens"] as const) {
      if (isCount(value[key])) this.tokens = (this.tokens ?? 0) + value[key];
    }
    if (isCount(value.cost_usd)) this.turnCosts = (this.turnCosts ?? 0) + value.cost_usd;
    return undefined;
  }

  private onError(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.message !== "string") return wrongType("message", "string", value.message);
    // Two errors in a row: the CLI went on after the first.
    this.releaseHeldErrorAsRecoverable(out);
    this.heldError = { code: codeFor(value.message), message: value.message, recoverable: false };
    return undefined;
  }

  /** Later releases put the engine's warnings (rate-limit backoff, budget, context) on stdout too. */
  private onWarning(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.message !== "string") return wrongType("message", "string", value.message);
    this.emitStatus(out, RETRY_WORDS.test(value.message) ? "retrying" : "warning", value.message);
    return undefined;
  }

  private onCompact(value: Json, out: AdapterOutput): Verdict {
    if (value.freed_tokens !== undefined && !isCount(value.freed_tokens)) return wrongType("freed_tokens", "non-negative number", value.freed_tokens);
    const freed = isCount(value.freed_tokens) && value.freed_tokens > 0 ? ` (about ${value.freed_tokens.toLocaleString("en-US")} tokens freed)` : "";
    this.emitStatus(out, "compacted", `Older parts of the conversation were compacted to fit the model's context${freed}.`);
    return undefined;
  }

  private onSessionEnd(value: Json, out: AdapterOutput): Verdict {
    if (!isExitCode(value.exit_code)) return wrongType("exit_code", "integer from 0 to 255", value.exit_code);
    if (value.total_cost_usd !== undefined && !isCount(value.total_cost_usd)) return wrongType("total_cost_usd", "non-negative number", value.total_cost_usd);
    this.ensureStarted(out);
    const cost = isCount(value.total_cost_usd) ? value.total_cost_usd : this.turnCosts;
    if ((this.tokens ?? 0) > 0 || (cost ?? 0) > 0) this.emitStatus(out, "usage", usageMessage(this.tokens, cost));
    // A stream error in the last turn still ends with exit code 0: the error said it failed, so it did.
    const failure = this.heldError ?? (value.exit_code !== 0 ? exitCodeFailure(value.exit_code, true) : null);
    this.heldError = null;
    if (failure !== null) this.emitError(out, failure);
    this.finish(out, value.exit_code, failure === null);
    return undefined;
  }

  /** A run that fails before its `session_start` (its configuration, its arguments) still gets a start. */
  private ensureStarted(out: AdapterOutput): void {
    if (this.sawStart) return;
    this.sawStart = true;
    out.event(this.factory.make("start", { command: "exec" }));
  }

  private finish(out: AdapterOutput, exitCode: number, success: boolean): void {
    this.sawEnd = true;
    const payload = { exitCode, duration: this.elapsed(), success };
    out.event(this.factory.make("done", this.tokens === undefined ? payload : { ...payload, tokensUsed: this.tokens }));
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

  private elapsed(): number {
    return this.startedAt === null ? 0 : Math.max(0, this.now() - this.startedAt);
  }
}

export const agentCodeDialect: DialectDefinition = {
  name: "agent-code",
  create: () => new AgentCodeAdapter(),
  recognizes: isAgentCodeValue,
};

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

function usageMessage(tokens: number | undefined, cost: number | undefined): string {
  const parts: string[] = [];
  if (tokens !== undefined && tokens > 0) parts.push(`${tokens.toLocaleString("en-US")} tokens`);
  if (cost !== undefined && cost > 0) parts.push(`$${cost.toFixed(4)}`);
  return parts.join(" · ");
}

function wrongType(path: string, expected: string, actual: unknown): string {
  return actual === undefined ? `${path}: missing, expected ${expected}` : `${path}: expected ${expected}, got ${typeName(actual)}`;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isExitCode(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255;
}
