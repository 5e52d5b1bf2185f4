// Locus's later releases (docs/real-cli-recording.md, "Locus"): protocol 1's events flattened, with no
// `protocol` and no `payload` (the payload's fields sit beside `type`), `start` stamped with an ISO string, `status`
// naming its `state`, errors flagged `retryable`, and `done` carrying its figures in `stats`. Such a Locus may report
// a fatal error and exit without a `done`, even with exit code 0: the run still failed.
import * as z from "zod/mini";
import { PROTOCOL_ERROR_CODES, ToolDiffSchema, type ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import { defineDialect, type AdapterOutput, type DialectAdapter, type StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import { wrongType, type Json, type Verdict } from "./kit/cli-line";
import { LineTable, count, isCount, isExitCode, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch } from "./kit/run-words";

/** An optional field this Locus may also write as null. */
const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

const START = lineSchema(
  z.object({
    sessionId: z.optional(z.string()),
    command: z.optional(z.string()),
    model: z.optional(z.string()),
    provider: z.optional(z.string()),
    cwd: z.optional(z.string()),
  }),
);
const CONTENT = lineSchema(z.object({ type: z.enum(["text_delta", "thinking"]), content: z.string() }));
const TOOL_STARTED = lineSchema(z.object({ tool: z.string(), toolId: maybe(z.string()), parameters: maybe(object) }));
/** Protocol 1's payload beside `type`, its `output` and `diffs` (what a tool printed, the files it changed) included. */
const TOOL_COMPLETED = lineSchema(
  z.object({
    tool: z.string(),
    success: z.boolean(),
    toolId: maybe(z.string()),
    duration: maybe(count),
    error: maybe(z.string()),
    output: maybe(z.string()),
    diffs: maybe(z.array(ToolDiffSchema)),
  }),
);
const STATUS = lineSchema(z.object({ state: z.string(), message: maybe(z.string()) }));
const ERROR = lineSchema(z.object({ message: z.string(), retryable: maybe(z.boolean()), code: maybe(z.string()) }));
/** Its figures are read as far as they make sense: a `done` is never dropped for a strange `stats`. */
const DONE = lineSchema(
  z.object({
    sessionId: z.optional(z.string()),
    exitCode: z.optional(z.unknown()),
    success: z.optional(z.unknown()),
    duration: z.optional(z.unknown()),
    stats: z.optional(z.unknown()),
  }),
);

export class LocusFlatAdapter implements DialectAdapter {
  readonly dialect = "locus-flat";
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  private sawDone = false;
  /** A non-retryable error was reported: the run failed, whatever its `done` or exit code says. */
  private failed = false;
  private readonly lines = new LineTable()
    .on("start", START, (line, out) => this.onStart(line, out))
    .onEach(["text_delta", "thinking"], CONTENT, (line, out) => this.onContent(line, out))
    .on("tool_started", TOOL_STARTED, (line, out) => this.onToolStarted(line, out))
    .on("tool_completed", TOOL_COMPLETED, (line, out) => this.onToolCompleted(line, out))
    .on("status", STATUS, (line, out) => this.onStatus(line, out))
    .on("error", ERROR, (line, out) => this.onError(line, out))
    .on("done", DONE, (line, out) => this.onDone(line, out));

  constructor(now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out);
  }

  /**
   * A fatal error with no `done` after it is how this Locus ends a failed run: the `done` it owes is made here, with
   * its exit code (1 for a recording, as protocol 1 gives a failed run). Any other stream without a `done` is left
   * to the session, which says what is missing and, for a crash, what the CLI printed on stderr.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.sawDone || !this.failed) return;
    this.sawDone = true;
    out.event(this.factory.make("done", { exitCode: ending?.exitCode ?? 1, duration: this.clock.elapsed(), success: false }));
  }

  private onStart(line: LineOf<typeof START>, out: AdapterOutput): Verdict {
    if (line.sessionId !== undefined) this.factory.sessionId = line.sessionId;
    const { command = "exec", model, provider, cwd } = line;
    // Its `timestamp` is an ISO string; events are stamped by our clock, so durations use one clock throughout.
    out.event(this.factory.make("start", { command, ...defined({ model, provider, cwd }) }));
    return undefined;
  }

  private onContent(line: LineOf<typeof CONTENT>, out: AdapterOutput): Verdict {
    if (line.content !== "") out.event(this.factory.make(line.type, { content: line.content }));
    return undefined;
  }

  private onToolStarted(line: LineOf<typeof TOOL_STARTED>, out: AdapterOutput): Verdict {
    out.event(this.factory.make("tool_started", { tool: line.tool, ...defined({ toolId: line.toolId, parameters: line.parameters }) }));
    return undefined;
  }

  private onToolCompleted(line: LineOf<typeof TOOL_COMPLETED>, out: AdapterOutput): Verdict {
    const error = line.error === "" ? undefined : line.error;
    const { toolId, duration, output, diffs } = line;
    out.event(this.factory.make("tool_completed", { tool: line.tool, ...defined({ toolId }), success: line.success, ...defined({ duration, error, output, diffs }) }));
    return undefined;
  }

  private onStatus(line: LineOf<typeof STATUS>, out: AdapterOutput): Verdict {
    out.event(this.factory.make("status", { status: line.state, ...defined({ message: line.message }) }));
    return undefined;
  }

  private onError(line: LineOf<typeof ERROR>, out: AdapterOutput): Verdict {
    const recoverable = line.retryable === true;
    if (!recoverable) this.failed = true;
    out.event(this.factory.make("error", { error: { code: codeFor(line.code, line.message), message: line.message, recoverable } }));
    return undefined;
  }

  private onDone(line: LineOf<typeof DONE>, out: AdapterOutput): Verdict {
    if (this.factory.sessionId === "" && line.sessionId !== undefined) this.factory.sessionId = line.sessionId;
    const stats = isRecord(line.stats) ? line.stats : {};
    const exitCode = firstOf(isExitCode, line.exitCode, stats.exitCode);
    const said = firstOf(isBoolean, line.success, stats.success);
    const success = !this.failed && (said ?? (exitCode ?? 0) === 0);
    const payload: { exitCode: number; duration: number; success: boolean; toolsUsed?: string[]; tokensUsed?: number } = {
      exitCode: exitCode ?? (success ? 0 : 1),
      duration: firstOf(isCount, stats.duration, stats.durationMs, line.duration) ?? this.clock.elapsed(),
      success,
    };
    const tools = toolNames(stats.tools ?? stats.toolsUsed);
    if (tools !== undefined) payload.toolsUsed = tools;
    const tokens = tokenCount(stats.tokens ?? stats.tokensUsed);
    if (tokens !== undefined) payload.tokensUsed = tokens;
    this.sawDone = true;
    out.event(this.factory.make("done", payload));
    if (line.stats !== undefined && line.stats !== null && !isRecord(line.stats)) {
      return `${wrongType("stats", "object", line.stats)}; the run's figures are not shown`;
    }
    return undefined;
  }
}

export const locusFlatDialect = defineDialect({
  name: "locus-flat",
  summary: "Locus's later releases: flat events without `protocol`/`payload`.",
  create: () => new LocusFlatAdapter(),
  recognizes: isLocusFlatValue,
});

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
      // Flagged `retryable` (or coded): Codex's bare {type, message} errors are not this Locus's.
      return typeof value.message === "string" && ("retryable" in value || "code" in value);
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

function isBoolean(value: unknown): value is boolean {
  return typeof value === "boolean";
}

/** The fields that have a value: protocol 1 leaves out what the CLI did not say, rather than writing null. */
function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], null | undefined> } {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) present[key] = value;
  return present as { [K in keyof T]?: Exclude<T[K], null | undefined> };
}
