// opencode's `opencode run --format json "<prompt>"` (test/fixtures/opencode-recorded/README.md: what real runs
// print). One line per finished part of the session, `{type, timestamp, sessionID, part}`: per model request a
// `step_start`, whole `reasoning` and `text` parts, `tool_use` parts already finished, and a `step_finish` whose
// `reason` is `tool-calls` while the run goes on. No line closes the run: the last `step_finish` is the end, and a
// failed model call is one `error` line. A run cut short stops after a `step_start`, with no `step_finish`.
import * as z from "zod/mini";
import type { ProtocolError } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { ToolDiff } from "../protocol/transcript";
import { addUsage } from "../common/usage-totals";
import { dollars, turnUsage, type TurnUsage } from "../protocol/usage";
import { defineDialect, type AdapterOutput, type DialectAdapter, type StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import type { Json, Verdict } from "./kit/cli-line";
import { LineTable, countOrNone, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch, usageMessage } from "./kit/run-words";

const PART_LINE = lineSchema(z.object({ sessionID: z.optional(z.string()), part: object }));
const TEXT_PART = lineSchema(z.object({ type: z.enum(["text", "reasoning"]), part: z.object({ text: z.string() }) }));
const TOOL_PART = lineSchema(
  z.object({
    part: z.object({
      tool: z.string(),
      callID: z.string(),
      state: z.looseObject({
        status: z.string(),
        input: z.optional(object),
        error: z.optional(z.unknown()),
        time: z.optional(z.object({ start: z.optional(z.number()), end: z.optional(z.number()) })),
      }),
    }),
  }),
);
const STEP_FINISH = lineSchema(z.object({ part: z.object({ reason: z.optional(z.string()), tokens: z.optional(z.unknown()), cost: z.optional(z.unknown()) }) }));
const ERROR = lineSchema(
  z.object({
    sessionID: z.optional(z.string()),
    error: z.looseObject({ name: z.optional(z.string()), data: z.optional(z.unknown()) }),
  }),
);

/** How the run ended, once a line said so: its `done` waits for the end of the stream, in case the run went on. */
type Ending = { kind: "running" } | { kind: "ended"; success: boolean };

export class OpencodeAdapter implements DialectAdapter {
  readonly dialect = "opencode";
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  private ending: Ending = { kind: "running" };
  private readonly totals = { tokens: undefined as number | undefined, cost: undefined as number | undefined, usage: undefined as TurnUsage | undefined };
  /** Cards shown, by call id: a tool printed again (running, then finished) opens no second card. */
  private readonly openTools = new Set<string>();
  private readonly lines = new LineTable()
    .on("step_start", PART_LINE, () => this.onStepStart())
    .onEach(["text", "reasoning"], TEXT_PART, (line, out) => this.onText(line, out))
    .on("tool_use", TOOL_PART, (line, out) => this.onTool(line, out))
    .on("step_finish", STEP_FINISH, (line, out) => this.onStepFinish(line, out))
    .on("error", ERROR, (line, out) => this.onError(line, out));

  constructor(now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out, (line) => this.ensureStarted(line, out));
  }

  /** The last step finished (or the run failed) and the stream ended: the run's `done`. */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.ending.kind !== "ended") return;
    const { success } = this.ending;
    const processExitCode = ending?.exitCode ?? 0;
    const payload = { exitCode: processExitCode !== 0 ? processExitCode : success ? 0 : 1, duration: this.clock.elapsed(), success };
    const { tokens, usage } = this.totals;
    out.event(this.factory.make("done", { ...payload, ...(tokens === undefined ? {} : { tokensUsed: tokens }), ...(usage === undefined ? {} : { usage }) }));
  }

  /** Another step after the one that looked last: the run went on. */
  private onStepStart(): Verdict {
    if (this.ending.kind === "ended" && this.ending.success) this.ending = { kind: "running" };
    return undefined;
  }

  private onText(line: LineOf<typeof TEXT_PART>, out: AdapterOutput): Verdict {
    if (line.part.text === "") return undefined;
    out.event(this.factory.make(line.type === "reasoning" ? "thinking" : "text_delta", { content: line.part.text }));
    return undefined;
  }

  /** Printed once finished (`completed` or `error`); a `pending`/`running` part, if one comes, opens the card. */
  private onTool(line: LineOf<typeof TOOL_PART>, out: AdapterOutput): Verdict {
    const { tool, callID, state } = line.part;
    if (!this.openTools.has(callID)) {
      this.openTools.add(callID);
      out.event(this.factory.make("tool_started", state.input === undefined ? { tool, toolId: callID } : { tool, toolId: callID, parameters: state.input }));
    }
    if (state.status !== "completed" && state.status !== "error") return undefined;
    this.openTools.delete(callID);
    const payload: { tool: string; toolId: string; success: boolean; duration?: number; error?: string; output?: string; diffs?: ToolDiff[] } = {
      tool,
      toolId: callID,
      success: state.status === "completed",
    };
    const { start, end } = state.time ?? {};
    if (start !== undefined && end !== undefined && end >= start) payload.duration = end - start;
    if (state.status === "error") payload.error = typeof state.error === "string" && state.error.trim() !== "" ? state.error.trim() : `${tool} failed.`;
    const details = state as Record<string, unknown>;
    if (state.status === "completed" && typeof details.output === "string" && details.output !== "") payload.output = details.output;
    const diff = editDiff(details.metadata) ?? writeDiff(tool, state.input);
    if (diff !== undefined) payload.diffs = [diff];
    out.event(this.factory.make("tool_completed", payload));
    return undefined;
  }

  private onStepFinish(line: LineOf<typeof STEP_FINISH>, out: AdapterOutput): Verdict {
    const tokens = isRecord(line.part.tokens) ? countOrNone(line.part.tokens.total) : undefined;
    const cost = countOrNone(line.part.cost);
    if (tokens !== undefined) this.totals.tokens = (this.totals.tokens ?? 0) + tokens;
    if (cost !== undefined) this.totals.cost = (this.totals.cost ?? 0) + cost;
    const step = stepUsage(isRecord(line.part.tokens) ? line.part.tokens : undefined, cost);
    if (step !== undefined) this.totals.usage = this.totals.usage === undefined ? step : addUsage(this.totals.usage, step);
    // `tool-calls`: the model called tools and the next step answers their results.
    if (line.part.reason === "tool-calls") return undefined;
    const { tokens: total, cost: spent } = this.totals;
    if ((total ?? 0) > 0 || (spent ?? 0) > 0) {
      out.event(this.factory.make("status", { status: "usage", message: usageMessage({ tokens: total && total > 0 ? total : undefined, cost: spent && spent > 0 ? spent : undefined }) }));
    }
    if (this.ending.kind === "running") this.ending = { kind: "ended", success: line.part.reason !== "error" };
    return undefined;
  }

  private onError(line: LineOf<typeof ERROR>, out: AdapterOutput): Verdict {
    out.event(this.factory.make("error", { error: opencodeError(line.error) }));
    this.ending = { kind: "ended", success: false };
    return undefined;
  }

  /** The session id is on every line; the first line, whatever it is, starts the session. */
  private ensureStarted(line: Json, out: AdapterOutput): void {
    this.factory.startOnce(out, { command: "run" }, typeof line.sessionID === "string" ? line.sessionID : undefined);
  }
}

export const opencodeDialect = defineDialect({
  name: "opencode",
  summary: "opencode: `opencode run --format json`.",
  create: () => new OpencodeAdapter(),
  recognizes: isOpencodeValue,
});

/** Every line of opencode's names its session as `sessionID` and carries a `part` (or, for `error`, an `error` object). */
function isOpencodeValue(value: Json): boolean {
  if (typeof value.sessionID !== "string") return false;
  switch (value.type) {
    case "step_start":
    case "step_finish":
    case "text":
    case "reasoning":
    case "tool_use":
      return isRecord(value.part);
    case "error":
      return isRecord(value.error);
    default:
      return false;
  }
}

/** `{name: "APIError", data: {message, statusCode, isRetryable, …}}`, or another named error with a `data.message`. */
function opencodeError(error: LineOf<typeof ERROR>["error"]): ProtocolError {
  const data = isRecord(error.data) ? error.data : {};
  const status = typeof data.statusCode === "number" ? data.statusCode : undefined;
  const words = typeof data.message === "string" && data.message.trim() !== "" ? data.message.trim() : `opencode failed (${error.name ?? "an unnamed error"}).`;
  const message = status === undefined ? words : `${words} (HTTP ${status})`;
  return { code: errorCodeFor(words, status), message, recoverable: false };
}

/**
 * A `write`'s file, from its input `{filePath, content}`; its metadata says whether the file was there before
 * (`exists`), not what it held, so an overwritten file is shown as the file written.
 */
function writeDiff(tool: string, input: Json | undefined): ToolDiff | undefined {
  if (tool !== "write" || input === undefined) return undefined;
  const { filePath, content } = input;
  return typeof filePath === "string" && typeof content === "string" ? { path: filePath, oldText: null, newText: content } : undefined;
}

/**
 * An `edit`'s change, from the unified diff opencode reports (`metadata.filediff`): the changed region's lines
 * before and after (context lines in both), which is what the chat's diff shows: an excerpt, not the whole file.
 */
function editDiff(metadata: unknown): ToolDiff | undefined {
  if (!isRecord(metadata) || !isRecord(metadata.filediff)) return undefined;
  const { file, patch } = metadata.filediff;
  if (typeof file !== "string" || typeof patch !== "string") return undefined;
  const before: string[] = [];
  const after: string[] = [];
  let inHunk = false;
  for (const line of patch.split("\n")) {
    if (line.startsWith("@@")) inHunk = true;
    else if (!inHunk || line.startsWith("\\")) continue;
    else if (line.startsWith("-")) before.push(line.slice(1));
    else if (line.startsWith("+")) after.push(line.slice(1));
    else if (line.startsWith(" ")) {
      before.push(line.slice(1));
      after.push(line.slice(1));
    }
  }
  if (!inHunk) return undefined;
  return { path: file, oldText: before.length === 0 ? "" : before.join("\n") + "\n", newText: after.length === 0 ? "" : after.join("\n") + "\n", excerpt: true };
}

/**
 * A step's figures: opencode counts the prompt's cached part apart from `input`, and its `total` is what the step
 * left in the context. A cost of 0 is a model it does not price, not a free one.
 */
function stepUsage(tokens: Json | undefined, cost: number | undefined): TurnUsage | undefined {
  if (tokens === undefined) return turnUsage({ cost: cost !== undefined && cost > 0 ? dollars(cost) : undefined });
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  const input = countOrNone(tokens.input);
  const read = countOrNone(cache.read);
  return turnUsage({
    inputTokens: input === undefined ? undefined : input + (read ?? 0) + (countOrNone(cache.write) ?? 0),
    outputTokens: countOrNone(tokens.output),
    cacheReadTokens: read,
    cost: cost !== undefined && cost > 0 ? dollars(cost) : undefined,
    contextUsed: countOrNone(tokens.total),
  });
}
