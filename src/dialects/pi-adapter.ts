// pi's and indusagi's `--mode json` (../shared/protocols/pi-json-mode.md, indusagi-json-mode.md; what real pi runs
// print: ../shared/docs/real-cli-recording.md). One event model for both: a session header, then the agent's own
// events. Each prompt is a run (agent_start … agent_end), each model call a message; pi exits 0 even when a model
// call failed, so the failure is read from the assistant message's stopReason and said at the end of the stream.
import { typeName } from "../protocol/describe-issue";
import type { ProtocolError } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { AdapterOutput, DialectAdapter, DialectDefinition, StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";

type Json = Record<string, unknown>;
/** What a decoder of one kind of line returns: nothing, or what is wrong with the line (a field named). */
type Verdict = string | undefined;
type Failure = Omit<ProtocolError, "recoverable">;

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
  /** Our clock when pi began running it: a card's duration is the run, not the wait for the rest of the message. */
  executionStartedAt: number | null;
}

export class PiAdapter implements DialectAdapter {
  private readonly factory: EventFactory;
  private firstValueAt: number | null = null;
  private sawHeader = false;
  private runOpen = false;
  private retryPending = false;
  private sawRunEnd = false;
  private userMessages = 0;
  private streaming: StreamingMessage | null = null;
  private readonly tools = new Map<string, ToolCall>();
  private tokens = 0;
  private cost = 0;
  /** The last model call failed: said when the CLI goes on (recoverable) or at the end of the stream (fatal). */
  private failure: Failure | null = null;
  /** The failure pi is retrying; if it gives up, that is what failed. */
  private retriedFailure: Failure | null = null;
  /** The CLI's own clock (the header's time, then its messages'): a replayed recording takes no time on ours. */
  private cliFirstTime: number | null = null;
  private cliLastTime: number | null = null;

  constructor(
    readonly dialect: PiProgram,
    private readonly now: () => number = Date.now,
  ) {
    this.factory = new EventFactory(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.firstValueAt ??= this.now();
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
   * pi writes no closing event of its own: a stream whose last run ended (agent_end, no retry pending) and a process
   * that exited 0 mean it finished, failed or not. Anything else (SIGINT exits 130 mid-run with nothing more) is left
   * for the session to explain; a failure the CLI reported is still shown first.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    const failure = this.failure;
    this.failure = null;
    const exitedCleanly = ending === null || (ending.exitCode === 0 && ending.signal === null);
    const finished = exitedCleanly && this.sawRunEnd && !this.runOpen && !this.retryPending;
    if (finished && (this.tokens > 0 || this.cost > 0)) this.emitStatus(out, "usage", usageMessage(this.tokens, this.cost));
    // A fatal error is followed by done alone: the usage line goes before it.
    if (failure !== null) this.emitError(out, failure, false);
    if (!finished) return;
    const done = { exitCode: ending?.exitCode ?? 0, duration: this.elapsed(), success: failure === null };
    out.event(this.factory.make("done", this.tokens > 0 ? { ...done, tokensUsed: this.tokens } : done));
  }

  private decodeRecord(type: string, value: Json, out: AdapterOutput): Verdict {
    switch (type) {
      case "session":
        return this.onHeader(value, out);
      case "response":
        return this.onRpcResponse(value, out);
      case "agent_start":
        this.onRunStart(out);
        return undefined;
      case "agent_end":
        this.runOpen = false;
        this.sawRunEnd = true;
        return undefined;
      case "message_start":
        return this.onMessageStart(value);
      case "message_update":
        return this.onMessageUpdate(value, out);
      case "message_end":
        return this.onMessageEnd(value, out);
      case "tool_execution_start":
        return this.onToolStart(value, out);
      case "tool_execution_update":
        // Partial output of a running tool: the card shows the call and its outcome, not its progress.
        return checkToolEvent(value);
      case "tool_execution_end":
        return this.onToolEnd(value, out);
      case "auto_retry_start":
        return this.onRetryStart(value, out);
      case "auto_retry_end":
        return this.onRetryEnd(value);
      // The document's names, and the ones pi 0.73 writes.
      case "auto_compaction_start":
      case "compaction_start":
        this.emitStatus(out, "compacting", "Summarising the conversation to fit the model's context…");
        return undefined;
      case "auto_compaction_end":
      case "compaction_end":
        return this.onCompactionEnd(value, out);
      default:
        // turn_start, turn_end, queue_update, thinking_level_changed, session_info_changed: nothing to show.
        return undefined;
    }
  }

  /**
   * The session starts here, though the header names no model (the first assistant message does): that message
   * comes only once the provider answers, seconds later with its SDK's own retries, and the panel would say
   * "starting" all that while.
   */
  private onHeader(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.id !== "string") return wrongType("id", "string", value.id);
    if (value.cwd !== undefined && typeof value.cwd !== "string") return wrongType("cwd", "string", value.cwd);
    if (value.timestamp !== undefined && typeof value.timestamp !== "string") return wrongType("timestamp", "string", value.timestamp);
    if (this.sawHeader) return undefined;
    this.sawHeader = true;
    this.factory.sessionId = value.id;
    const time = typeof value.timestamp === "string" ? Date.parse(value.timestamp) : NaN;
    if (Number.isFinite(time)) this.noteCliTime(time);
    out.event(this.factory.make("start", typeof value.cwd === "string" ? { command: "exec", cwd: value.cwd } : { command: "exec" }));
    return undefined;
  }

  /**
   * rpc mode (`--mode rpc`, a prompt on stdin) writes no session header: the session starts with the run. Every
   * command is answered with a `response`; a refused prompt (no model, a bad session file) is the run's failure.
   */
  private onRpcResponse(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.command !== "string") return wrongType("command", "string", value.command);
    if (typeof value.success !== "boolean") return wrongType("success", "boolean", value.success);
    if (value.success || value.command !== "prompt") return undefined;
    this.startWithoutHeader(out);
    this.sawRunEnd = true;
    this.failure = failureOf(typeof value.error === "string" && value.error !== "" ? value.error : `${this.dialect} refused the prompt and gave no reason.`);
    return undefined;
  }

  private startWithoutHeader(out: AdapterOutput): void {
    if (this.sawHeader) return;
    this.sawHeader = true;
    out.event(this.factory.make("start", { command: "exec" }));
  }

  /** A run begins: after a failed one, that failure was not the end (two prompts were given, and this is the next). */
  private onRunStart(out: AdapterOutput): void {
    this.startWithoutHeader(out);
    this.runOpen = true;
    this.retryPending = false;
    const failure = this.failure;
    this.failure = null;
    if (failure !== null) this.emitError(out, failure, true);
  }

  private onMessageStart(value: Json): Verdict {
    const message = value.message;
    if (!isRecord(message)) return wrongType("message", "object", message);
    if (typeof message.role !== "string") return wrongType("message.role", "string", message.role);
    if (message.role === "assistant") this.streaming = { shown: new Set(), streamedWithoutIndex: false };
    return undefined;
  }

  private onMessageUpdate(value: Json, out: AdapterOutput): Verdict {
    const event = value.assistantMessageEvent;
    if (!isRecord(event)) return wrongType("assistantMessageEvent", "object", event);
    if (typeof event.type !== "string") return wrongType("assistantMessageEvent.type", "string", event.type);
    const index = event.contentIndex;
    if (index !== undefined && !isIndex(index)) return wrongType("assistantMessageEvent.contentIndex", "non-negative integer", index);
    const streaming = (this.streaming ??= { shown: new Set(), streamedWithoutIndex: false });
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
        if (typeof event.delta !== "string") return wrongType("assistantMessageEvent.delta", "string", event.delta);
        if (index === undefined) streaming.streamedWithoutIndex = true;
        else streaming.shown.add(index);
        this.emitContent(out, event.type === "text_delta" ? "text" : "thinking", event.delta);
        return undefined;
      case "text_end":
      case "thinking_end":
        // A provider that does not stream gives the whole block here; a streamed block was shown delta by delta.
        if (index === undefined || streaming.shown.has(index) || typeof event.content !== "string") return undefined;
        streaming.shown.add(index);
        this.emitContent(out, event.type === "text_end" ? "text" : "thinking", event.content);
        return undefined;
      case "toolcall_end":
        return this.onToolCallComplete(event.toolCall, out);
      default:
        // start, text_start, thinking_start, toolcall_start, toolcall_delta (fragments of the arguments' JSON,
        // meaningless alone), done and error (message_end follows with the whole message): nothing to show yet.
        return undefined;
    }
  }

  /** A tool call is shown once its arguments are whole. */
  private onToolCallComplete(toolCall: unknown, out: AdapterOutput): Verdict {
    const call = readToolCall(toolCall, "assistantMessageEvent.toolCall");
    if (typeof call === "string") return call;
    if (!this.tools.has(call.id)) this.startTool(out, call.name, call.id, call.arguments);
    return undefined;
  }

  private onMessageEnd(value: Json, out: AdapterOutput): Verdict {
    const message = value.message;
    if (!isRecord(message)) return wrongType("message", "object", message);
    if (typeof message.role !== "string") return wrongType("message.role", "string", message.role);
    if (typeof message.timestamp === "number" && Number.isFinite(message.timestamp)) this.noteCliTime(message.timestamp);
    switch (message.role) {
      case "user":
        return this.onUserMessage(message, out);
      case "assistant":
        return this.onAssistantMessage(message, out);
      default:
        // toolResult (tool_execution_end said it), and the CLI's own kinds (bashExecution, custom, summaries).
        return undefined;
    }
  }

  /** The first prompt is the turn's own; a later one (pi takes several as arguments) is shown before its answer. */
  private onUserMessage(message: Json, out: AdapterOutput): Verdict {
    const text = userText(message.content);
    if (text === undefined) return wrongType("message.content", "string or array", message.content);
    this.userMessages++;
    if (this.userMessages > 1) this.emitStatus(out, "prompt", text);
    return undefined;
  }

  private onAssistantMessage(message: Json, out: AdapterOutput): Verdict {
    const verdict = checkAssistantMessage(message);
    if (verdict !== undefined) return verdict;
    const streaming = this.streaming ?? { shown: new Set(), streamedWithoutIndex: false };
    this.streaming = null;
    // Whatever was not streamed (a provider without deltas) is in the finished message.
    for (const [index, block] of (message.content as Json[]).entries()) {
      if (block.type === "toolCall") {
        const call = readToolCall(block, `message.content[${index}]`);
        if (typeof call !== "string" && !this.tools.has(call.id)) this.startTool(out, call.name, call.id, call.arguments);
      } else if (!streaming.streamedWithoutIndex && !streaming.shown.has(index)) {
        if (block.type === "text" && typeof block.text === "string") this.emitContent(out, "text", block.text);
        if (block.type === "thinking" && typeof block.thinking === "string") this.emitContent(out, "thinking", block.thinking);
      }
    }
    this.noteUsage(message.usage);
    const errorMessage = typeof message.errorMessage === "string" && message.errorMessage.trim() !== "" ? message.errorMessage.trim() : undefined;
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

  private onToolStart(value: Json, out: AdapterOutput): Verdict {
    const verdict = checkToolEvent(value);
    if (verdict !== undefined) return verdict;
    if (value.args !== undefined && !isRecord(value.args)) return wrongType("args", "object", value.args);
    const toolId = value.toolCallId as string;
    if (!this.tools.has(toolId)) this.startTool(out, value.toolName as string, toolId, value.args as Json | undefined);
    this.tools.get(toolId)!.executionStartedAt = this.now();
    return undefined;
  }

  private onToolEnd(value: Json, out: AdapterOutput): Verdict {
    const verdict = checkToolEvent(value);
    if (verdict !== undefined) return verdict;
    if (typeof value.isError !== "boolean") return wrongType("isError", "boolean", value.isError);
    const toolId = value.toolCallId as string;
    const call = this.tools.get(toolId);
    const payload: { tool: string; toolId: string; success: boolean; duration?: number; error?: string } = {
      tool: call?.tool ?? (value.toolName as string),
      toolId,
      success: !value.isError,
    };
    const startedAt = call?.executionStartedAt ?? null;
    if (startedAt !== null) payload.duration = Math.max(0, this.now() - startedAt);
    const error = value.isError ? resultText(value.result) : undefined;
    if (error !== undefined) payload.error = error;
    out.event(this.factory.make("tool_completed", payload));
    return undefined;
  }

  /** pi will send the request again: the failure is not the end, unless it gives up (auto_retry_end). */
  private onRetryStart(value: Json, out: AdapterOutput): Verdict {
    if (value.errorMessage !== undefined && typeof value.errorMessage !== "string") return wrongType("errorMessage", "string", value.errorMessage);
    const reason = typeof value.errorMessage === "string" ? value.errorMessage : this.failure?.message;
    this.retriedFailure = this.failure ?? (reason !== undefined ? failureOf(reason) : null);
    this.failure = null;
    this.retryPending = true;
    this.emitStatus(out, "retrying", retryMessage(value, reason));
    return undefined;
  }

  private onRetryEnd(value: Json): Verdict {
    if (typeof value.success !== "boolean") return wrongType("success", "boolean", value.success);
    this.retryPending = false;
    const retried = this.retriedFailure;
    this.retriedFailure = null;
    if (value.success) return undefined;
    const finalError = typeof value.finalError === "string" && value.finalError.trim() !== "" ? value.finalError.trim() : undefined;
    const failure = this.failure ?? retried ?? (finalError !== undefined ? failureOf(finalError) : null);
    if (failure === null) return undefined;
    const attempts = isCount(value.attempt) ? value.attempt : undefined;
    const gaveUp = attempts === undefined ? "gave up retrying" : `gave up after ${attempts} ${attempts === 1 ? "retry" : "retries"}`;
    this.failure = { ...failure, message: `${withFullStop(failure.message)} ${this.dialect} ${gaveUp}.` };
    return undefined;
  }

  private onCompactionEnd(value: Json, out: AdapterOutput): Verdict {
    if (value.errorMessage !== undefined && typeof value.errorMessage !== "string") return wrongType("errorMessage", "string", value.errorMessage);
    if (typeof value.errorMessage === "string") this.emitStatus(out, "compaction-failed", value.errorMessage);
    else if (isRecord(value.result)) this.emitStatus(out, "compacted", "The conversation was summarised to fit the model's context.");
    return undefined;
  }

  private startTool(out: AdapterOutput, tool: string, toolId: string, parameters: Json | undefined): void {
    this.tools.set(toolId, { tool, executionStartedAt: null });
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
  private noteUsage(usage: unknown): void {
    if (!isRecord(usage)) return;
    const total = isCount(usage.totalTokens)
      ? usage.totalTokens
      : TOKEN_FIELDS.reduce((sum, field) => sum + (isCount(usage[field]) ? usage[field] : 0), 0);
    this.tokens += total;
    if (isRecord(usage.cost) && isCount(usage.cost.total)) this.cost += usage.cost.total;
  }

  private noteCliTime(time: number): void {
    this.cliFirstTime = Math.min(this.cliFirstTime ?? time, time);
    this.cliLastTime = Math.max(this.cliLastTime ?? time, time);
  }

  private elapsed(): number {
    const ours = this.firstValueAt === null ? 0 : this.now() - this.firstValueAt;
    const theirs = this.cliFirstTime === null || this.cliLastTime === null ? 0 : this.cliLastTime - this.cliFirstTime;
    return Math.max(0, ours, theirs);
  }
}

export const piDialect: DialectDefinition = {
  name: "pi",
  create: () => new PiAdapter("pi"),
  recognizes: isPiValue,
};

/**
 * indusagi writes pi's stream exactly (the same header, `{"type":"session","version":3,…}`, naming neither program
 * nor version), so no line tells them apart: `auto` reads both as pi, which decodes them the same. Name
 * `indusagi` to have the transcript say so.
 */
export const indusagiDialect: DialectDefinition = {
  name: "indusagi",
  create: () => new PiAdapter("indusagi"),
  recognizes: () => false,
};

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

function checkAssistantMessage(message: Json): Verdict {
  if (!Array.isArray(message.content)) return wrongType("message.content", "array", message.content);
  for (const [index, block] of message.content.entries()) {
    if (!isRecord(block)) return wrongType(`message.content[${index}]`, "object", block);
    if (typeof block.type !== "string") return wrongType(`message.content[${index}].type`, "string", block.type);
    if (block.type === "toolCall") {
      const call = readToolCall(block, `message.content[${index}]`);
      if (typeof call === "string") return call;
    }
  }
  if (message.stopReason !== undefined && typeof message.stopReason !== "string") return wrongType("message.stopReason", "string", message.stopReason);
  if (message.errorMessage !== undefined && typeof message.errorMessage !== "string") return wrongType("message.errorMessage", "string", message.errorMessage);
  if (message.usage !== undefined && !isRecord(message.usage)) return wrongType("message.usage", "object", message.usage);
  return undefined;
}

function checkToolEvent(value: Json): Verdict {
  if (typeof value.toolCallId !== "string") return wrongType("toolCallId", "string", value.toolCallId);
  if (typeof value.toolName !== "string") return wrongType("toolName", "string", value.toolName);
  return undefined;
}

/** `{type: "toolCall", id, name, arguments}`, or what is wrong with it. */
function readToolCall(value: unknown, path: string): { id: string; name: string; arguments: Json | undefined } | string {
  if (!isRecord(value)) return wrongType(path, "object", value);
  if (typeof value.id !== "string") return wrongType(`${path}.id`, "string", value.id);
  if (typeof value.name !== "string") return wrongType(`${path}.name`, "string", value.name);
  if (value.arguments !== undefined && !isRecord(value.arguments)) return wrongType(`${path}.arguments`, "object", value.arguments);
  return { id: value.id, name: value.name, arguments: value.arguments };
}

/** A user message's words: a string, or its text blocks. */
function userText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .flatMap((block) => (isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : []))
    .join("\n");
}

/** A failed tool's words: the text of its result (`{content: [{type: "text", text}], details}`). */
function resultText(result: unknown): string | undefined {
  const content = isRecord(result) ? result.content : undefined;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.flatMap((block) => (isRecord(block) && typeof block.text === "string" ? [block.text] : [])).join("\n")
        : "";
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

function retryMessage(value: Json, reason: string | undefined): string {
  const delay = isCount(value.delayMs) ? ` in ${(value.delayMs / 1000).toFixed(1)} s` : "";
  const attempt = !isCount(value.attempt)
    ? ""
    : isCount(value.maxAttempts)
      ? ` (attempt ${value.attempt} of ${value.maxAttempts})`
      : ` (attempt ${value.attempt})`;
  return `The model request failed${reason !== undefined ? ` (${reason.replace(/\.$/, "")})` : ""}; retrying${delay}${attempt}.`;
}

function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function usageMessage(tokens: number, cost: number): string {
  const parts = [`${tokens.toLocaleString("en-US")} tokens`];
  if (cost > 0) parts.push(`$${cost.toFixed(4)}`);
  return parts.join(" · ");
}

function wrongType(path: string, expected: string, actual: unknown): string {
  return actual === undefined ? `${path}: missing, expected ${expected}` : `${path}: expected ${expected}, got ${typeName(actual)}`;
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
