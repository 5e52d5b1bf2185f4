// Locus's later releases (../shared/docs/real-cli-recording.md, "Locus"): protocol 1's events flattened, with no
// `protocol` and no `payload` (the payload's fields sit beside `type`), `start` stamped with an ISO string, `status`
// naming its `state`, errors flagged `retryable`, and `done` carrying its figures in `stats`. Such a Locus may report
// a fatal error and exit without a `done`, even with exit code 0: the run still failed.
import { typeName } from "../protocol/describe-issue";
import { PROTOCOL_ERROR_CODES, type ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { AdapterOutput, DialectAdapter, DialectDefinition, StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";

type Json = Record<string, unknown>;

/** What a decoder of one kind of line returns: nothing, or what is wrong with the line (a field named). */
type Verdict = string | undefined;

/** Protocol 1's fields that a flat `start` may carry beside `type`. */
const START_FIELDS = ["command", "model", "provider", "cwd"] as const;

export class LocusFlatAdapter implements DialectAdapter {
  readonly dialect = "locus-flat";
  private readonly factory: EventFactory;
  private startedAt: number | null = null;
  private sawDone = false;
  /** A non-retryable error was reported: the run failed, whatever its `done` or exit code says. */
  private failed = false;

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
    const verdict = this.decodeRecord(value.type, value, out);
    if (verdict !== undefined) out.problem("MALFORMED_EVENT", `${value.type}: ${verdict}`);
  }

  /**
   * A fatal error with no `done` after it is how this Locus ends a failed run: the `done` it owes is made here, with
   * its exit code (1 for a recording, as protocol 1 gives a failed run). Any other stream without a `done` is left
   * to the session, which says what is missing and, for a crash, what the CLI printed on stderr.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.sawDone || !this.failed) return;
    this.sawDone = true;
    out.event(this.factory.make("done", { exitCode: ending?.exitCode ?? 1, duration: this.elapsed(), success: false }));
  }

  private decodeRecord(type: string, value: Json, out: AdapterOutput): Verdict {
    switch (type) {
      case "start":
        return this.onStart(value, out);
      case "text_delta":
      case "thinking":
        return this.onContent(type, value, out);
      case "tool_started":
        return this.onToolStarted(value, out);
      case "tool_completed":
        return this.onToolCompleted(value, out);
      case "status":
        return this.onStatus(value, out);
      case "error":
        return this.onError(value, out);
      case "done":
        return this.onDone(value, out);
      default:
        return undefined;
    }
  }

  private onStart(value: Json, out: AdapterOutput): Verdict {
    if (value.sessionId !== undefined && typeof value.sessionId !== "string") return wrongType("sessionId", "string", value.sessionId);
    for (const key of START_FIELDS) {
      if (value[key] !== undefined && typeof value[key] !== "string") return wrongType(key, "string", value[key]);
    }
    if (typeof value.sessionId === "string") this.factory.sessionId = value.sessionId;
    const payload: { command: string; model?: string; provider?: string; cwd?: string } = { command: "exec" };
    for (const key of START_FIELDS) {
      const field = value[key];
      if (typeof field === "string") payload[key] = field;
    }
    // Its `timestamp` is an ISO string; events are stamped by our clock, so durations use one clock throughout.
    out.event(this.factory.make("start", payload));
    return undefined;
  }

  private onContent(type: "text_delta" | "thinking", value: Json, out: AdapterOutput): Verdict {
    if (typeof value.content !== "string") return wrongType("content", "string", value.content);
    if (value.content !== "") out.event(this.factory.make(type, { content: value.content }));
    return undefined;
  }

  private onToolStarted(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.tool !== "string") return wrongType("tool", "string", value.tool);
    if (!isOptional(value.toolId, "string")) return wrongType("toolId", "string", value.toolId);
    if (value.parameters !== undefined && value.parameters !== null && !isRecord(value.parameters)) return wrongType("parameters", "object", value.parameters);
    const payload: { tool: string; toolId?: string; parameters?: Json } = { tool: value.tool };
    if (typeof value.toolId === "string") payload.toolId = value.toolId;
    if (isRecord(value.parameters)) payload.parameters = value.parameters;
    out.event(this.factory.make("tool_started", payload));
    return undefined;
  }

  private onToolCompleted(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.tool !== "string") return wrongType("tool", "string", value.tool);
    if (typeof value.success !== "boolean") return wrongType("success", "boolean", value.success);
    if (!isOptional(value.toolId, "string")) return wrongType("toolId", "string", value.toolId);
    if (value.duration !== undefined && value.duration !== null && !isCount(value.duration)) return wrongType("duration", "non-negative number", value.duration);
    if (!isOptional(value.error, "string")) return wrongType("error", "string", value.error);
    const payload: { tool: string; toolId?: string; success: boolean; duration?: number; error?: string } = { tool: value.tool, success: value.success };
    if (typeof value.toolId === "string") payload.toolId = value.toolId;
    if (isCount(value.duration)) payload.duration = value.duration;
    if (typeof value.error === "string" && value.error !== "") payload.error = value.error;
    out.event(this.factory.make("tool_completed", payload));
    return undefined;
  }

  private onStatus(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.state !== "string") return wrongType("state", "string", value.state);
    if (!isOptional(value.message, "string")) return wrongType("message", "string", value.message);
    out.event(this.factory.make("status", typeof value.message === "string" ? { status: value.state, message: value.message } : { status: value.state }));
    return undefined;
  }

  private onError(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.message !== "string") return wrongType("message", "string", value.message);
    if (!isOptional(value.retryable, "boolean")) return wrongType("retryable", "boolean", value.retryable);
    if (!isOptional(value.code, "string")) return wrongType("code", "string", value.code);
    const recoverable = value.retryable === true;
    if (!recoverable) this.failed = true;
    out.event(this.factory.make("error", { error: { code: codeFor(value.code, value.message), message: value.message, recoverable } }));
    return undefined;
  }

  /** Its figures are read as far as they make sense: a `done` is never dropped for a strange `stats`. */
  private onDone(value: Json, out: AdapterOutput): Verdict {
    if (value.sessionId !== undefined && typeof value.sessionId !== "string") return wrongType("sessionId", "string", value.sessionId);
    if (this.factory.sessionId === "" && typeof value.sessionId === "string") this.factory.sessionId = value.sessionId;
    const stats = isRecord(value.stats) ? value.stats : {};
    const exitCode = firstOf(isExitCode, value.exitCode, stats.exitCode);
    const said = firstOf(isBoolean, value.success, stats.success);
    const success = !this.failed && (said ?? (exitCode ?? 0) === 0);
    const payload: { exitCode: number; duration: number; success: boolean; toolsUsed?: string[]; tokensUsed?: number } = {
      exitCode: exitCode ?? (success ? 0 : 1),
      duration: firstOf(isCount, stats.duration, stats.durationMs, value.duration) ?? this.elapsed(),
      success,
    };
    const tools = toolNames(stats.tools ?? stats.toolsUsed);
    if (tools !== undefined) payload.toolsUsed = tools;
    const tokens = tokenCount(stats.tokens ?? stats.tokensUsed);
    if (tokens !== undefined) payload.tokensUsed = tokens;
    this.sawDone = true;
    out.event(this.factory.make("done", payload));
    if (value.stats !== undefined && value.stats !== null && !isRecord(value.stats)) {
      return `${wrongType("stats", "object", value.stats)}; the run's figures are not shown`;
    }
    return undefined;
  }

  private elapsed(): number {
    return this.startedAt === null ? 0 : Math.max(0, this.now() - this.startedAt);
  }
}

export const locusFlatDialect: DialectDefinition = {
  name: "locus-flat",
  create: () => new LocusFlatAdapter(),
  recognizes: isLocusFlatValue,
};

/**
 * Protocol 1's event names without its envelope. Protocol-1 lines (`protocol`, `payload`) are Locus's own dialect,
 * and lines with a `turn` number are agent-code's, which shares `text_delta`, `thinking` and `error`.
 */
function isLocusFlatValue(value: Json): boolean {
  if ("protocol" in value || "payload" in value || "turn" in value) return false;
  switch (value.type) {
    case "start":
      return typeof value.timestamp === "string" || typeof value.sessionId === "string";
    case "text_delta":
    case "thinking":
      return typeof value.content === "string";
    case "tool_started":
      return typeof value.tool === "string";
    case "tool_completed":
      return typeof value.tool === "string" && typeof value.success === "boolean";
    case "status":
      return typeof value.state === "string";
    case "error":
      return typeof value.message === "string";
    case "done":
      return isRecord(value.stats) || typeof value.sessionId === "string";
    default:
      return false;
  }
}

/** The CLI's own code when it is one of protocol 1's; otherwise what its words (or its unknown code) mean. */
function codeFor(code: unknown, message: string): ProtocolErrorCode {
  if (typeof code === "string" && (PROTOCOL_ERROR_CODES as readonly string[]).includes(code)) return code as ProtocolErrorCode;
  const byWords = errorCodeFor(message);
  if (byWords !== "UNKNOWN" || typeof code !== "string") return byWords;
  return errorCodeFor(code.replace(/_/g, " "));
}

/** `tools` as names, whether a list of names or of `{ name }` / `{ tool }` records; a bare count says no names. */
function toolNames(tools: unknown): string[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const names = tools.flatMap((tool) => {
    if (typeof tool === "string") return [tool];
    if (isRecord(tool)) return [tool.name, tool.tool].filter((name): name is string => typeof name === "string").slice(0, 1);
    return [];
  });
  return [...new Set(names)];
}

/** `tokens` as a count, or a breakdown (`{ input, output }`) whose `total`, if it has one, is the count. */
function tokenCount(tokens: unknown): number | undefined {
  if (isCount(tokens)) return tokens;
  if (!isRecord(tokens)) return undefined;
  if (isCount(tokens.total)) return tokens.total;
  const counts = Object.values(tokens).filter(isCount);
  return counts.length === 0 ? undefined : counts.reduce((sum, count) => sum + count, 0);
}

function firstOf<T>(accept: (value: unknown) => value is T, ...values: unknown[]): T | undefined {
  return values.find(accept) as T | undefined;
}

function isOptional(value: unknown, type: "string" | "boolean"): boolean {
  return value === undefined || value === null || typeof value === type;
}

function wrongType(path: string, expected: string, actual: unknown): string {
  return actual === undefined ? `${path}: missing, expected ${expected}` : `${path}: expected ${expected}, got ${typeName(actual)}`;
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === "boolean";
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isExitCode(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255;
}
