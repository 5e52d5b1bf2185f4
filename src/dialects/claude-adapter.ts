// Claude Code's `claude -p --verbose --output-format stream-json [--include-partial-messages]`
// (../shared/protocols/claude-stream-json.md, and what real runs print: ../shared/docs/real-cli-recording.md).
// The CLI wraps the Anthropic SSE events in `stream_event` lines and repeats each finished content block as an
// `assistant` line (2.1 sends it just before the block's content_block_stop); this adapter shows the streamed form
// and uses the repeat only for what was not streamed.
// With `--input-format stream-json` one stream answers several user messages, each turn opened by its own
// `system/init` and closed by its own `result`: they are read as one session, with one `done` at the end.
import { typeName } from "../protocol/describe-issue";
import type { CliStreamEvent, ProtocolError, ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import type { AdapterOutput, DialectAdapter, DialectDefinition, StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";

type Json = Record<string, unknown>;

/** The model name Claude Code gives the messages it makes up itself (API errors, mostly). */
const SYNTHETIC_MODEL = "<synthetic>";
/** A made-up message that is not an error: the CLI's stand-in answer to an empty turn. */
const NOT_AN_ERROR = new Set(["No response requested."]);
/** How the CLI records, as a user message, that the user interrupted the turn. */
const INTERRUPTED_MARK = "[Request interrupted by user";
/** Claude Code's own notes in a failed result's `errors` ("[ede_diagnostic] result_type=user ..."). */
const DIAGNOSTIC_MARK = "[ede_diagnostic]";
const TOKEN_FIELDS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"] as const;
type Usage = Partial<Record<(typeof TOKEN_FIELDS)[number], number>>;
/** Newer CLIs tag a failed call with a category; used only when the words alone mean nothing known. */
const ERROR_CATEGORY_CODES: Readonly<Record<string, ProtocolErrorCode>> = {
  authentication_failed: "AUTH_EXPIRED",
  overloaded: "NETWORK_TIMEOUT",
  server_error: "NETWORK_TIMEOUT",
};
const JSON_EXCERPT_CHARS = 60;
/** Lines that mean the CLI went on after a failed call (retried, or began another turn). */
const CONVERSATION_TYPES = new Set(["system", "stream_event", "assistant", "user"]);

/** A content block of the message being streamed, by its index. */
type OpenBlock = { kind: "text" | "thinking" | "other" } | { kind: "tool"; tool: string; toolId: string; input: string[] };

/** A content block of a whole `assistant` message, checked. */
type WholeBlock =
  | { kind: "text" | "thinking"; text: string }
  | { kind: "tool"; tool: string; toolId: string; parameters: Json | undefined }
  | { kind: "other" };

/** What a decoder of one kind of line returns: nothing, or what is wrong with the line (a field named). */
type Verdict = string | undefined;

/** What a value after a `result` says: another message's turn begins, nothing either way, or the stream went on. */
type AfterResult = "next-turn" | "nothing" | "other";

export class ClaudeAdapter implements DialectAdapter {
  readonly dialect = "claude";
  private readonly factory: EventFactory;
  /** When the current message's turn began: its duration when its `result` gives none. */
  private turnStartedAt: number | null = null;
  private sawStart = false;
  private sawDone = false;
  /** Which user message of the stream is being answered: 1 unless stream-json input sent several. */
  private turn = 1;
  /**
   * A `result` ends its message's turn but maybe not the stream: its `done` waits for the next value (or the end
   * of the stream) to say which, and the turn's error, if it failed, waits with it.
   */
  private pendingDone: { error: ProtocolError | null } | null = null;
  /** What the final `done` says for every message answered so far. */
  private readonly totals = { failed: false, tokens: undefined as number | undefined, durationMs: 0 };
  /** Another message's turn began: before its answer shows, a status says which message it answers. */
  private nextMessageDue = false;
  private readonly blocks = new Map<number, OpenBlock>();
  /** Messages whose text was streamed as deltas: their `assistant` repeat must not show it again. */
  private readonly streamedMessages = new Set<string>();
  private streamingWithoutId = false;
  /** Tool calls shown so far, by id: the name for their result, and no second card from a repeat. */
  private readonly tools = new Map<string, string>();
  /** Usage per message id, for a `result` that gives none. */
  private readonly usageByMessage = new Map<string, Usage>();
  private streamingMessageId: string | undefined;
  /**
   * The error of a made-up assistant message, held until the next line: the `result` that normally follows
   * ends the session with it (so it is the last error before `done`); anything else means the CLI went on.
   */
  private heldFailure: ProtocolError | null = null;
  /** The CLI said the user interrupted the turn: its failed `result` then carries no words of its own. */
  private interrupted = false;

  constructor(private readonly now: () => number = Date.now) {
    this.factory = new EventFactory(now);
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.turnStartedAt ??= this.now();
    if (!isRecord(value)) {
      out.problem("MALFORMED_EVENT", `expected a JSON object, got ${typeName(value)}`);
      return;
    }
    if (typeof value.type !== "string") {
      out.problem("MALFORMED_EVENT", wrongType("type", "string", value.type));
      return;
    }
    if (this.pendingDone !== null) this.settlePendingDone(afterResult(value), out);
    else if (CONVERSATION_TYPES.has(value.type)) this.releaseHeldFailure(out, true);
    const verdict = this.decodeRecord(value.type, value, out);
    if (verdict !== undefined) out.problem("MALFORMED_EVENT", `${value.type}: ${verdict}`);
  }

  /**
   * The last `result` was final: its `done` goes out now. Claude Code ends every run with a `result`; without one, a
   * failure it reported must still end the session as failed, even when the process exited 0. A recorded stream
   * (no ending) is left for the session to close.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    this.releasePendingDone(out, ending);
    if (this.sawDone) return;
    const failure = this.heldFailure;
    this.releaseHeldFailure(out, false);
    if (failure === null || ending === null) return;
    const duration = this.totals.durationMs + this.turnElapsed();
    this.finish(out, { exitCode: ending.exitCode ?? 1, duration, success: false }, this.totals.tokens);
  }

  private decodeRecord(type: string, value: Json, out: AdapterOutput): Verdict {
    switch (type) {
      case "system":
        return this.onSystem(value, out);
      case "stream_event":
        return this.onStreamEvent(value, out);
      case "assistant":
        return this.onAssistant(value, out);
      case "user":
        return this.onUser(value, out);
      case "result":
        return this.onResult(value, out);
      default:
        // control_response (to an interrupt), keep_alive, tool_progress and the like carry nothing to show.
        return undefined;
    }
  }

  private onSystem(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.subtype !== "string") return wrongType("subtype", "string", value.subtype);
    switch (value.subtype) {
      case "init":
        return this.onInit(value, out);
      case "api_retry":
        // The CLI starts the request again: what the abandoned attempt streamed so far will not be finished.
        this.blocks.clear();
        this.emitStatus(out, "retrying", retryMessage(value));
        return undefined;
      case "compact_boundary":
        this.emitStatus(out, "compacted", "The conversation was summarised to fit the model's context.");
        return undefined;
      default:
        // status ("requesting" before every model request), thinking_tokens, hooks, permission_denied (its
        // tool_result says it too): nothing the transcript does not show already.
        return undefined;
    }
  }

  private onInit(value: Json, out: AdapterOutput): Verdict {
    if (typeof value.session_id !== "string") return wrongType("session_id", "string", value.session_id);
    for (const key of ["model", "cwd"] as const) {
      if (value[key] !== undefined && typeof value[key] !== "string") return wrongType(key, "string", value[key]);
    }
    // A multi-turn run says init again for each turn; the session has one start.
    if (this.sawStart) return undefined;
    this.sawStart = true;
    this.factory.sessionId = value.session_id;
    const payload: { command: string; model?: string; cwd?: string } = { command: "exec" };
    if (typeof value.model === "string") payload.model = value.model;
    if (typeof value.cwd === "string") payload.cwd = value.cwd;
    out.event(this.factory.make("start", payload));
    return undefined;
  }

  private onStreamEvent(value: Json, out: AdapterOutput): Verdict {
    const event = value.event;
    if (!isRecord(event)) return wrongType("event", "object", event);
    if (typeof event.type !== "string") return wrongType("event.type", "string", event.type);
    // A subagent's own stream (the Task tool) would interleave with the main message's block indices.
    if (typeof value.parent_tool_use_id === "string") return undefined;
    switch (event.type) {
      case "message_start":
        return this.onMessageStart(event);
      case "content_block_start":
        return this.onBlockStart(event, out);
      case "content_block_delta":
        return this.onBlockDelta(event, out);
      case "content_block_stop":
        return this.onBlockStop(event, out);
      case "message_delta":
        if (event.usage !== undefined && !isRecord(event.usage)) return wrongType("event.usage", "object", event.usage);
        if (this.streamingMessageId !== undefined && isRecord(event.usage)) this.noteUsage(this.streamingMessageId, event.usage);
        return undefined;
      default:
        // message_stop, ping: nothing to show.
        return undefined;
    }
  }

  private onMessageStart(event: Json): Verdict {
    const message = event.message;
    if (!isRecord(message)) return wrongType("event.message", "object", message);
    if (message.id !== undefined && typeof message.id !== "string") return wrongType("event.message.id", "string", message.id);
    this.blocks.clear();
    this.streamingMessageId = message.id;
    this.streamingWithoutId = message.id === undefined;
    if (message.id === undefined) return undefined;
    this.streamedMessages.add(message.id);
    if (isRecord(message.usage)) this.noteUsage(message.id, message.usage);
    return undefined;
  }

  private onBlockStart(event: Json, out: AdapterOutput): Verdict {
    if (!isIndex(event.index)) return wrongType("event.index", "non-negative integer", event.index);
    const block = event.content_block;
    if (!isRecord(block)) return wrongType("event.content_block", "object", block);
    if (typeof block.type !== "string") return wrongType("event.content_block.type", "string", block.type);
    switch (block.type) {
      case "text":
      case "thinking": {
        const text = block[block.type];
        if (text !== undefined && typeof text !== "string") return wrongType(`event.content_block.${block.type}`, "string", text);
        this.blocks.set(event.index, { kind: block.type });
        if (text) this.emitContent(out, block.type, text);
        return undefined;
      }
      case "tool_use": {
        if (typeof block.id !== "string") return wrongType("event.content_block.id", "string", block.id);
        if (typeof block.name !== "string") return wrongType("event.content_block.name", "string", block.name);
        // The API starts a tool's input as {} (the document shows ""); its real value arrives as input_json_delta.
        const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? [JSON.stringify(block.input)] : [];
        this.blocks.set(event.index, { kind: "tool", tool: block.name, toolId: block.id, input });
        return undefined;
      }
      default:
        this.blocks.set(event.index, { kind: "other" });
        return undefined;
    }
  }

  private onBlockDelta(event: Json, out: AdapterOutput): Verdict {
    if (!isIndex(event.index)) return wrongType("event.index", "non-negative integer", event.index);
    const delta = event.delta;
    if (!isRecord(delta)) return wrongType("event.delta", "object", delta);
    if (typeof delta.type !== "string") return wrongType("event.delta.type", "string", delta.type);
    switch (delta.type) {
      case "text_delta":
        if (typeof delta.text !== "string") return wrongType("event.delta.text", "string", delta.text);
        this.emitContent(out, "text", delta.text);
        return undefined;
      case "thinking_delta":
        if (typeof delta.thinking !== "string") return wrongType("event.delta.thinking", "string", delta.thinking);
        this.emitContent(out, "thinking", delta.thinking);
        return undefined;
      case "input_json_delta": {
        if (typeof delta.partial_json !== "string") return wrongType("event.delta.partial_json", "string", delta.partial_json);
        const block = this.blocks.get(event.index);
        if (block?.kind !== "tool") return `event.index: no tool_use block ${event.index} is open for this input_json_delta`;
        block.input.push(delta.partial_json);
        return undefined;
      }
      default:
        // signature_delta (the thinking block's signature), citations_delta: nothing to show.
        return undefined;
    }
  }

  /** A tool call is shown once its input is whole: the fragments of partial JSON mean nothing alone. */
  private onBlockStop(event: Json, out: AdapterOutput): Verdict {
    if (!isIndex(event.index)) return wrongType("event.index", "non-negative integer", event.index);
    const block = this.blocks.get(event.index);
    this.blocks.delete(event.index);
    if (block?.kind !== "tool" || this.tools.has(block.toolId)) return undefined;
    const json = block.input.join("");
    const parameters = parseInput(json);
    this.startTool(out, block.tool, block.toolId, parameters);
    if (parameters === undefined) {
      return `the input of tool_use ${block.toolId} (${block.tool}) is not a JSON object: ${excerpt(json)}; the tool is shown without parameters`;
    }
    return undefined;
  }

  private onAssistant(value: Json, out: AdapterOutput): Verdict {
    const message = value.message;
    if (!isRecord(message)) return wrongType("message", "object", message);
    if (message.id !== undefined && typeof message.id !== "string") return wrongType("message.id", "string", message.id);
    const content = readContent(message.content);
    if (typeof content === "string") return content;
    if (message.model === SYNTHETIC_MODEL) {
      this.onSyntheticMessage(value, content);
      return undefined;
    }
    if (message.id !== undefined && isRecord(message.usage)) this.noteUsage(message.id, message.usage);
    const streamed = message.id !== undefined ? this.streamedMessages.has(message.id) : this.streamingWithoutId;
    // A subagent's answer is its tool's result, not the assistant's; its tool calls are still shown as cards.
    const fromSubagent = typeof value.parent_tool_use_id === "string";
    for (const block of content) {
      if (block.kind === "tool") {
        if (!this.tools.has(block.toolId)) this.startTool(out, block.tool, block.toolId, block.parameters);
      } else if (block.kind !== "other" && !streamed && !fromSubagent) {
        this.emitContent(out, block.kind, block.text);
      }
    }
    return undefined;
  }

  /** Claude Code reports a failed model call as an assistant message it wrote itself: an error, not an answer. */
  private onSyntheticMessage(value: Json, content: readonly WholeBlock[]): void {
    const text = content
      .flatMap((block) => (block.kind === "text" ? [block.text] : []))
      .join("\n")
      .trim();
    if (text === "" || NOT_AN_ERROR.has(text) || value.is_api_error_message === false || value.isApiErrorMessage === false) return;
    const status = numberField(value, "apiErrorStatus", "api_error_status") ?? httpStatusIn(text);
    let code = errorCodeFor(text, status);
    if (code === "UNKNOWN" && typeof value.error === "string") code = ERROR_CATEGORY_CODES[value.error] ?? code;
    this.heldFailure = { code, message: text, recoverable: false };
  }

  private onUser(value: Json, out: AdapterOutput): Verdict {
    const message = value.message;
    if (!isRecord(message)) return wrongType("message", "object", message);
    this.streamingWithoutId = false;
    // A replayed prompt (a string, or text blocks) is the user's own words: nothing new to show, except which
    // message a multi-message stream answers next (when the CLI echoes it before the answer, as 2.1.330 does).
    const ownWords = userWords(message);
    if (this.nextMessageDue && ownWords !== undefined && !ownWords.startsWith(INTERRUPTED_MARK)) this.announceNextMessage(out, ownWords);
    if (typeof message.content === "string") return undefined;
    if (!Array.isArray(message.content)) return wrongType("message.content", "array or string", message.content);
    const results: { toolId: string; success: boolean; error: string | undefined }[] = [];
    for (const [index, block] of message.content.entries()) {
      const path = `message.content[${index}]`;
      if (!isRecord(block)) return wrongType(path, "object", block);
      if (block.type === "text" && typeof block.text === "string" && block.text.startsWith(INTERRUPTED_MARK)) this.interrupted = true;
      if (block.type !== "tool_result") continue;
      if (typeof block.tool_use_id !== "string") return wrongType(`${path}.tool_use_id`, "string", block.tool_use_id);
      if (block.is_error !== undefined && typeof block.is_error !== "boolean") return wrongType(`${path}.is_error`, "boolean", block.is_error);
      const success = block.is_error !== true;
      results.push({ toolId: block.tool_use_id, success, error: success ? undefined : toolErrorText(block.content) });
    }
    for (const result of results) {
      const payload: { tool: string; toolId: string; success: boolean; error?: string } = {
        tool: this.tools.get(result.toolId) ?? "tool",
        toolId: result.toolId,
        success: result.success,
      };
      if (result.error !== undefined) payload.error = result.error;
      this.show(out, this.factory.make("tool_completed", payload));
    }
    return undefined;
  }

  private onResult(value: Json, out: AdapterOutput): Verdict {
    const verdict = checkResult(value);
    if (verdict !== undefined) {
      this.releaseHeldFailure(out, true);
      return verdict;
    }
    this.startBeforeInit(value, out);
    const failure = this.heldFailure;
    this.heldFailure = null;
    const failedByResult = value.is_error === true || (typeof value.subtype === "string" && value.subtype.startsWith("error"));
    // An interrupted run's result counts none of the call it cut short (all zeros); the stream did.
    const counted = tokensIn(value.usage);
    const tokens = counted !== undefined && counted > 0 ? counted : (this.streamedTokens() ?? counted);
    const cost = typeof value.total_cost_usd === "number" ? value.total_cost_usd : undefined;
    // A run that spent nothing (a call refused before it began) has no usage worth a line.
    if ((tokens ?? 0) > 0 || (cost ?? 0) > 0) this.emitStatus(out, "usage", usageMessage(tokens, cost));
    // A CLI that says "success" after a failed model call still failed: the failure is the last thing it said.
    const interrupted = this.interrupted || (typeof value.terminal_reason === "string" && value.terminal_reason.startsWith("aborted"));
    const error = failure ?? (failedByResult ? resultError(value, interrupted) : null);
    this.totals.failed ||= error !== null;
    if (tokens !== undefined) this.totals.tokens = (this.totals.tokens ?? 0) + tokens;
    this.totals.durationMs += typeof value.duration_ms === "number" ? value.duration_ms : this.turnElapsed();
    this.pendingDone = { error };
    return undefined;
  }

  private settlePendingDone(next: AfterResult, out: AdapterOutput): void {
    if (next === "next-turn") this.beginNextTurn(out);
    else if (next === "other") this.releasePendingDone(out, null);
  }

  /** Stream-json input sent another message: the last turn's `done` was not the end of the session. */
  private beginNextTurn(out: AdapterOutput): void {
    const error = this.pendingDone?.error ?? null;
    this.pendingDone = null;
    // That message's answer failed, but the session went on to the next one; the final done still says it failed.
    if (error !== null) this.emitError(out, { ...error, recoverable: true });
    this.turn += 1;
    this.nextMessageDue = true;
    this.turnStartedAt = this.now();
    this.interrupted = false;
    this.blocks.clear();
    this.streamingWithoutId = false;
    this.streamingMessageId = undefined;
    // A turn's result without usage is counted from its own messages' usage, not the earlier turns'.
    this.usageByMessage.clear();
  }

  /**
   * The `done` for every message so far: failed if any message's answer failed, tokens and durations (the results'
   * `duration_ms`, which time each turn) summed. The exit code is the process's when it is not 0; a failed run
   * whose process exited 0 (SIGINT does) or that has no exit code (a recording, a signal) says 1.
   */
  private releasePendingDone(out: AdapterOutput, ending: StreamEnding | null): void {
    const pending = this.pendingDone;
    if (pending === null) return;
    this.pendingDone = null;
    if (pending.error !== null) this.emitError(out, pending.error);
    const success = !this.totals.failed;
    const processExitCode = ending?.exitCode ?? 0;
    const exitCode = processExitCode !== 0 ? processExitCode : success ? 0 : 1;
    this.finish(out, { exitCode, duration: this.totals.durationMs, success }, this.totals.tokens);
  }

  /**
   * A `prompt` status between two messages' answers (as pi's adapter shows a later prompt), so their texts stay
   * apart. It quotes the message when the CLI echoed it before the answer; 2.1.197 echoes it after, so it is numbered.
   */
  private announceNextMessage(out: AdapterOutput, words?: string): void {
    this.nextMessageDue = false;
    const message = words?.trim() || `Message ${this.turn}`;
    out.event(this.factory.make("status", { status: "prompt", message }));
  }

  /** Everything the transcript shows goes out here, after the status that opens a new message's answer. */
  private show(out: AdapterOutput, event: CliStreamEvent): void {
    if (this.nextMessageDue) this.announceNextMessage(out);
    out.event(event);
  }

  /** A run that fails before it starts (a session to resume that does not exist) writes its result without an init. */
  private startBeforeInit(value: Json, out: AdapterOutput): void {
    if (this.sawStart) return;
    this.sawStart = true;
    if (typeof value.session_id === "string") this.factory.sessionId = value.session_id;
    out.event(this.factory.make("start", { command: "exec" }));
  }

  private finish(out: AdapterOutput, payload: { exitCode: number; duration: number; success: boolean }, tokens: number | undefined): void {
    this.sawDone = true;
    this.streamingWithoutId = false;
    out.event(this.factory.make("done", tokens === undefined ? payload : { ...payload, tokensUsed: tokens }));
  }

  private startTool(out: AdapterOutput, tool: string, toolId: string, parameters: Json | undefined): void {
    this.tools.set(toolId, tool);
    this.show(out, this.factory.make("tool_started", parameters === undefined ? { tool, toolId } : { tool, toolId, parameters }));
  }

  private emitContent(out: AdapterOutput, kind: "text" | "thinking", content: string): void {
    if (content === "") return;
    this.show(out, this.factory.make(kind === "text" ? "text_delta" : "thinking", { content }));
  }

  private emitStatus(out: AdapterOutput, status: string, message: string | undefined): void {
    this.show(out, this.factory.make("status", message === undefined ? { status } : { status, message }));
  }

  private emitError(out: AdapterOutput, error: ProtocolError): void {
    this.show(out, this.factory.make("error", { error }));
  }

  /** Shows a held failure: recoverable when the CLI went on after it, the end of the run when it did not. */
  private releaseHeldFailure(out: AdapterOutput, cliWentOn: boolean): void {
    const failure = this.heldFailure;
    if (failure === null) return;
    this.heldFailure = null;
    this.emitError(out, { ...failure, recoverable: cliWentOn });
  }

  private noteUsage(messageId: string, usage: Json): void {
    // message_start and message_delta each give part of a message's usage; its repeats give it again.
    const known: Usage = this.usageByMessage.get(messageId) ?? {};
    for (const field of TOKEN_FIELDS) {
      const count = usage[field];
      if (isTokenCount(count) && count >= (known[field] ?? 0)) known[field] = count;
    }
    this.usageByMessage.set(messageId, known);
  }

  private streamedTokens(): number | undefined {
    let total: number | undefined;
    for (const usage of this.usageByMessage.values()) {
      const tokens = tokensIn(usage);
      if (tokens !== undefined) total = (total ?? 0) + tokens;
    }
    return total;
  }

  private turnElapsed(): number {
    return this.turnStartedAt === null ? 0 : Math.max(0, this.now() - this.turnStartedAt);
  }
}

export const claudeDialect: DialectDefinition = {
  name: "claude",
  create: () => new ClaudeAdapter(),
  recognizes: isClaudeValue,
};

/** Lines only Claude Code writes: its system lines carry a session id, and its messages wrap Anthropic API shapes. */
function isClaudeValue(value: Json): boolean {
  switch (value.type) {
    case "system":
      return typeof value.subtype === "string" && typeof value.session_id === "string";
    case "stream_event":
      return isRecord(value.event) && typeof value.event.type === "string";
    case "assistant":
    case "user":
      return isRecord(value.message) && (typeof value.session_id === "string" || "parent_tool_use_id" in value);
    case "result":
      return typeof value.subtype === "string" && (typeof value.is_error === "boolean" || typeof value.session_id === "string");
    default:
      return false;
  }
}

/**
 * After a `result`: a new `system/init`, the echo of the user's next message or a new message's start begin another
 * turn of the same stream. Lines that show nothing (hooks, statuses, keep-alives, control responses) decide nothing.
 */
function afterResult(value: Json): AfterResult {
  switch (value.type) {
    case "system":
      if (value.subtype === "init") return "next-turn";
      return value.subtype === "api_retry" || value.subtype === "compact_boundary" ? "other" : "nothing";
    case "user": {
      const words = isRecord(value.message) ? userWords(value.message) : undefined;
      if (words === undefined) return "other";
      return words.startsWith(INTERRUPTED_MARK) ? "nothing" : "next-turn";
    }
    case "stream_event":
      return isRecord(value.event) && value.event.type === "message_start" && typeof value.parent_tool_use_id !== "string" ? "next-turn" : "other";
    case "assistant":
    case "result":
      return "other";
    default:
      return "nothing";
  }
}

/** The user's own words in a user line (a prompt it echoes), or undefined for tool results and odd shapes. */
function userWords(message: Json): string | undefined {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return undefined;
  const texts: string[] = [];
  for (const block of message.content) {
    if (!isRecord(block) || block.type === "tool_result") return undefined;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.join("\n");
}

/** The blocks of an assistant message, or what is wrong with them. */
function readContent(content: unknown): WholeBlock[] | string {
  if (!Array.isArray(content)) return wrongType("message.content", "array", content);
  const blocks: WholeBlock[] = [];
  for (const [index, block] of content.entries()) {
    const path = `message.content[${index}]`;
    if (!isRecord(block)) return wrongType(path, "object", block);
    if (typeof block.type !== "string") return wrongType(`${path}.type`, "string", block.type);
    switch (block.type) {
      case "text":
      case "thinking": {
        const text = block[block.type];
        if (typeof text !== "string") return wrongType(`${path}.${block.type}`, "string", text);
        blocks.push({ kind: block.type, text });
        break;
      }
      case "tool_use":
        if (typeof block.id !== "string") return wrongType(`${path}.id`, "string", block.id);
        if (typeof block.name !== "string") return wrongType(`${path}.name`, "string", block.name);
        if (block.input !== undefined && !isRecord(block.input)) return wrongType(`${path}.input`, "object", block.input);
        blocks.push({ kind: "tool", tool: block.name, toolId: block.id, parameters: block.input });
        break;
      default:
        blocks.push({ kind: "other" });
    }
  }
  return blocks;
}

function checkResult(value: Json): Verdict {
  if (value.subtype !== undefined && typeof value.subtype !== "string") return wrongType("subtype", "string", value.subtype);
  if (value.is_error !== undefined && typeof value.is_error !== "boolean") return wrongType("is_error", "boolean", value.is_error);
  if (value.subtype === undefined && value.is_error === undefined) return wrongType("is_error", "boolean", undefined);
  if (value.duration_ms !== undefined && !isTokenCount(value.duration_ms)) return wrongType("duration_ms", "non-negative number", value.duration_ms);
  if (value.total_cost_usd !== undefined && typeof value.total_cost_usd !== "number") return wrongType("total_cost_usd", "number", value.total_cost_usd);
  if (value.usage !== undefined && !isRecord(value.usage)) return wrongType("usage", "object", value.usage);
  return undefined;
}

/**
 * The words of a failed `result`: its text, else its `errors` (a session that could not resume), else what its
 * subtype means. An interrupted run's `errors` hold only the CLI's diagnostics, which are not for the user.
 */
function resultError(value: Json, interrupted: boolean): ProtocolError {
  const errors = Array.isArray(value.errors) ? value.errors.filter((e): e is string => typeof e === "string" && !e.startsWith(DIAGNOSTIC_MARK)) : [];
  const message =
    (typeof value.result === "string" && value.result.trim()) ||
    errors.join("\n") ||
    (typeof value.error === "string" && value.error) ||
    (interrupted ? "The run was interrupted before it finished." : subtypeMessage(value.subtype));
  const status = numberField(value, "api_error_status", "apiErrorStatus") ?? httpStatusIn(message);
  return { code: errorCodeFor(message, status), message, recoverable: false };
}

function subtypeMessage(subtype: unknown): string {
  switch (subtype) {
    case "error_max_turns":
      return "Claude Code stopped: it reached the maximum number of turns.";
    case "error_max_budget_usd":
      return "Claude Code stopped: it reached its spending limit.";
    default:
      return `Claude Code ended the run with an error (${typeof subtype === "string" ? subtype : "no details"}).`;
  }
}

function retryMessage(value: Json): string {
  const why = [
    typeof value.error_status === "number" ? `HTTP ${value.error_status}` : null,
    typeof value.error === "string" && value.error !== "unknown" ? value.error.replace(/_/g, " ") : null,
  ].filter((part) => part !== null);
  const delay = typeof value.retry_delay_ms === "number" ? ` in ${(value.retry_delay_ms / 1000).toFixed(1)} s` : "";
  const attempt =
    typeof value.attempt !== "number" ? "" : typeof value.max_retries === "number" ? ` (attempt ${value.attempt} of ${value.max_retries})` : ` (attempt ${value.attempt})`;
  return `The model request failed${why.length > 0 ? ` (${why.join(", ")})` : ""}; retrying${delay}${attempt}.`;
}

function usageMessage(tokens: number | undefined, cost: number | undefined): string {
  const parts: string[] = [];
  if (tokens !== undefined && tokens > 0) parts.push(`${tokens.toLocaleString("en-US")} tokens`);
  if (cost !== undefined) parts.push(`$${cost.toFixed(4)}`);
  return parts.join(" · ");
}

/** Every token the run was billed for: fresh input, cache writes and reads, and output. */
function tokensIn(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  let total: number | undefined;
  for (const field of TOKEN_FIELDS) {
    const count = usage[field];
    if (isTokenCount(count)) total = (total ?? 0) + count;
  }
  return total;
}

/** A tool's error as the user should read it: Claude Code wraps its own in <tool_use_error> tags. */
function toolErrorText(content: unknown): string | undefined {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.flatMap((block) => (isRecord(block) && typeof block.text === "string" ? [block.text] : [])).join("\n")
        : "";
  const unwrapped = text.replace(/^\s*<tool_use_error>([\s\S]*)<\/tool_use_error>\s*$/, "$1").trim();
  return unwrapped === "" ? undefined : unwrapped;
}

/** A tool's whole input; a tool that takes no arguments streams none, which is the empty object. */
function parseInput(json: string): Json | undefined {
  if (json.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** "API Error: 529 {...}": the status Claude Code puts at the front of a failed call's text. */
function httpStatusIn(text: string): number | undefined {
  const match = /\bAPI Error: (\d{3})\b/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

function numberField(value: Json, ...keys: string[]): number | undefined {
  for (const key of keys) {
    if (typeof value[key] === "number") return value[key];
  }
  return undefined;
}

function wrongType(path: string, expected: string, actual: unknown): string {
  return actual === undefined ? `${path}: missing, expected ${expected}` : `${path}: expected ${expected}, got ${typeName(actual)}`;
}

function excerpt(text: string): string {
  return JSON.stringify(text.length > JSON_EXCERPT_CHARS ? text.slice(0, JSON_EXCERPT_CHARS) + "…" : text);
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
