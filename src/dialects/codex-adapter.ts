// Codex's `codex exec --json "<prompt>"` (test/fixtures/codex-recorded/README.md: what real runs print). A run is
// `thread.started`, `turn.started`, items (`item.started`/`item.updated`/`item.completed`, each item whole: no text
// deltas) and `turn.completed` or `turn.failed`. An `error` *item* is a warning inside a run that goes on; a top-level
// `error` is a failed model call, "Reconnecting... 1/1 (…)" while Codex retries it, final when `turn.failed` follows.
import * as z from "zod/mini";
import type { ProtocolError } from "../protocol/events";
import { defineDialect, type AdapterOutput, type DialectAdapter } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import { isRecord } from "../protocol/json-record";
import { turnUsage, type TurnUsage } from "../protocol/usage";
import type { Json, Verdict } from "./kit/cli-line";
import { LineTable, Malformed, countOrNone, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch, retryMessage, usageMessage } from "./kit/run-words";

const THREAD_STARTED = lineSchema(z.object({ thread_id: z.string() }));
const ITEM_LINE = lineSchema(z.object({ item: z.looseObject({ id: z.string(), type: z.string() }) }));
const TEXT_ITEM = lineSchema(z.object({ text: z.string() }));
const ERROR_ITEM = lineSchema(z.object({ message: z.string() }));
const COMMAND = lineSchema(
  z.object({ command: z.string(), aggregated_output: z.optional(z.string()), exit_code: z.optional(z.nullable(z.number())), status: z.string() }),
);
const FILE_CHANGE = lineSchema(z.object({ changes: z.array(z.object({ path: z.string(), kind: z.string() })), status: z.string() }));
const MCP_CALL = lineSchema(
  z.object({
    server: z.string(),
    tool: z.string(),
    arguments: z.optional(z.unknown()),
    status: z.string(),
    error: z.optional(z.nullable(z.object({ message: z.string() }))),
  }),
);
const WEB_SEARCH = lineSchema(z.object({ query: z.string() }));
const TODO_LIST = lineSchema(z.object({ items: z.array(z.object({ text: z.string(), completed: z.boolean() })) }));
const TURN_COMPLETED = lineSchema(z.object({ usage: z.optional(object) }));
const TURN_FAILED = lineSchema(z.object({ error: z.optional(z.object({ message: z.string() })) }));
const ERROR = lineSchema(z.object({ message: z.string() }));

/**
 * "Reconnecting... 1/1 (unexpected status 401 …)": Codex tries the request again. The blanks before the reason belong
 * to the optional reason, so no run of blanks can be split between two quantifiers: linear in the line.
 */
const RECONNECTING = /^Reconnecting\.\.\.\s*(\d+)\/(\d+)(?:\s*\(([\s\S]*)\))?\s*$/;

type ItemPhase = "started" | "updated" | "completed";

/** A tool call as the transcript shows it, read from an item. */
interface ToolItem {
  tool: string;
  parameters: Json;
  /** Undefined while it runs; once it ended, whether it succeeded and why not, and what it printed. */
  outcome?: { success: boolean; error?: string; output?: string };
  /** The files a patch touches (Codex reports paths, not their text). */
  locations?: { path: string; line: null }[];
}

export class CodexAdapter implements DialectAdapter {
  readonly dialect = "codex";
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  /** Items whose card is shown, by id: a card opens once, however many times its item is started or updated. */
  private readonly openTools = new Set<string>();
  /** A text was the last thing shown: the next item's text is a new paragraph, not the same sentence. */
  private afterText = false;
  /** The last top-level error that was not a retry: the end of the run if `turn.failed` follows. */
  private heldError: ProtocolError | null = null;
  private readonly lines = new LineTable()
    .on("thread.started", THREAD_STARTED, (line, out) => this.onThreadStarted(line, out))
    .on("item.started", ITEM_LINE, (line, out) => this.onItem(line.item, "started", out))
    .on("item.updated", ITEM_LINE, (line, out) => this.onItem(line.item, "updated", out))
    .on("item.completed", ITEM_LINE, (line, out) => this.onItem(line.item, "completed", out))
    .on("turn.completed", TURN_COMPLETED, (line, out) => this.onTurnCompleted(line, out))
    .on("turn.failed", TURN_FAILED, (line, out) => this.onTurnFailed(line, out))
    .on("error", ERROR, (line, out) => this.onError(line, out));
  // turn.started carries nothing to show.

  constructor(now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out, (line) => {
      if (line.type !== "thread.started") this.ensureStarted(out);
      // Anything but the turn's failure after an error means Codex went on: the error did not end the run.
      if (line.type !== "turn.failed" && line.type !== "error") this.releaseHeldError(out);
    });
  }

  private onThreadStarted(line: LineOf<typeof THREAD_STARTED>, out: AdapterOutput): Verdict {
    this.factory.startOnce(out, { command: "exec" }, line.thread_id);
    return undefined;
  }

  private onItem(item: Json & { id: string; type: string }, phase: ItemPhase, out: AdapterOutput): Verdict {
    switch (item.type) {
      case "agent_message":
      case "reasoning":
        return phase === "completed" ? this.onText(item, out) : undefined;
      case "error": {
        // A warning (Codex's "Model metadata … not found"): the run goes on.
        const warning = ERROR_ITEM.read(item, item, ["item"]);
        if (warning instanceof Malformed) return warning.message;
        this.show(out, this.factory.make("status", { status: "warning", message: warning.message }));
        return undefined;
      }
      default: {
        const tool = toolItem(item, phase);
        if (tool === undefined) return undefined;
        if (tool instanceof Malformed) return tool.message;
        this.onToolItem(item.id, tool, out);
        return undefined;
      }
    }
  }

  private onText(item: Json, out: AdapterOutput): Verdict {
    const line = TEXT_ITEM.read(item, item, ["item"]);
    if (line instanceof Malformed) return line.message;
    if (line.text === "") return undefined;
    if (item.type === "reasoning") {
      this.show(out, this.factory.make("thinking", { content: line.text }));
      return undefined;
    }
    const content = this.afterText ? `\n\n${line.text}` : line.text;
    this.show(out, this.factory.make("text_delta", { content }));
    this.afterText = true;
    return undefined;
  }

  private onToolItem(id: string, tool: ToolItem, out: AdapterOutput): void {
    if (!this.openTools.has(id)) {
      this.openTools.add(id);
      const started = { tool: tool.tool, toolId: id, parameters: tool.parameters };
      this.show(out, this.factory.make("tool_started", tool.locations === undefined ? started : { ...started, locations: tool.locations }));
    }
    if (tool.outcome === undefined) return;
    this.openTools.delete(id);
    const { success, error, output } = tool.outcome;
    this.show(out, this.factory.make("tool_completed", { tool: tool.tool, toolId: id, success, ...(error === undefined ? {} : { error }), ...(output === undefined ? {} : { output }) }));
  }

  private onTurnCompleted(line: LineOf<typeof TURN_COMPLETED>, out: AdapterOutput): Verdict {
    const tokens = tokensIn(line.usage);
    if (tokens !== undefined && tokens > 0) this.show(out, this.factory.make("status", { status: "usage", message: usageMessage({ tokens }) }));
    this.finish(out, true, tokens, usageIn(line.usage));
    return undefined;
  }

  private onTurnFailed(line: LineOf<typeof TURN_FAILED>, out: AdapterOutput): Verdict {
    const message = line.error?.message ?? this.heldError?.message ?? "Codex ended the turn with an error.";
    this.heldError = null;
    this.show(out, this.factory.make("error", { error: codexError(message, false) }));
    this.finish(out, false, undefined);
    return undefined;
  }

  private onError(line: LineOf<typeof ERROR>, out: AdapterOutput): Verdict {
    const retry = RECONNECTING.exec(line.message);
    if (retry !== null) {
      this.releaseHeldError(out);
      const reason = retry[3]?.trim();
      this.show(out, this.factory.make("status", { status: "retrying", message: retryMessage({ reason, attempt: Number(retry[1]), maxAttempts: Number(retry[2]) }) }));
      return undefined;
    }
    this.releaseHeldError(out);
    this.heldError = codexError(line.message, false);
    return undefined;
  }

  /** A held error the CLI went on after: shown, as one it recovered from. */
  private releaseHeldError(out: AdapterOutput): void {
    const error = this.heldError;
    if (error === null) return;
    this.heldError = null;
    this.show(out, this.factory.make("error", { error: { ...error, recoverable: true } }));
  }

  private finish(out: AdapterOutput, success: boolean, tokens: number | undefined, usage?: TurnUsage): void {
    const payload = { exitCode: success ? 0 : 1, duration: this.clock.elapsed(), success };
    out.event(this.factory.make("done", { ...payload, ...(tokens === undefined ? {} : { tokensUsed: tokens }), ...(usage === undefined ? {} : { usage }) }));
  }

  private show(out: AdapterOutput, event: Parameters<AdapterOutput["event"]>[0]): void {
    if (event.type !== "text_delta" && event.type !== "status") this.afterText = false;
    out.event(event);
  }

  private ensureStarted(out: AdapterOutput): void {
    this.factory.startOnce(out, { command: "exec" });
  }
}

export const codexDialect = defineDialect({
  name: "codex",
  summary: "Codex: `codex exec --json`.",
  create: () => new CodexAdapter(),
  recognizes: isCodexValue,
});

/** Codex's dotted event names; its bare top-level `error` ({type, message}) is left unclaimed, as too plain to tell. */
function isCodexValue(value: Json): boolean {
  switch (value.type) {
    case "thread.started":
      return typeof value.thread_id === "string";
    case "turn.started":
      return Object.keys(value).length === 1;
    case "turn.completed":
      return isRecord(value.usage);
    case "turn.failed":
      return isRecord(value.error);
    case "item.started":
    case "item.updated":
    case "item.completed":
      return isRecord(value.item) && typeof value.item.id === "string" && typeof value.item.type === "string";
    default:
      return false;
  }
}

/** What a patch card says in place of the diff Codex's exec stream does not carry. */
const NO_PATCH_TEXT =
  "Codex's exec stream names the files a patch changed and how (add, update, delete), not the change itself: no diff to show here. Open the file to see it, or run Codex over ACP (profile codex), which sends its diffs.";

/**
 * The tool card an item is: undefined for a kind of item that is not a tool, or what is wrong with it. Item
 * statuses are `in_progress`, `completed`, `failed` (and `declined` for a command the sandbox refused).
 */
function toolItem(item: Json, phase: ItemPhase): ToolItem | Malformed | undefined {
  const path = ["item"];
  switch (item.type) {
    case "command_execution": {
      const line = COMMAND.read(item, item, path);
      if (line instanceof Malformed) return line;
      const ended = line.status !== "in_progress";
      const failed = line.status !== "completed" || (line.exit_code ?? 0) !== 0;
      const why = line.aggregated_output?.trim() || (typeof line.exit_code === "number" ? `The command exited with code ${line.exit_code}.` : `The command ended ${line.status}.`);
      const output = line.aggregated_output ? { output: line.aggregated_output } : {};
      return { tool: "shell", parameters: { command: line.command }, outcome: ended ? (failed ? { success: false, error: why, ...output } : { success: true, ...output }) : undefined };
    }
    case "file_change": {
      const line = FILE_CHANGE.read(item, item, path);
      if (line instanceof Malformed) return line;
      // `exec --json` names the files and the kind of change only: the card says why it shows no diff.
      const outcome =
        line.status === "in_progress" ? undefined : line.status === "completed" ? { success: true, output: NO_PATCH_TEXT } : { success: false, error: `The patch was not applied (${line.status}).` };
      const locations = line.changes.map((change) => ({ path: change.path, line: null }));
      return { tool: "apply_patch", parameters: { changes: line.changes }, outcome, locations };
    }
    case "mcp_tool_call": {
      const line = MCP_CALL.read(item, item, path);
      if (line instanceof Malformed) return line;
      const parameters = isRecord(line.arguments) ? line.arguments : {};
      const outcome = line.status === "in_progress" ? undefined : line.status === "completed" ? { success: true } : { success: false, error: line.error?.message ?? `The tool call ${line.status}.` };
      return { tool: `${line.server}.${line.tool}`, parameters, outcome };
    }
    case "web_search": {
      const line = WEB_SEARCH.read(item, item, path);
      if (line instanceof Malformed) return line;
      return { tool: "web_search", parameters: { query: line.query }, outcome: phase === "completed" ? { success: true } : undefined };
    }
    case "todo_list": {
      const line = TODO_LIST.read(item, item, path);
      if (line instanceof Malformed) return line;
      // The plan is updated in place (item.updated) and completed with the turn: one card, done when its item is.
      return { tool: "todo_list", parameters: { items: line.items }, outcome: phase === "completed" ? { success: true } : undefined };
    }
    default:
      return undefined;
  }
}

/** What a failed call's words mean: Codex names the HTTP status ("unexpected status 401 …", "last status: 429 …"). */
function codexError(message: string, recoverable: boolean): ProtocolError {
  const status = /\bstatus:? (\d{3})\b/.exec(message)?.[1];
  return { code: errorCodeFor(message, status === undefined ? undefined : Number(status)), message, recoverable };
}

/** Codex counts its cached input inside `input_tokens`, and says neither a cost nor its context window. */
function usageIn(usage: Json | undefined): TurnUsage | undefined {
  if (usage === undefined) return undefined;
  return turnUsage({ inputTokens: countOrNone(usage.input_tokens), outputTokens: countOrNone(usage.output_tokens), cacheReadTokens: countOrNone(usage.cached_input_tokens) });
}

/** Input and output tokens: Codex's cached and reasoning counts are parts of these, not more. */
function tokensIn(usage: Json | undefined): number | undefined {
  if (usage === undefined) return undefined;
  const input = countOrNone(usage.input_tokens);
  const output = countOrNone(usage.output_tokens);
  return input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0);
}
