// Claude Code's `claude -p --verbose --output-format stream-json [--include-partial-messages]`
// (docs/protocols/claude-stream-json.md, and what real runs print: docs/real-cli-recording.md).
// The CLI wraps the Anthropic SSE events in `stream_event` lines and repeats each finished content block as an
// `assistant` line (2.1 sends it just before the block's content_block_stop); this adapter shows the streamed form
// and uses the repeat only for what was not streamed.
// With `--input-format stream-json` one stream answers several user messages, each turn opened by its own
// `system/init` and closed by its own `result`: they are read as one session, with one `done` at the end.
import * as z from "zod/mini";
import type { CliStreamEvent, ProtocolError, ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import { addUsage } from "../common/usage-totals";
import { dollars, turnUsage, type TurnUsage } from "../protocol/usage";
import type { ToolDiff } from "../protocol/transcript";
import { CLAUDE_PERMISSION_MODES } from "./claude-modes";
import { madeDiffs, proposedDiffs } from "./claude-tool-changes";
import { defineDialect, type AdapterOutput, type DialectAdapter, type StreamEnding } from "./dialect";
import { errorCodeFor } from "./error-meaning";
import { EventFactory } from "./event-factory";
import { contentText, wrongType, type Json, type Verdict } from "./kit/cli-line";
import { LineTable, Malformed, accepted, count, gateIndex, index, isCount, lineSchema, object, type LineOf } from "./kit/line-schema";
import { Stopwatch, retryMessage, selfApprovingModeMessage, usageMessage } from "./kit/run-words";
import { toolOutputText } from "./kit/tool-output";
import { isClaudeWork, onlyRefusedError, refusedCalls, refusedMessage } from "./claude-permission-request";

// The lines as far as they are read. A stream_event is read in two steps, its event's kind and then that kind's
// fields, so a problem names the field from the line's top ("event.delta.text").
const ANY = lineSchema(z.object({}));
const SYSTEM = lineSchema(z.object({ subtype: z.string() }));
const INIT = lineSchema(
  z.object({
    session_id: z.string(),
    model: z.optional(z.string()),
    permissionMode: z.optional(z.string()),
    cwd: z.optional(z.string()),
    // A list of another shape is left out, not the init line: the commands only help the composer.
    slash_commands: z.optional(z.catch(z.array(z.string()), () => [])),
    terminal_slash_commands: z.optional(z.catch(z.array(z.string()), () => [])),
  }),
);
/** More than any CLI offers; a longer name is not a command. */
const MAX_COMMANDS = 512;
const MAX_COMMAND_CHARS = 200;
const API_RETRY = lineSchema(
  z.object({
    error_status: z.optional(z.unknown()),
    error: z.optional(z.unknown()),
    retry_delay_ms: z.optional(z.unknown()),
    attempt: z.optional(z.unknown()),
    max_retries: z.optional(z.unknown()),
  }),
);
const STREAM_EVENT = lineSchema(z.object({ event: z.object({ type: z.string() }), parent_tool_use_id: z.optional(z.unknown()) }));
const MESSAGE_START = lineSchema(z.object({ event: z.object({ message: z.object({ id: z.optional(z.string()), usage: z.optional(z.unknown()) }) }) }));
const BLOCK_START = lineSchema(z.object({ event: z.object({ index, content_block: z.looseObject({ type: z.string() }) }) }));
const TEXT_START = lineSchema(z.object({ event: z.object({ content_block: z.object({ type: z.literal("text"), text: z.optional(z.string()) }) }) }));
const THINKING_START = lineSchema(
  z.object({ event: z.object({ content_block: z.object({ type: z.literal("thinking"), thinking: z.optional(z.string()) }) }) }),
);
const TOOL_START = lineSchema(z.object({ event: z.object({ content_block: z.object({ id: z.string(), name: z.string(), input: z.optional(z.unknown()) }) }) }));
const BLOCK_DELTA = lineSchema(z.object({ event: z.object({ index, delta: z.object({ type: z.string() }) }) }));
/**
 * The hot path: most lines of a stream are the main message's text deltas. One compiled check of the whole line
 * lets them skip the three tables a stream_event otherwise passes through; any other shape takes the general path.
 */
const MAIN_TEXT_DELTA = lineSchema(
  z.object({
    type: z.literal("stream_event"),
    event: z.object({ type: z.literal("content_block_delta"), index: gateIndex, delta: z.object({ type: z.literal("text_delta"), text: z.string() }) }),
    parent_tool_use_id: z.optional(z.null()),
  }),
);
const TEXT_DELTA = lineSchema(z.object({ event: z.object({ delta: z.object({ text: z.string() }) }) }));
const THINKING_DELTA = lineSchema(z.object({ event: z.object({ delta: z.object({ thinking: z.string() }) }) }));
const INPUT_DELTA = lineSchema(z.object({ event: z.object({ index, delta: z.object({ partial_json: z.string() }) }) }));
const BLOCK_STOP = lineSchema(z.object({ event: z.object({ index }) }));
const MESSAGE_DELTA = lineSchema(z.object({ event: z.object({ usage: z.optional(object) }) }));
const ASSISTANT = lineSchema(
  z.object({
    message: z.object({ id: z.optional(z.string()), content: z.array(z.unknown()), model: z.optional(z.unknown()), usage: z.optional(z.unknown()) }),
    parent_tool_use_id: z.optional(z.unknown()),
  }),
);
const CONTENT_BLOCK = lineSchema(z.looseObject({ type: z.string() }));
const WHOLE_TEXT = lineSchema(z.object({ text: z.string() }));
const WHOLE_THINKING = lineSchema(z.object({ thinking: z.string() }));
const WHOLE_TOOL = lineSchema(z.object({ id: z.string(), name: z.string(), input: z.optional(object) }));
/** `tool_use_result`: what the tool did, in the CLI's own shape (an edit's whole file before it, for one). */
const USER = lineSchema(z.object({ message: object, tool_use_result: z.optional(z.unknown()) }));
const USER_CONTENT = lineSchema(
  z.object({ message: z.object({ content: accepted("array or string", (v): v is string | unknown[] => typeof v === "string" || Array.isArray(v)) }) }),
);
const USER_BLOCK = lineSchema(object);
const TOOL_RESULT = lineSchema(z.object({ tool_use_id: z.string(), is_error: z.optional(z.boolean()), content: z.optional(z.unknown()) }));
const RESULT = lineSchema(
  z.looseObject({
    subtype: z.optional(z.string()),
    is_error: z.optional(z.boolean()),
    duration_ms: z.optional(count),
    total_cost_usd: z.optional(z.number()),
    usage: z.optional(object),
    modelUsage: z.optional(object),
  }),
);

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

/** What a value after a `result` says: another message's turn begins, nothing either way, or the stream went on. */
type AfterResult = "next-turn" | "nothing" | "other";

/**
 * Where the session is, as one value rather than flags that could disagree:
 *
 *   waiting ──init──▶ answering(1) ──result──▶ turn-ended(1) ──init, echo, message_start──▶ answering(2) …
 *      └───────── result (a run that failed before its init) ──▶ turn-ended        └─ any other line, end ──▶ finished
 *
 * - waiting: no `start` said yet (lines before `system/init` are still shown).
 * - answering: the start was said; `announce` is set when this is a later message's turn whose first shown line
 *   must be preceded by a status naming the message.
 * - turn-ended: a `result` ended the turn, maybe not the stream: its `done` (and the turn's error, if it failed)
 *   waits for the next value, or the end of the stream, to say which. A turn that showed nothing before its
 *   result still owes its announcement, before its error.
 * - finished: the `done` went out. A later `result` (a CLI that went on regardless) ends another turn.
 */
type Phase =
  | { kind: "waiting" }
  | { kind: "answering"; turn: number; announce: boolean }
  | { kind: "turn-ended"; turn: number; announce: boolean; error: ProtocolError | null }
  | { kind: "finished"; turn: number };

/** What one message's turn streams; a new turn starts from a fresh one. */
interface TurnStream {
  /** Timed from the turn's first line: its duration when its `result` gives none. */
  readonly clock: Stopwatch;
  /** Calls of the turn that ran, succeeded and did work (not a read or a search): a turn with none whose calls were refused did nothing. */
  workDone: number;
  readonly blocks: Map<number, OpenBlock>;
  /** Usage per message id, for a `result` that gives none (counted per turn, not the earlier turns'). */
  readonly usageByMessage: Map<string, Usage>;
  messageId: string | undefined;
  /** A message without an id is streaming: its `assistant` repeat must not show its text again. */
  streamingWithoutId: boolean;
  /** The CLI said the user interrupted the turn: its failed `result` then carries no words of its own. */
  interrupted: boolean;
  /** Between message_start and message_stop. */
  messageOpen: boolean;
}

/**
 * What differs in a CLI that writes Claude Code's stream: Qwen Code (test/fixtures/qwen-recorded/README.md) repeats
 * each content block of a streamed message as an `assistant` line with an id of its own, and reports a failed model
 * call as text it made up, "[API Error: 401 …]", streamed like an answer (0.15 then calls the turn a success).
 */
export interface ClaudeFlavour {
  readonly dialect: string;
  /** The CLI's name, in the words of a failed result that gives none. */
  readonly cliName: string;
  readonly blockRepeatsWithNewIds: boolean;
  readonly apiErrorsAsText: boolean;
}

export const CLAUDE_FLAVOUR: ClaudeFlavour = { dialect: "claude", cliName: "Claude Code", blockRepeatsWithNewIds: false, apiErrorsAsText: false };
/** The whole text Qwen Code makes up for a failed model call. */
const API_ERROR_TEXT = /^\[API Error: [\s\S]*\]$/;

export class ClaudeAdapter implements DialectAdapter {
  readonly dialect: string;
  private readonly factory: EventFactory;
  private phase: Phase = { kind: "waiting" };
  private stream: TurnStream;
  /** The run's folder as init says it: a refused call names its file relative to it. */
  private cwd: string | undefined;
  /** What the final `done` says for every message answered so far. */
  private readonly totals = { failed: false, tokens: undefined as number | undefined, usage: undefined as TurnUsage | undefined, durationMs: 0 };
  /** Messages whose text was streamed as deltas: their `assistant` repeat must not show it again. */
  private readonly streamedMessages = new Set<string>();
  /** Tool calls shown so far, by id: the name for their result, and no second card from a repeat. */
  private readonly tools = new Map<string, string>();
  /**
   * The error of a made-up assistant message, held until the next line: the `result` that normally follows
   * ends the session with it (so it is the last error before `done`); anything else means the CLI went on.
   */
  private heldFailure: ProtocolError | null = null;
  /**
   * A made-up error streamed as text (apiErrorsAsText): held until the turn's `result`, which it fails; shown as the
   * text it looked like if more text follows.
   */
  private heldErrorText: string | null = null;

  private readonly lines = new LineTable()
    .on("system", SYSTEM, (line, out) => this.systems.decode(line.subtype, line, out))
    .on("stream_event", STREAM_EVENT, (line, out) => this.onStreamEvent(line, out))
    .on("assistant", ASSISTANT, (line, out) => this.onAssistant(line, out))
    .on("user", USER, (line, out) => this.onUser(line, out))
    // Checked inside: a malformed result still tells that the CLI went on after a held failure.
    .on("result", ANY, (line, out) => this.onResult(line, out));
  // control_response (to an interrupt), keep_alive, tool_progress and the like carry nothing to show.

  /**
   * status ("requesting" before every model request), thinking_tokens, hooks, permission_denied (its tool_result
   * says it too): nothing the transcript does not show already.
   */
  private readonly systems = new LineTable()
    .on("init", INIT, (line, out) => this.onInit(line, out))
    .on("api_retry", API_RETRY, (line, out) => this.onApiRetry(line, out))
    .on("compact_boundary", ANY, (_line, out) => this.onCompacted(out));

  /** ping: nothing to show. */
  private readonly events = new LineTable()
    .on("message_start", MESSAGE_START, (line, out) => this.onMessageStart(line, out))
    .on("message_stop", ANY, () => this.onMessageStop())
    .on("content_block_start", BLOCK_START, (line, out) => this.blockStarts.decode(line.event.content_block.type, line, out))
    .on("content_block_delta", BLOCK_DELTA, (line, out) => this.deltas.decode(line.event.delta.type, line, out))
    .on("content_block_stop", BLOCK_STOP, (line, out) => this.onBlockStop(line, out))
    .on("message_delta", MESSAGE_DELTA, (line) => this.onMessageDelta(line));

  private readonly blockStarts = new LineTable()
    .on("text", TEXT_START, (line, out) => this.onTextStart(line, line.event.content_block.type, line.event.content_block.text, out))
    .on("thinking", THINKING_START, (line, out) => this.onTextStart(line, line.event.content_block.type, line.event.content_block.thinking, out))
    .on("tool_use", TOOL_START, (line) => this.onToolStart(line))
    .otherwise((line) => this.openBlock(line, { kind: "other" }));

  /** signature_delta (the thinking block's signature), citations_delta: nothing to show. */
  private readonly deltas = new LineTable()
    .on("text_delta", TEXT_DELTA, (line, out) => this.onText(out, line.event.delta.text))
    .on("thinking_delta", THINKING_DELTA, (line, out) => this.emitContent(out, "thinking", line.event.delta.thinking))
    .on("input_json_delta", INPUT_DELTA, (line) => this.onInputDelta(line));

  constructor(
    private readonly now: () => number = Date.now,
    private readonly flavour: ClaudeFlavour = CLAUDE_FLAVOUR,
  ) {
    this.dialect = flavour.dialect;
    this.factory = new EventFactory(now);
    this.stream = this.newTurnStream();
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.stream.clock.start();
    // Nothing is pending that this line could settle: the line is only its text.
    if (this.phase.kind !== "turn-ended" && this.heldFailure === null && MAIN_TEXT_DELTA.matches(value)) {
      this.onText(out, value.event.delta.text);
      return;
    }
    this.lines.decodeLine(value, out, (line) => {
      if (this.phase.kind === "turn-ended") this.settleTurnEnd(afterResult(line), out);
      else if (CONVERSATION_TYPES.has(line.type)) this.releaseHeldFailure(out, true);
    });
  }

  /**
   * The last `result` was final: its `done` goes out now. Claude Code ends every run with a `result`; without one, a
   * failure it reported must still end the session as failed, even when the process exited 0. A recorded stream
   * (no ending) is left for the session to close.
   */
  end(out: AdapterOutput, ending: StreamEnding | null): void {
    this.releaseTurnEnd(out, ending);
    if (this.phase.kind === "finished") return;
    this.heldFailure ??= this.takeHeldErrorText();
    const failure = this.heldFailure;
    this.releaseHeldFailure(out, false);
    if (failure === null || ending === null) return;
    const duration = this.totals.durationMs + this.stream.clock.elapsed();
    this.finish(out, { exitCode: ending.exitCode ?? 1, duration, success: false });
  }

  private newTurnStream(): TurnStream {
    return { clock: new Stopwatch(this.now), workDone: 0, blocks: new Map(), usageByMessage: new Map(), messageId: undefined, streamingWithoutId: false, interrupted: false, messageOpen: false };
  }

  private onInit(line: LineOf<typeof INIT>, out: AdapterOutput): Verdict {
    // A multi-turn run says init again for each turn; the session has one start.
    if (this.phase.kind !== "waiting") return undefined;
    this.phase = { kind: "answering", turn: 1, announce: false };
    this.factory.sessionId = line.session_id;
    const payload: { command: string; model?: string; mode?: string; cwd?: string; commands?: string[] } = { command: "exec" };
    if (line.model !== undefined) payload.model = line.model;
    if (line.permissionMode !== undefined) payload.mode = line.permissionMode;
    const commands = promptCommands(line.slash_commands ?? [], line.terminal_slash_commands ?? []);
    if (commands.length > 0) payload.commands = commands;
    if (line.cwd !== undefined) payload.cwd = line.cwd;
    this.cwd = line.cwd;
    out.event(this.factory.make("start", payload));
    // Said in the turn, as for an ACP agent: in such a mode nobody is asked before Claude edits or runs anything.
    const mode = this.flavour.dialect === "claude" ? CLAUDE_PERMISSION_MODES.find((known) => known.id === line.permissionMode) : undefined;
    if (mode?.approvesItself === true) out.event(this.factory.make("status", { status: "mode", message: selfApprovingModeMessage(mode) }));
    return undefined;
  }

  /** The CLI starts the request again: what the abandoned attempt streamed so far will not be finished. */
  private onApiRetry(line: LineOf<typeof API_RETRY>, out: AdapterOutput): Verdict {
    this.stream.blocks.clear();
    const why = [
      typeof line.error_status === "number" ? `HTTP ${line.error_status}` : null,
      typeof line.error === "string" && line.error !== "unknown" ? line.error.replace(/_/g, " ") : null,
    ].filter((part) => part !== null);
    const attempt = typeof line.attempt === "number" ? line.attempt : undefined;
    const retry = {
      reason: why.length > 0 ? why.join(", ") : undefined,
      delayMs: typeof line.retry_delay_ms === "number" ? line.retry_delay_ms : undefined,
      attempt,
      maxAttempts: attempt !== undefined && typeof line.max_retries === "number" ? line.max_retries : undefined,
    };
    this.emitStatus(out, "retrying", retryMessage(retry));
    return undefined;
  }

  private onCompacted(out: AdapterOutput): Verdict {
    this.emitStatus(out, "compacted", "The conversation was summarised to fit the model's context.");
    return undefined;
  }

  private onStreamEvent(line: LineOf<typeof STREAM_EVENT>, out: AdapterOutput): Verdict {
    // A subagent's own stream (the Task tool) would interleave with the main message's block indices.
    if (typeof line.parent_tool_use_id === "string") return undefined;
    return this.events.decode(line.event.type, line, out);
  }

  private onMessageStart(line: LineOf<typeof MESSAGE_START>, out: AdapterOutput): Verdict {
    const { id, usage } = line.event.message;
    this.stream.messageOpen = true;
    // Another message after a made-up error: the CLI went on (tried again), so that error did not end the turn.
    const wentOnAfter = this.takeHeldErrorText();
    if (wentOnAfter !== null) this.emitError(out, { ...wentOnAfter, recoverable: true });
    this.stream.blocks.clear();
    this.stream.messageId = id;
    this.stream.streamingWithoutId = id === undefined;
    if (id === undefined) return undefined;
    this.streamedMessages.add(id);
    if (isRecord(usage)) this.noteUsage(id, usage);
    return undefined;
  }

  /** Every content_block_start passed BLOCK_START before its kind's own schema: its index is checked. */
  private openBlock(line: Json, block: OpenBlock): Verdict {
    this.stream.blocks.set((line as LineOf<typeof BLOCK_START>).event.index, block);
    return undefined;
  }

  private onTextStart(line: Json, kind: "text" | "thinking", text: string | undefined, out: AdapterOutput): Verdict {
    this.openBlock(line, { kind });
    if (text) this.emitContent(out, kind, text);
    return undefined;
  }

  private onToolStart(line: LineOf<typeof TOOL_START>): Verdict {
    const block = line.event.content_block;
    // The API starts a tool's input as {} (the document shows ""); its real value arrives as input_json_delta.
    const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? [JSON.stringify(block.input)] : [];
    return this.openBlock(line, { kind: "tool", tool: block.name, toolId: block.id, input });
  }

  private onInputDelta(line: LineOf<typeof INPUT_DELTA>): Verdict {
    const { index: at, delta } = line.event;
    const block = this.stream.blocks.get(at);
    if (block?.kind !== "tool") return `event.index: no tool_use block ${at} is open for this input_json_delta`;
    block.input.push(delta.partial_json);
    return undefined;
  }

  /** A tool call is shown once its input is whole: the fragments of partial JSON mean nothing alone. */
  private onBlockStop(line: LineOf<typeof BLOCK_STOP>, out: AdapterOutput): Verdict {
    const at = line.event.index;
    const block = this.stream.blocks.get(at);
    this.stream.blocks.delete(at);
    if (block?.kind !== "tool" || this.tools.has(block.toolId)) return undefined;
    const json = block.input.join("");
    const parameters = parseInput(json);
    this.startTool(out, block.tool, block.toolId, parameters);
    if (parameters === undefined) {
      return `the input of tool_use ${block.toolId} (${block.tool}) is not a JSON object: ${excerpt(json)}; the tool is shown without parameters`;
    }
    return undefined;
  }

  private onMessageDelta(line: LineOf<typeof MESSAGE_DELTA>): Verdict {
    const usage = line.event.usage;
    if (this.stream.messageId !== undefined && usage !== undefined) this.noteUsage(this.stream.messageId, usage);
    return undefined;
  }

  private onAssistant(line: LineOf<typeof ASSISTANT>, out: AdapterOutput): Verdict {
    const message = line.message;
    const content = readContent(line);
    if (content instanceof Malformed) return content.message;
    if (message.model === SYNTHETIC_MODEL) {
      this.onSyntheticMessage(line, content);
      return undefined;
    }
    if (message.id !== undefined && isRecord(message.usage)) this.noteUsage(message.id, message.usage);
    const streamed =
      (message.id !== undefined ? this.streamedMessages.has(message.id) : this.stream.streamingWithoutId) ||
      (this.flavour.blockRepeatsWithNewIds && this.stream.messageOpen);
    // A subagent's answer is its tool's result, not the assistant's; its tool calls are still shown as cards.
    const fromSubagent = typeof line.parent_tool_use_id === "string";
    for (const block of content) {
      if (block.kind === "tool") {
        if (!this.tools.has(block.toolId)) this.startTool(out, block.tool, block.toolId, block.parameters);
      } else if (block.kind !== "other" && !streamed && !fromSubagent) {
        if (block.kind === "text") this.onText(out, block.text);
        else this.emitContent(out, block.kind, block.text);
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

  private onUser(line: LineOf<typeof USER>, out: AdapterOutput): Verdict {
    const message = line.message;
    this.stream.streamingWithoutId = false;
    // A replayed prompt (a string, or text blocks) is the user's own words: nothing new to show, except which
    // message a multi-message stream answers next (when the CLI echoes it before the answer, as 2.1.330 does).
    const ownWords = userWords(message);
    if (this.announceDue() && ownWords !== undefined && !ownWords.startsWith(INTERRUPTED_MARK)) this.announceNextMessage(out, ownWords);
    const checked = USER_CONTENT.read(line);
    if (checked instanceof Malformed) return checked.message;
    const content = checked.message.content;
    if (typeof content === "string") return undefined;
    const results: { toolId: string; success: boolean; error: string | undefined; output: string | undefined }[] = [];
    for (const [at, item] of content.entries()) {
      const path = ["message", "content", at];
      const block = USER_BLOCK.read(item, line, path);
      if (block instanceof Malformed) return block.message;
      if (block.type === "text" && typeof block.text === "string" && block.text.startsWith(INTERRUPTED_MARK)) this.stream.interrupted = true;
      if (block.type !== "tool_result") continue;
      const result = TOOL_RESULT.read(block, line, path);
      if (result instanceof Malformed) return result.message;
      const success = result.is_error !== true;
      if (success && isClaudeWork(this.tools.get(result.tool_use_id) ?? "")) this.stream.workDone++;
      results.push({ toolId: result.tool_use_id, success, error: success ? undefined : toolErrorText(result.content), output: success ? toolOutputText(result.content) : undefined });
    }
    for (const result of results) {
      const tool = this.tools.get(result.toolId) ?? "tool";
      const payload: { tool: string; toolId: string; success: boolean; error?: string; output?: string; diffs?: ToolDiff[] } = { tool, toolId: result.toolId, success: result.success };
      if (result.error !== undefined) payload.error = result.error;
      if (result.output !== undefined) payload.output = result.output;
      // The line's one tool_use_result belongs to its one tool_result; a line of several cannot say whose it is.
      const made = result.success && results.length === 1 ? madeDiffs(tool, line.tool_use_result) : undefined;
      if (made !== undefined) payload.diffs = made;
      this.show(out, this.factory.make("tool_completed", payload));
    }
    return undefined;
  }

  private onResult(value: Json, out: AdapterOutput): Verdict {
    const line = readResult(value);
    if (line instanceof Malformed) {
      this.releaseHeldFailure(out, true);
      return line.message;
    }
    this.startBeforeInit(line, out);
    const failure = this.heldFailure ?? this.takeHeldErrorText();
    this.heldFailure = null;
    const failedByResult =
      line.is_error === true ||
      (line.subtype !== undefined && line.subtype.startsWith("error")) ||
      (this.flavour.apiErrorsAsText && typeof line.result === "string" && API_ERROR_TEXT.test(line.result.trim()));
    // An interrupted run's result counts none of the call it cut short (all zeros); the stream did.
    const counted = tokensIn(line.usage);
    const tokens = counted !== undefined && counted > 0 ? counted : (this.streamedTokens() ?? counted);
    const cost = line.total_cost_usd;
    // A run that spent nothing (a call refused before it began) has no usage worth a line.
    if ((tokens ?? 0) > 0 || (cost ?? 0) > 0) this.emitStatus(out, "usage", usageMessage({ tokens: tokens !== undefined && tokens > 0 ? tokens : undefined, cost }));
    // A CLI that says "success" after a failed model call still failed: the failure is the last thing it said.
    const interrupted = this.stream.interrupted || (typeof line.terminal_reason === "string" && line.terminal_reason.startsWith("aborted"));
    const refused = refusedCalls(line, this.cwd);
    if (refused.length > 0) this.emitStatus(out, "refused", refusedMessage(refused));
    const onlyRefused = refused.length > 0 && this.stream.workDone === 0 ? onlyRefusedError(refused) : null;
    const error = failure ?? (failedByResult ? resultError(line, interrupted, this.flavour.cliName) : onlyRefused);
    this.totals.failed ||= error !== null;
    if (tokens !== undefined) this.totals.tokens = (this.totals.tokens ?? 0) + tokens;
    const usage = this.usageOf(line);
    if (usage !== undefined) this.totals.usage = this.totals.usage === undefined ? usage : addUsage(this.totals.usage, usage);
    this.totals.durationMs += line.duration_ms ?? this.stream.clock.elapsed();
    this.phase = { kind: "turn-ended", turn: this.turnNumber(), announce: this.announceDue(), error };
    return undefined;
  }

  private settleTurnEnd(next: AfterResult, out: AdapterOutput): void {
    if (next === "next-turn") this.beginNextTurn(out);
    else if (next === "other") this.releaseTurnEnd(out, null);
  }

  /** Stream-json input sent another message: the last turn's `done` was not the end of the session. */
  private beginNextTurn(out: AdapterOutput): void {
    if (this.phase.kind !== "turn-ended") return;
    const { error, turn } = this.phase;
    // That message's answer failed, but the session went on to the next one; the final done still says it failed.
    if (error !== null) this.emitError(out, { ...error, recoverable: true });
    this.phase = { kind: "answering", turn: turn + 1, announce: true };
    this.stream = this.newTurnStream();
    this.stream.clock.start();
  }

  /**
   * The `done` for every message so far: failed if any message's answer failed, tokens and durations (the results'
   * `duration_ms`, which time each turn) summed. The exit code is the process's when it is not 0; a failed run
   * whose process exited 0 (SIGINT does) or that has no exit code (a recording, a signal) says 1.
   */
  private releaseTurnEnd(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.phase.kind !== "turn-ended") return;
    const error = this.phase.error;
    if (error !== null) this.emitError(out, error);
    const success = !this.totals.failed;
    const processExitCode = ending?.exitCode ?? 0;
    const exitCode = processExitCode !== 0 ? processExitCode : success ? 0 : 1;
    this.finish(out, { exitCode, duration: this.totals.durationMs, success });
  }

  private turnNumber(): number {
    return this.phase.kind === "waiting" ? 1 : this.phase.turn;
  }

  private announceDue(): boolean {
    return (this.phase.kind === "answering" || this.phase.kind === "turn-ended") && this.phase.announce;
  }

  /**
   * A status between two messages' answers, so their texts stay apart: a `prompt` that quotes the message when the
   * CLI echoed it before the answer (as pi's adapter shows a later prompt); 2.1.197 echoes it after, so its words are
   * not known yet and a `next message` numbers it (shown-blocks.ts shows a prompt's words as the user's, never a number).
   */
  private announceNextMessage(out: AdapterOutput, words?: string): void {
    if (this.phase.kind !== "answering" && this.phase.kind !== "turn-ended") return;
    this.phase = { ...this.phase, announce: false };
    const said = words?.trim() ?? "";
    const status = said === "" ? { status: "next message", message: `Message ${this.phase.turn}` } : { status: "prompt", message: said };
    out.event(this.factory.make("status", status));
  }

  /** Everything the transcript shows goes out here, after the status that opens a new message's answer. */
  private show(out: AdapterOutput, event: CliStreamEvent): void {
    if (this.announceDue()) this.announceNextMessage(out);
    out.event(event);
  }

  /** A run that fails before it starts (a session to resume that does not exist) writes its result without an init. */
  private startBeforeInit(value: Json, out: AdapterOutput): void {
    if (this.phase.kind !== "waiting") return;
    if (typeof value.session_id === "string") this.factory.sessionId = value.session_id;
    out.event(this.factory.make("start", { command: "exec" }));
  }

  private finish(out: AdapterOutput, payload: { exitCode: number; duration: number; success: boolean }): void {
    this.phase = { kind: "finished", turn: this.turnNumber() };
    this.stream.streamingWithoutId = false;
    const { tokens, usage } = this.totals;
    out.event(this.factory.make("done", { ...payload, ...(tokens === undefined ? {} : { tokensUsed: tokens }), ...(usage === undefined ? {} : { usage }) }));
  }

  /**
   * A result's figures: its `usage` counts every call of the turn (the streamed messages' when an interrupted run's
   * result counts none), the last message's usage is what the context holds, and `modelUsage` gives the window.
   */
  private usageOf(line: LineOf<typeof RESULT>): TurnUsage | undefined {
    const counted = line.usage !== undefined && (tokensIn(line.usage) ?? 0) > 0 ? countsOf(line.usage) : this.streamedUsage();
    const input = sumOf(counted, ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]);
    const last = [...this.stream.usageByMessage.values()].at(-1);
    return turnUsage({
      inputTokens: input,
      outputTokens: counted.output_tokens,
      cacheReadTokens: counted.cache_read_input_tokens,
      cost: dollars(line.total_cost_usd),
      contextUsed: last === undefined ? undefined : tokensIn(last),
      contextSize: contextWindowOf(line.modelUsage),
    });
  }

  /** The turn's streamed messages' usage added up, field by field. */
  private streamedUsage(): Usage {
    const total: Usage = {};
    for (const usage of this.stream.usageByMessage.values()) {
      for (const field of TOKEN_FIELDS) {
        const count = usage[field];
        if (count !== undefined) total[field] = (total[field] ?? 0) + count;
      }
    }
    return total;
  }

  /** An edit's card shows the change it proposes at once, while it waits to run (or to be allowed). */
  private startTool(out: AdapterOutput, tool: string, toolId: string, parameters: Json | undefined): void {
    this.tools.set(toolId, tool);
    this.show(out, this.factory.make("tool_started", parameters === undefined ? { tool, toolId } : { tool, toolId, parameters }));
    const proposed = proposedDiffs(tool, parameters);
    if (proposed !== undefined) this.show(out, this.factory.make("tool_updated", { toolId, diffs: proposed }));
  }

  private emitContent(out: AdapterOutput, kind: "text" | "thinking", content: string): Verdict {
    if (content !== "") this.show(out, this.factory.make(kind === "text" ? "text_delta" : "thinking", { content }));
    return undefined;
  }

  private emitStatus(out: AdapterOutput, status: string, message: string | undefined): void {
    this.show(out, this.factory.make("status", message === undefined ? { status } : { status, message }));
  }

  private onMessageStop(): Verdict {
    this.stream.messageOpen = false;
    return undefined;
  }

  /** Answer text, except the flavour's made-up error text, which is held (see heldErrorText). */
  private onText(out: AdapterOutput, text: string): Verdict {
    const held = this.heldErrorText;
    if (held !== null) {
      this.heldErrorText = null;
      this.emitContent(out, "text", held);
    } else if (this.flavour.apiErrorsAsText && API_ERROR_TEXT.test(text.trim())) {
      this.heldErrorText = text.trim();
      return undefined;
    }
    return this.emitContent(out, "text", text);
  }

  /** The held made-up error text as the failure it reports ("[API Error: 401 …]": the status says what it means). */
  private takeHeldErrorText(): ProtocolError | null {
    const text = this.heldErrorText;
    if (text === null) return null;
    this.heldErrorText = null;
    return { code: errorCodeFor(text, httpStatusIn(text)), message: text, recoverable: false };
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
    const known: Usage = this.stream.usageByMessage.get(messageId) ?? {};
    for (const field of TOKEN_FIELDS) {
      const count = usage[field];
      if (isCount(count) && count >= (known[field] ?? 0)) known[field] = count;
    }
    this.stream.usageByMessage.set(messageId, known);
  }

  private streamedTokens(): number | undefined {
    let total: number | undefined;
    for (const usage of this.stream.usageByMessage.values()) {
      const tokens = tokensIn(usage);
      if (tokens !== undefined) total = (total ?? 0) + tokens;
    }
    return total;
  }
}

export const claudeDialect = defineDialect({
  name: "claude",
  summary: "Claude Code: `claude -p --verbose --output-format stream-json --include-partial-messages`.",
  create: () => new ClaudeAdapter(),
  recognizes: isClaudeValue,
});

/** Lines only Claude Code writes: its system lines carry a session id, and its messages wrap Anthropic API shapes. */
function isClaudeValue(value: Json): boolean {
  switch (value.type) {
    case "system":
      // Qwen Code's init names its version: the one line that tells its Claude-shaped stream from Claude Code's.
      return typeof value.subtype === "string" && typeof value.session_id === "string" && !("qwen_code_version" in value);
    case "stream_event":
      return isRecord(value.event) && typeof value.event.type === "string";
    case "assistant":
    case "user":
      return isRecord(value.message) && (typeof value.session_id === "string" || "parent_tool_use_id" in value);
    case "result":
      return typeof value.subtype === "string" && (typeof value.is_error === "boolean" || typeof value.session_id === "string");
    case "control_response":
      // Its control protocol's answers: one to an `initialize` asked before the prompt comes ahead of `system/init`.
      return isRecord(value.response) && typeof value.response.request_id === "string";
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

/** The blocks of an assistant message, checked one by one in order, or what is wrong with the first bad one. */
function readContent(line: LineOf<typeof ASSISTANT>): WholeBlock[] | Malformed {
  const blocks: WholeBlock[] = [];
  for (const [at, item] of line.message.content.entries()) {
    const path = ["message", "content", at];
    const block = CONTENT_BLOCK.read(item, line, path);
    if (block instanceof Malformed) return block;
    const whole = readWholeBlock(block, line, path);
    if (whole instanceof Malformed) return whole;
    blocks.push(whole);
  }
  return blocks;
}

function readWholeBlock(block: LineOf<typeof CONTENT_BLOCK>, line: Json, path: readonly PropertyKey[]): WholeBlock | Malformed {
  switch (block.type) {
    case "text": {
      const text = WHOLE_TEXT.read(block, line, path);
      return text instanceof Malformed ? text : { kind: "text", text: text.text };
    }
    case "thinking": {
      const thinking = WHOLE_THINKING.read(block, line, path);
      return thinking instanceof Malformed ? thinking : { kind: "thinking", text: thinking.thinking };
    }
    case "tool_use": {
      const tool = WHOLE_TOOL.read(block, line, path);
      return tool instanceof Malformed ? tool : { kind: "tool", tool: tool.name, toolId: tool.id, parameters: tool.input };
    }
    default:
      return { kind: "other" };
  }
}

/** A result must say how it ended: its subtype, or at least whether it is an error. */
function readResult(value: Json): LineOf<typeof RESULT> | Malformed {
  if (value.subtype === undefined && value.is_error === undefined) return new Malformed(wrongType("is_error", "boolean", undefined));
  return RESULT.read(value);
}

/**
 * The words of a failed `result`: its text, else its `errors` (a session that could not resume), else what its
 * subtype means. An interrupted run's `errors` hold only the CLI's diagnostics, which are not for the user.
 */
function resultError(value: Json, interrupted: boolean, cliName: string): ProtocolError {
  const errors = Array.isArray(value.errors) ? value.errors.filter((e): e is string => typeof e === "string" && !e.startsWith(DIAGNOSTIC_MARK)) : [];
  const message =
    (typeof value.result === "string" && value.result.trim()) ||
    errors.join("\n") ||
    (typeof value.error === "string" && value.error) ||
    (isRecord(value.error) && typeof value.error.message === "string" && value.error.message.trim()) ||
    (interrupted ? "The run was interrupted before it finished." : subtypeMessage(value.subtype, cliName));
  const status = numberField(value, "api_error_status", "apiErrorStatus") ?? httpStatusIn(message);
  return { code: errorCodeFor(message, status), message, recoverable: false };
}

function subtypeMessage(subtype: unknown, cliName: string): string {
  switch (subtype) {
    case "error_max_turns":
      return `${cliName} stopped: it reached the maximum number of turns.`;
    case "error_max_budget_usd":
      return `${cliName} stopped: it reached its spending limit.`;
    default:
      return `${cliName} ended the run with an error (${typeof subtype === "string" ? subtype : "no details"}).`;
  }
}

function countsOf(usage: Json): Usage {
  const counts: Usage = {};
  for (const field of TOKEN_FIELDS) {
    const count = usage[field];
    if (isCount(count)) counts[field] = count;
  }
  return counts;
}

function sumOf(usage: Usage, fields: readonly (typeof TOKEN_FIELDS)[number][]): number | undefined {
  let total: number | undefined;
  for (const field of fields) {
    const count = usage[field];
    if (isCount(count)) total = (total ?? 0) + count;
  }
  return total;
}

/**
 * The context window of the turn's model, from `modelUsage` (one entry per model the turn called). A turn that also
 * called a small model for a side task lists it too; the largest window is the main model's.
 */
function contextWindowOf(modelUsage: Json | undefined): number | undefined {
  if (modelUsage === undefined) return undefined;
  let largest: number | undefined;
  for (const model of Object.values(modelUsage)) {
    const window = isRecord(model) ? model.contextWindow : undefined;
    if (isCount(window) && window > 0 && window > (largest ?? 0)) largest = window;
  }
  return largest;
}

/** Every token the run was billed for: fresh input, cache writes and reads, and output. */
function tokensIn(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  let total: number | undefined;
  for (const field of TOKEN_FIELDS) {
    const count = usage[field];
    if (isCount(count)) total = (total ?? 0) + count;
  }
  return total;
}

/** A tool's error as the user should read it: Claude Code wraps its own in <tool_use_error> tags. */
function toolErrorText(content: unknown): string | undefined {
  const unwrapped = contentText(content).replace(/^\s*<tool_use_error>([\s\S]*)<\/tool_use_error>\s*$/, "$1").trim();
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

function excerpt(text: string): string {
  return JSON.stringify(text.length > JSON_EXCERPT_CHARS ? text.slice(0, JSON_EXCERPT_CHARS) + "…" : text);
}

/** The slash commands a prompt may start with: the terminal's own (doctor, color, …) work only in Claude's terminal. */
function promptCommands(all: readonly string[], terminalOnly: readonly string[]): string[] {
  const terminal = new Set(terminalOnly);
  return all.filter((name) => !terminal.has(name) && name.length > 0 && name.length <= MAX_COMMAND_CHARS && !name.startsWith("__")).slice(0, MAX_COMMANDS);
}
