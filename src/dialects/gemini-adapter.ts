// Gemini CLI's `gemini -p "<prompt>" --output-format stream-json` (test/fixtures/gemini-recorded/README.md: what real
// runs print). One flat JSON object per line: `init`, the prompt as a `user` message, the answer as `assistant`
// message deltas, `tool_use`/`tool_result` pairs, and one `result` at the end. Thoughts never reach this stream.
// A run cut short (SIGINT, SIGTERM) exits 0 with no `result`: only the missing `result` tells it from a finished one.
import * as z from "zod/mini";
import type { ProtocolError } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { ToolDiff } from "../protocol/transcript";
import { turnUsage } from "../protocol/usage";
import { defineDialect, type AdapterOutput, type DialectAdapter } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import type { Json, Verdict } from "./kit/cli-line";
import { inputDiffs } from "./kit/file-edits";
import { LineTable, countOrNone, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch, usageMessage } from "./kit/run-words";

const INIT = lineSchema(z.object({ session_id: z.optional(z.string()), model: z.optional(z.string()) }));
const MESSAGE = lineSchema(z.object({ role: z.string(), content: z.string() }));
const TOOL_USE = lineSchema(z.object({ tool_name: z.string(), tool_id: z.string(), parameters: z.optional(object), timestamp: z.optional(z.string()) }));
const TOOL_RESULT = lineSchema(
  z.object({
    tool_id: z.string(),
    status: z.string(),
    output: z.optional(z.unknown()),
    error: z.optional(z.object({ type: z.optional(z.string()), message: z.optional(z.string()) })),
    timestamp: z.optional(z.string()),
  }),
);
const RESULT = lineSchema(
  z.object({
    status: z.string(),
    error: z.optional(z.object({ type: z.optional(z.string()), message: z.optional(z.string()) })),
    stats: z.optional(z.unknown()),
  }),
);

/** A running tool: its name for its result, and when it started by the CLI's clock (for its duration). */
interface RunningTool {
  readonly tool: string;
  readonly startedAt: number | undefined;
  /** What an edit or write proposes, from its parameters: its result says nothing of the file. */
  readonly diffs: ToolDiff[] | undefined;
}

/** Gemini CLI's tools that change a file: `replace {file_path, old_string, new_string}`, `write_file {file_path, content}`. */
const FILE_TOOLS: Readonly<Record<string, "edit" | "write">> = { replace: "edit", edit: "edit", write_file: "write" };

export class GeminiAdapter implements DialectAdapter {
  readonly dialect = "gemini";
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  private readonly tools = new Map<string, RunningTool>();
  private readonly lines = new LineTable()
    .on("init", INIT, (line, out) => this.onInit(line, out))
    .on("message", MESSAGE, (line, out) => this.onMessage(line, out))
    .on("tool_use", TOOL_USE, (line, out) => this.onToolUse(line, out))
    .on("tool_result", TOOL_RESULT, (line, out) => this.onToolResult(line, out))
    .on("result", RESULT, (line, out) => this.onResult(line, out));

  constructor(now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out, (line) => {
      if (line.type !== "init") this.ensureStarted(out);
    });
  }

  private onInit(line: LineOf<typeof INIT>, out: AdapterOutput): Verdict {
    this.factory.startOnce(out, line.model === undefined ? { command: "exec" } : { command: "exec", model: line.model }, line.session_id);
    return undefined;
  }

  /** The prompt comes back as a `user` message: the user's own words, nothing new to show. */
  private onMessage(line: LineOf<typeof MESSAGE>, out: AdapterOutput): Verdict {
    if (line.role === "assistant" && line.content !== "") out.event(this.factory.make("text_delta", { content: line.content }));
    return undefined;
  }

  private onToolUse(line: LineOf<typeof TOOL_USE>, out: AdapterOutput): Verdict {
    const kind = Object.hasOwn(FILE_TOOLS, line.tool_name) ? FILE_TOOLS[line.tool_name] : undefined;
    this.tools.set(line.tool_id, { tool: line.tool_name, startedAt: timeOf(line.timestamp), diffs: kind === undefined ? undefined : inputDiffs(kind, line.parameters) });
    const payload = { tool: line.tool_name, toolId: line.tool_id };
    out.event(this.factory.make("tool_started", line.parameters === undefined ? payload : { ...payload, parameters: line.parameters }));
    return undefined;
  }

  /** `status` is `success` or `error`; a failed tool says why in `error.message` (and briefly in `output`). */
  private onToolResult(line: LineOf<typeof TOOL_RESULT>, out: AdapterOutput): Verdict {
    const running = this.tools.get(line.tool_id);
    this.tools.delete(line.tool_id);
    const success = line.status === "success";
    const payload: { tool: string; toolId: string; success: boolean; duration?: number; error?: string; output?: string; diffs?: ToolDiff[] } = {
      tool: running?.tool ?? toolNameOf(line.tool_id),
      toolId: line.tool_id,
      success,
    };
    const endedAt = timeOf(line.timestamp);
    if (running?.startedAt !== undefined && endedAt !== undefined && endedAt >= running.startedAt) payload.duration = endedAt - running.startedAt;
    const why = line.error?.message ?? (typeof line.output === "string" ? line.output : "");
    if (!success && why.trim() !== "") payload.error = why.trim();
    // What the tool printed (a shell command's output); Gemini sends "" for a read and nothing for an edit.
    if (success && typeof line.output === "string" && line.output !== "") payload.output = line.output;
    if (running?.diffs !== undefined) payload.diffs = running.diffs;
    out.event(this.factory.make("tool_completed", payload));
    return undefined;
  }

  private onResult(line: LineOf<typeof RESULT>, out: AdapterOutput): Verdict {
    const stats = isRecord(line.stats) ? line.stats : {};
    const tokens = countOrNone(stats.total_tokens);
    if (tokens !== undefined && tokens > 0) out.event(this.factory.make("status", { status: "usage", message: usageMessage({ tokens }) }));
    const success = line.status === "success";
    if (!success) out.event(this.factory.make("error", { error: resultError(line) }));
    const duration = countOrNone(stats.duration_ms) ?? this.clock.elapsed();
    // The CLI's exit code for a failed run varies (145 for a 401, 244 for a 500); a recording knows none.
    const payload = { exitCode: success ? 0 : 1, duration, success };
    // Gemini's `input_tokens` counts the cached part (`cached`) too; its stream says no cost and no context window.
    const usage = turnUsage({ inputTokens: countOrNone(stats.input_tokens), outputTokens: countOrNone(stats.output_tokens), cacheReadTokens: countOrNone(stats.cached) });
    out.event(this.factory.make("done", { ...payload, ...(tokens === undefined ? {} : { tokensUsed: tokens }), ...(usage === undefined ? {} : { usage }) }));
    return undefined;
  }

  /** A stream that does not begin with `init` (cut at the front) still gets a start. */
  private ensureStarted(out: AdapterOutput): void {
    this.factory.startOnce(out, { command: "exec" });
  }
}

export const geminiDialect = defineDialect({
  name: "gemini",
  summary: "Gemini CLI: `gemini -p --output-format stream-json`.",
  create: () => new GeminiAdapter(),
  recognizes: isGeminiValue,
});

/** Lines only Gemini CLI writes: flat, with snake_case ids (`session_id`, `tool_id`) and its own event names. */
function isGeminiValue(value: Json): boolean {
  if ("protocol" in value || "payload" in value) return false;
  switch (value.type) {
    case "init":
      return typeof value.session_id === "string" && typeof value.model === "string";
    case "message":
      return typeof value.role === "string" && typeof value.content === "string";
    case "tool_use":
      return typeof value.tool_name === "string" && typeof value.tool_id === "string";
    case "tool_result":
      return typeof value.tool_id === "string" && typeof value.status === "string";
    case "result":
      return typeof value.status === "string" && !("subtype" in value);
    default:
      return false;
  }
}

/**
 * A failed run's `error.message` is "[API Error: <the API's JSON error body>]": its `error.message` is the words to
 * show and its `code` the HTTP status that says what the failure means.
 */
function resultError(line: LineOf<typeof RESULT>): ProtocolError {
  const raw = line.error?.message?.trim() || `Gemini CLI ended the run with an error (${line.error?.type ?? line.status}).`;
  const api = apiErrorIn(raw);
  const message = api === undefined ? raw : `${api.message}${api.code === undefined ? "" : ` (HTTP ${api.code}${api.status === undefined ? "" : `, ${api.status}`})`}`;
  return { code: errorCodeFor(raw, api?.code), message, recoverable: false };
}

function apiErrorIn(text: string): { message: string; code: number | undefined; status: string | undefined } | undefined {
  const body = /^\[API Error: ([\s\S]*)\]$/.exec(text)?.[1];
  if (body === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { message: body, code: undefined, status: undefined };
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  if (error === undefined || typeof error.message !== "string") return { message: body, code: undefined, status: undefined };
  return { message: error.message, code: typeof error.code === "number" ? error.code : undefined, status: typeof error.status === "string" ? error.status : undefined };
}

/** The CLI's ISO timestamp in milliseconds, or undefined when it gives none that parses. */
function timeOf(timestamp: string | undefined): number | undefined {
  if (timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The CLI makes tool ids up as `<name>__<name>_<epoch ms>_<n>`: the name, for a result whose use was not seen. */
function toolNameOf(toolId: string): string {
  return toolId.split("__")[0] || "tool";
}
