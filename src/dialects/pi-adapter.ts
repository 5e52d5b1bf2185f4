// pi's and indusagi's `--mode json` (docs/protocols/pi-json-mode.md, indusagi-json-mode.md; what real pi runs
// print: docs/real-cli-recording.md). One event model for both: a session header, then the agent's own
// events. Each prompt is a run (agent_start … agent_end), each model call a message; pi exits 0 even when a model
// call failed, so the failure is read from the assistant message's stopReason and said at the end of the stream.
import * as z from "zod/mini";
import type { ProtocolError } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import { dollars, turnUsage, type TurnUsage } from "../protocol/usage";
import type { ToolDiff } from "../protocol/transcript";
import { defineDialect, type AdapterOutput, type DialectAdapter, type StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import { contentText, type Json, type Verdict } from "./kit/cli-line";
import { LineTable, Malformed, accepted, countOrNone, index, isCount, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch, retryMessage, usageMessage } from "./kit/run-words";
import { toolOutputText } from "./kit/tool-output";
import { piToolDiffs } from "./pi-tool-changes";

type Failure = Omit<ProtocolError, "recoverable">;

// The lines as far as they are read (pi's agent events: docs/protocols/pi-json-mode.md).
const ANY = lineSchema(z.object({}));
const HEADER = lineSchema(z.object({ id: z.string(), cwd: z.optional(z.string()), timestamp: z.optional(z.string()) }));
const RPC_RESPONSE = lineSchema(z.object({ command: z.string(), success: z.boolean(), error: z.optional(z.unknown()) }));
const MESSAGE = lineSchema(z.object({ message: z.object({ role: z.string(), timestamp: z.optional(z.unknown()) }) }));
const USER_MESSAGE = lineSchema(
  z.object({ message: z.object({ content: accepted("string or array", (v): v is string | unknown[] => typeof v === "string" || Array.isArray(v)) }) }),
);
const ASSISTANT_CONTENT = lineSchema(z.object({ message: z.object({ content: z.array(z.unknown()) }) }));
const CONTENT_BLOCK = lineSchema(z.looseObject({ type: z.string() }));
const TOOL_CALL_SHAPE = z.object({ id: z.string(), name: z.string(), arguments: z.optional(object) });
const TOOL_CALL = lineSchema(TOOL_CALL_SHAPE);
const ASSISTANT_ENDING = lineSchema(
  z.object({ message: z.object({ stopReason: z.optional(z.string()), errorMessage: z.optional(z.string()), usage: z.optional(object) }) }),
);
const UPDATE = lineSchema(z.object({ assistantMessageEvent: z.object({ type: z.string(), contentIndex: z.optional(index) }) }));
const DELTA = lineSchema(
  z.object({ assistantMessageEvent: z.object({ type: z.enum(["text_delta", "thinking_delta"]), contentIndex: z.optional(index), delta: z.string() }) }),
);
const BLOCK_END = lineSchema(
  z.object({ assistantMessageEvent: z.object({ type: z.enum(["text_end", "thinking_end"]), contentIndex: z.optional(index), content: z.optional(z.unknown()) }) }),
);
const TOOL_CALL_END = lineSchema(z.object({ assistantMessageEvent: z.object({ toolCall: TOOL_CALL_SHAPE }) }));
const TOOL_EVENT = lineSchema(z.object({ toolCallId: z.string(), toolName: z.string() }));
const TOOL_START = lineSchema(z.object({ toolCallId: z.string(), toolName: z.string(), args: z.optional(object) }));
const TOOL_END = lineSchema(z.object({ toolCallId: z.string(), toolName: z.string(), isError: z.boolean(), result: z.optional(z.unknown()) }));
const RETRY_START = lineSchema(
  z.object({ errorMessage: z.optional(z.string()), attempt: z.optional(z.unknown()), maxAttempts: z.optional(z.unknown()), delayMs: z.optional(z.unknown()) }),
);
const RETRY_END = lineSchema(z.object({ success: z.boolean(), attempt: z.optional(z.unknown()), finalError: z.optional(z.unknown()) }));
const COMPACTION_END = lineSchema(z.object({ errorMessage: z.optional(z.string()), result: z.optional(z.unknown()) }));

/** The programs that write this stream, by the dialect name a user gives. */
export type PiProgram = "pi" | "indusagi";

const TOKEN_FIELDS = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** The content blocks of the assistant message being streamed that were already shown, by contentIndex. */
interface StreamingMessage {
  readonly shown: Set<number>;
  /** A delta without a contentIndex (indusagi's document shows them): whatever it belonged to was streamed. */
  streamedWithoutIndex: boolean;
}

interface ToolCall {
  readonly tool: string;
  /** Its arguments, for the files an edit changes (pi's end of a tool does not repeat them). */
  readonly parameters: Json | undefined;
  /** Our clock when pi began running it: a card's duration is the run, not the wait for the rest of the message. */
  executionStartedAt: number | null;
}

export class PiAdapter implements DialectAdapter {
  private readonly factory: EventFactory;
  private readonly clock: Stopwatch;
  private sawHeader = false;
  private runOpen = false;
  private retryPending = false;
  private sawRunEnd = false;
  private userMessages = 0;
  private streaming: StreamingMessage | null = null;
  private readonly tools = new Map<string, ToolCall>();
  private tokens = 0;
  private cost = 0;
  /** The run's calls' figures added up (prompt tokens with the cache's), and the last call's: what the context holds. */
  private readonly counted = { input: 0, output: 0, cacheRead: 0, lastCall: 0 };
  /** The last model call failed: said when the CLI goes on (recoverable) or at the end of the stream (fatal). */
  private failure: Failure | null = null;
  /** The failure pi is retrying; if it gives up, that is what failed. */
  private retriedFailure: Failure | null = null;
  /** The CLI's own clock (the header's time, then its messages'): a replayed recording takes no time on ours. */
  private cliFirstTime: number | null = null;
  private cliLastTime: number | null = null;

  private readonly lines = new LineTable()
    .on("session", HEADER, (line, out) => this.onHeader(line, out))
    .on("response", RPC_RESPONSE, (line, out) => this.onRpcResponse(line, out))
    .on("agent_start", ANY, (_line, out) => this.onRunStart(out))
    .on("agent_end", ANY, () => this.onRunEnd())
    .on("message_start", MESSAGE, (line) => this.onMessageStart(line))
    .on("message_update", UPDATE, (line, out) => this.onMessageUpdate(line, out))
    .on("message_end", MESSAGE, (line, out) => this.onMessageEnd(line, out))
    .on("tool_execution_start", TOOL_START, (line, out) => this.onToolStart(line, out))
    // Partial output of a running tool: the card shows the call and its outcome, not its progress.
    .on("tool_execution_update", TOOL_EVENT, () => undefined)
    .on("tool_execution_end", TOOL_END, (line, out) => this.onToolEnd(line, out))
    .on("auto_retry_start", RETRY_START, (line, out) => this.onRetryStart(line, out))
    .on("auto_retry_end", RETRY_END, (line) => this.onRetryEnd(line))
    // The document's names, and the ones pi 0.73 writes.
    .onEach(["auto_compaction_start", "compaction_start"], ANY, (_line, out) => this.onCompactionStart(out))
    .onEach(["auto_compaction_end", "compaction_end"], COMPACTION_END, (line, out) => this.onCompactionEnd(line, out));
  // turn_start, turn_end, queue_update, thinking_level_changed, session_info_changed: nothing to show.

  /**
   * What a streamed assistant message says, by its event's type. start, text_start, thinking_start, toolcall_start,
   * toolcall_delta (fragments of the arguments' JSON, meaningless alone), done and error (message_end follows with
   * the whole message): nothing to show yet.
   */
  private readonly updates = new LineTable()
    .onEach(["text_delta", "thinking_delta"], DELTA, (line, out) => this.onDelta(line, out))
    .onEach(["text_end", "thinking_end"], BLOCK_END, (line, out) => this.onBlockEnd(line, out))
    .on("toolcall_end", TOOL_CALL_END, (line, out) => this.onToolCallComplete(line, out));

  constructor(
    readonly dialect: PiProgram,
    private readonly now: () => number = Date.now,
  ) {
    this.factory = new EventFactory(now);
    this.clock = new Stopwatch(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.clock.start();
    this.lines.decodeLine(value, out);
  }

  /**
   * pi writes no closing event of its own: a stream whose last run ended (agent_end, no retry pending) and a process
   * that exited 0 mean it finished, failed or not. Anything else (SIGINT exits 130 mid-run with nothing more) is left
   * for the session to explain; a failure the CLI reported is still shown first.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    const failure = this.failure;
    this.failure = null;
    const exitedCleanly = ending === null || (ending.exitCode === 0 && ending.signal === null);
    const finished = exitedCleanly && this.sawRunEnd && !this.runOpen && !this.retryPending;
    if (finished && (this.tokens > 0 || this.cost > 0)) {
      this.emitStatus(out, "usage", usageMessage({ tokens: this.tokens, cost: this.cost > 0 ? this.cost : undefined }));
    }
    // A fatal error is followed by done alone: the usage line goes before it.
    if (failure !== null) this.emitError(out, failure, false);
    if (!finished) return;
    const done = { exitCode: ending?.exitCode ?? 0, duration: this.elapsed(), success: failure === null };
    out.event(this.factory.make("done", this.tokens > 0 ? { ...done, tokensUsed: this.tokens, ...this.usage() } : done));
  }

  /**
   * The session starts here, though the header names no model (the first assistant message does): that message
   * comes only once the provider answers, seconds later with its SDK's own retries, and the panel would say
   * "starting" all that while.
   */
  private onHeader(line: LineOf<typeof HEADER>, out: AdapterOutput): Verdict {
    if (this.sawHeader) return undefined;
    this.sawHeader = true;
    this.factory.sessionId = line.id;
    const time = line.timestamp !== undefined ? Date.parse(line.timestamp) : NaN;
    if (Number.isFinite(time)) this.noteCliTime(time);
    out.event(this.factory.make("start", line.cwd !== undefined ? { command: "exec", cwd: line.cwd } : { command: "exec" }));
    return undefined;
  }

  /**
   * rpc mode (`--mode rpc`, a prompt on stdin) writes no session header: the session starts with the run. Every
   * command is answered with a `response`; a refused prompt (no model, a bad session file) is the run's failure.
   */
  private onRpcResponse(line: LineOf<typeof RPC_RESPONSE>, out: AdapterOutput): Verdict {
    if (line.success || line.command !== "prompt") return undefined;
    this.startWithoutHeader(out);
    this.sawRunEnd = true;
    this.failure = failureOf(typeof line.error === "string" && line.error !== "" ? line.error : `${this.dialect} refused the prompt and gave no reason.`);
    return undefined;
  }

  private startWithoutHeader(out: AdapterOutput): void {
    if (this.sawHeader) return;
    this.sawHeader = true;
    out.event(this.factory.make("start", { command: "exec" }));
  }

  /** A run begins: after a failed one, that failure was not the end (two prompts were given, and this is the next). */
  private onRunStart(out: AdapterOutput): Verdict {
    this.startWithoutHeader(out);
    this.runOpen = true;
    this.retryPending = false;
    const failure = this.failure;
    this.failure = null;
    if (failure !== null) this.emitError(out, failure, true);
    return undefined;
  }

  private onRunEnd(): Verdict {
    this.runOpen = false;
    this.sawRunEnd = true;
    return undefined;
  }

  private onMessageStart(line: LineOf<typeof MESSAGE>): Verdict {
    if (line.message.role === "assistant") this.streaming = { shown: new Set(), streamedWithoutIndex: false };
    return undefined;
  }

  private onMessageUpdate(line: LineOf<typeof UPDATE>, out: AdapterOutput): Verdict {
    this.streaming ??= { shown: new Set(), streamedWithoutIndex: false };
    return this.updates.decode(line.assistantMessageEvent.type, line, out);
  }

  private onDelta(line: LineOf<typeof DELTA>, out: AdapterOutput): Verdict {
    const streaming = this.streaming!;
    const event = line.assistantMessageEvent;
    if (event.contentIndex === undefined) streaming.streamedWithoutIndex = true;
    else streaming.shown.add(event.contentIndex);
    this.emitContent(out, event.type === "text_delta" ? "text" : "thinking", event.delta);
    return undefined;
  }

  /** A provider that does not stream gives the whole block here; a streamed block was shown delta by delta. */
  private onBlockEnd(line: LineOf<typeof BLOCK_END>, out: AdapterOutput): Verdict {
    const streaming = this.streaming!;
    const event = line.assistantMessageEvent;
    const index = event.contentIndex;
    if (index === undefined || streaming.shown.has(index) || typeof event.content !== "string") return undefined;
    streaming.shown.add(index);
    this.emitContent(out, event.type === "text_end" ? "text" : "thinking", event.content);
    return undefined;
  }

  /** A tool call is shown once its arguments are whole. */
  private onToolCallComplete(line: LineOf<typeof TOOL_CALL_END>, out: AdapterOutput): Verdict {
    const call = line.assistantMessageEvent.toolCall;
    if (!this.tools.has(call.id)) this.startTool(out, call.name, call.id, call.arguments);
    return undefined;
  }

  private onMessageEnd(line: LineOf<typeof MESSAGE>, out: AdapterOutput): Verdict {
    const { role, timestamp } = line.message;
    if (typeof timestamp === "number" && Number.isFinite(timestamp)) this.noteCliTime(timestamp);
    switch (role) {
      case "user":
        return this.onUserMessage(line, out);
      case "assistant":
        return this.onAssistantMessage(line, out);
      default:
        // toolResult (tool_execution_end said it), and the CLI's own kinds (bashExecution, custom, summaries).
        return undefined;
    }
  }

  /** The first prompt is the turn's own; a later one (pi takes several as arguments) is shown before its answer. */
  private onUserMessage(value: Json, out: AdapterOutput): Verdict {
    const line = USER_MESSAGE.read(value);
    if (line instanceof Malformed) return line.message;
    this.userMessages++;
    if (this.userMessages > 1) this.emitStatus(out, "prompt", userText(line.message.content));
    return undefined;
  }

  private onAssistantMessage(value: Json, out: AdapterOutput): Verdict {
    const message = readAssistantMessage(value);
    if (message instanceof Malformed) return message.message;
    const streaming = this.streaming ?? { shown: new Set(), streamedWithoutIndex: false };
    this.streaming = null;
    // Whatever was not streamed (a provider without deltas) is in the finished message.
    for (const [index, block] of message.content.entries()) {
      if (block.kind === "tool") {
        if (!this.tools.has(block.id)) this.startTool(out, block.name, block.id, block.arguments);
      } else if (block.kind !== "other" && !streaming.streamedWithoutIndex && !streaming.shown.has(index)) {
        this.emitContent(out, block.kind, block.text);
      }
    }
    this.noteUsage(message.usage);
    const errorMessage = message.errorMessage?.trim() || undefined;
    switch (message.stopReason) {
      case "error": {
        this.failure = failureOf(errorMessage ?? `The model call failed; ${this.dialect} gave no reason.`);
        break;
      }
      case "aborted":
        this.failure = {
          code: "UNKNOWN",
          message: `${this.dialect} stopped the run before the model finished${errorMessage ? ` (${errorMessage})` : ""}.`,
        };
        break;
      case "length":
        this.emitStatus(out, "truncated", "The model reached its output limit; the answer may be cut short.");
        break;
    }
    return undefined;
  }

  private onToolStart(line: LineOf<typeof TOOL_START>, out: AdapterOutput): Verdict {
    const toolId = line.toolCallId;
    if (!this.tools.has(toolId)) this.startTool(out, line.toolName, toolId, line.args);
    this.tools.get(toolId)!.executionStartedAt = this.now();
    return undefined;
  }

  private onToolEnd(line: LineOf<typeof TOOL_END>, out: AdapterOutput): Verdict {
    const toolId = line.toolCallId;
    const call = this.tools.get(toolId);
    const payload: { tool: string; toolId: string; success: boolean; duration?: number; error?: string; output?: string; diffs?: ToolDiff[] } = {
      tool: call?.tool ?? line.toolName,
      toolId,
      success: !line.isError,
    };
    const startedAt = call?.executionStartedAt ?? null;
    if (startedAt !== null) payload.duration = Math.max(0, this.now() - startedAt);
    const error = line.isError ? resultText(line.result) : undefined;
    if (error !== undefined) payload.error = error;
    const output = line.isError ? undefined : toolOutputText(isRecord(line.result) ? line.result.content : undefined);
    if (output !== undefined) payload.output = output;
    const diffs = piToolDiffs(payload.tool, call?.parameters);
    if (diffs !== undefined) payload.diffs = diffs;
    out.event(this.factory.make("tool_completed", payload));
    return undefined;
  }

  /** pi will send the request again: the failure is not the end, unless it gives up (auto_retry_end). */
  private onRetryStart(line: LineOf<typeof RETRY_START>, out: AdapterOutput): Verdict {
    const reason = line.errorMessage ?? this.failure?.message;
    this.retriedFailure = this.failure ?? (reason !== undefined ? failureOf(reason) : null);
    this.failure = null;
    this.retryPending = true;
    const attempt = countOrNone(line.attempt);
    const retry = { reason, delayMs: countOrNone(line.delayMs), attempt, maxAttempts: attempt === undefined ? undefined : countOrNone(line.maxAttempts) };
    this.emitStatus(out, "retrying", retryMessage(retry));
    return undefined;
  }

  private onRetryEnd(line: LineOf<typeof RETRY_END>): Verdict {
    this.retryPending = false;
    const retried = this.retriedFailure;
    this.retriedFailure = null;
    if (line.success) return undefined;
    const finalError = typeof line.finalError === "string" && line.finalError.trim() !== "" ? line.finalError.trim() : undefined;
    const failure = this.failure ?? retried ?? (finalError !== undefined ? failureOf(finalError) : null);
    if (failure === null) return undefined;
    const attempts = countOrNone(line.attempt);
    const gaveUp = attempts === undefined ? "gave up retrying" : `gave up after ${attempts} ${attempts === 1 ? "retry" : "retries"}`;
    this.failure = { ...failure, message: `${withFullStop(failure.message)} ${this.dialect} ${gaveUp}.` };
    return undefined;
  }

  private onCompactionStart(out: AdapterOutput): Verdict {
    this.emitStatus(out, "compacting", "Summarising the conversation to fit the model's context…");
    return undefined;
  }

  private onCompactionEnd(line: LineOf<typeof COMPACTION_END>, out: AdapterOutput): Verdict {
    if (line.errorMessage !== undefined) this.emitStatus(out, "compaction-failed", line.errorMessage);
    else if (isRecord(line.result)) this.emitStatus(out, "compacted", "The conversation was summarised to fit the model's context.");
    return undefined;
  }

  private startTool(out: AdapterOutput, tool: string, toolId: string, parameters: Json | undefined): void {
    this.tools.set(toolId, { tool, parameters, executionStartedAt: null });
    out.event(this.factory.make("tool_started", parameters === undefined ? { tool, toolId } : { tool, toolId, parameters }));
  }

  private emitContent(out: AdapterOutput, kind: "text" | "thinking", content: string): void {
    if (content === "") return;
    out.event(this.factory.make(kind === "text" ? "text_delta" : "thinking", { content }));
  }

  private emitStatus(out: AdapterOutput, status: string, message: string | undefined): void {
    out.event(this.factory.make("status", message === undefined ? { status } : { status, message }));
  }

  private emitError(out: AdapterOutput, failure: Failure, recoverable: boolean): void {
    out.event(this.factory.make("error", { error: { ...failure, recoverable } }));
  }

  /** pi reports usage per model call; the run used all of them (failed calls report none). */
  private noteUsage(usage: Json | undefined): void {
    if (usage === undefined) return;
    const total = isCount(usage.totalTokens)
      ? usage.totalTokens
      : TOKEN_FIELDS.reduce((sum, field) => sum + (countOrNone(usage[field]) ?? 0), 0);
    this.tokens += total;
    if (isRecord(usage.cost) && isCount(usage.cost.total)) this.cost += usage.cost.total;
    const count = (field: (typeof TOKEN_FIELDS)[number]) => countOrNone(usage[field]) ?? 0;
    this.counted.input += count("input") + count("cacheRead") + count("cacheWrite");
    this.counted.output += count("output");
    this.counted.cacheRead += count("cacheRead");
    if (total > 0) this.counted.lastCall = total;
  }

  /** pi names no context window in its stream: the meter shows what the context holds without a size. */
  private usage(): { usage?: TurnUsage } {
    const { input, output, cacheRead, lastCall } = this.counted;
    const usage = turnUsage({
      inputTokens: input,
      outputTokens: output,
      cacheReadTokens: cacheRead,
      cost: this.cost > 0 ? dollars(this.cost) : undefined,
      contextUsed: lastCall > 0 ? lastCall : undefined,
    });
    return usage === undefined ? {} : { usage };
  }

  private noteCliTime(time: number): void {
    this.cliFirstTime = Math.min(this.cliFirstTime ?? time, time);
    this.cliLastTime = Math.max(this.cliLastTime ?? time, time);
  }

  /** Ours, or the CLI's own clock when it says more time passed (a replayed recording takes none of ours). */
  private elapsed(): number {
    const theirs = this.cliFirstTime === null || this.cliLastTime === null ? 0 : this.cliLastTime - this.cliFirstTime;
    return Math.max(this.clock.elapsed(), theirs);
  }
}

export const piDialect = defineDialect({
  name: "pi",
  summary: "pi: `pi --mode json`.",
  create: () => new PiAdapter("pi"),
  recognizes: isPiValue,
});

/**
 * indusagi writes pi's stream exactly (the same header, `{"type":"session","version":3,…}`, naming neither program
 * nor version), so no line tells them apart: `auto` reads both as pi, which decodes them the same. Name
 * `indusagi` to have the transcript say so.
 */
export const indusagiDialect = defineDialect({
  name: "indusagi",
  summary: "indusagi: `indusagi --mode json`.",
  create: () => new PiAdapter("indusagi"),
  recognizes: () => false,
});

/** Lines of this event model and no other dialect's: the session header first, and the agent's own events. */
function isPiValue(value: Json): boolean {
  switch (value.type) {
    case "session":
      return typeof value.id === "string" && typeof value.version === "number";
    case "agent_start":
      // pi's carries nothing else. (turn_start is not claimed: agent-code writes one of its own.)
      return Object.keys(value).length === 1;
    case "agent_end":
      return Array.isArray(value.messages);
    case "message_start":
    case "message_end":
      return isRecord(value.message) && typeof value.message.role === "string";
    case "message_update":
      return isRecord(value.assistantMessageEvent);
    case "tool_execution_start":
    case "tool_execution_update":
    case "tool_execution_end":
      return typeof value.toolCallId === "string";
    default:
      return false;
  }
}

/** A finished assistant message's blocks, as far as they are shown. */
type AssistantBlock =
  | { kind: "text" | "thinking"; text: string }
  | ({ kind: "tool" } & LineOf<typeof TOOL_CALL>)
  | { kind: "other" };

interface AssistantMessage {
  content: AssistantBlock[];
  stopReason?: string;
  errorMessage?: string;
  usage?: Json;
}

/** A finished assistant message, checked block by block in order (a bad tool call is named before the fields after it). */
function readAssistantMessage(value: Json): AssistantMessage | Malformed {
  const line = ASSISTANT_CONTENT.read(value);
  if (line instanceof Malformed) return line;
  const content: AssistantBlock[] = [];
  for (const [index, item] of line.message.content.entries()) {
    const path = ["message", "content", index];
    const block = CONTENT_BLOCK.read(item, value, path);
    if (block instanceof Malformed) return block;
    if (block.type === "toolCall") {
      const call = TOOL_CALL.read(block, value, path);
      if (call instanceof Malformed) return call;
      content.push({ kind: "tool", ...call });
    } else if ((block.type === "text" || block.type === "thinking") && typeof block[block.type] === "string") {
      content.push({ kind: block.type, text: block[block.type] as string });
    } else content.push({ kind: "other" });
  }
  const ending = ASSISTANT_ENDING.read(value);
  if (ending instanceof Malformed) return ending;
  const { stopReason, errorMessage, usage } = ending.message;
  return { content, stopReason, errorMessage, usage };
}

/** A user message's words: a string, or its text blocks. */
function userText(content: string | unknown[]): string {
  if (typeof content === "string") return content;
  return content
    .flatMap((block) => (isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : []))
    .join("\n");
}

/** A failed tool's words: the text of its result (`{content: [{type: "text", text}], details}`). */
function resultText(result: unknown): string | undefined {
  const text = contentText(isRecord(result) ? result.content : undefined);
  return text.trim() === "" ? undefined : text.trim();
}

/** A failed model call as the user should read it: the CLI's words, and what they mean. */
function failureOf(text: string): Failure {
  return { code: errorCodeFor(text, leadingHttpStatus(text)), message: text };
}

/** The provider SDKs pi uses put the HTTP status first: "401 Incorrect API key provided…", "500 The server had…". */
function leadingHttpStatus(text: string): number | undefined {
  const match = /^([1-5]\d\d)\b/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
