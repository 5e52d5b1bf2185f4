// The agent's stdout and stdin as the SDK's message Stream. Lines are read here rather than by the SDK's
// ndJsonStream for three reasons: a line that is not a JSON-RPC message must reach the user (ndJsonStream answers it
// to the agent and tells no one); every line is read by the stream CLIs' reader (json-line-reader.ts: depth, BOM,
// the size limit, and the same problems), and only messages the SDK can take without printing agent text to our stderr reach it; and
// `session/update` — one notification per model delta — is taken off before the SDK, which validates every one of
// them with its full schema union twice (about 8× slower than JSON.parse) and may run async handlers out of order.
// Updates are handed over synchronously, in arrival order, before any later message.
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import type { Problem } from "../protocol/transcript";
import { isRecord } from "../protocol/json-record";
import { promptTokens, type PromptTokens } from "../dialects/acp/prompt-usage";
import { excerpt } from "../stream/json-line";
import { JsonLineReader } from "../stream/json-line-reader";
import { DEFAULT_MAX_LINE_BYTES } from "../stream/line-reader";

export interface AgentWireHandlers {
  /** The params of one `session/update` notification, unchecked: the update decoder validates them. */
  sessionUpdate(params: unknown): void;
  /**
   * A line refused (not JSON, too deep or too long, not a JSON-RPC message, an answer to no request of ours), or one
   * whose handling threw; `line` is its line number on the agent's stdout. The connection goes on.
   */
  problem(problem: Problem): void;
  /**
   * The token counts in the agent's answer to one of our `session/prompt` requests (unstable ACP `usage`, which the
   * SDK's stable schema drops), handed over before the SDK settles that request; never called for an answer without.
   */
  promptTokens?(tokens: PromptTokens): void;
}

type RpcId = string | number;

const SESSION_UPDATE = "session/update";
const SESSION_PROMPT = "session/prompt";
const JSON_RPC_INVALID_REQUEST = -32600;

export class AgentWire {
  readonly stream: Stream;
  private readonly lines: JsonLineReader;
  private controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  /** The SDK stopped reading (the connection closed): what the agent says after that has no one to hear it. */
  private sdkGone = false;
  private ended = false;
  /** Ids of our requests not answered yet: an answer to any other id is refused here, before the SDK prints it. */
  private readonly asked = new Set<RpcId>();
  /** Those of them that are `session/prompt`s: only their answers' `usage` is a turn's tokens. */
  private readonly prompts = new Set<RpcId>();
  /** Our answers served and not written yet, by the id of the agent's request (an id may be used twice), in bytes. */
  private readonly onTheirWay = new Map<RpcId, number[]>();
  private onTheirWayBytes = 0;

  /** `write` sends one line to the agent's stdin and says whether stdin was still open. */
  constructor(
    private readonly write: (line: string) => boolean,
    private readonly handlers: AgentWireHandlers,
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.lines = new JsonLineReader(
      {
        value: (value, line, text) => this.onLine(line, () => this.read(value, text, line)),
        refused: (problem, value) => this.onLine(problem.line ?? 0, () => this.refuseLine(problem, value)),
      },
      maxLineBytes,
    );
    const readable = new ReadableStream<AnyMessage>({
      start: (controller) => void (this.controller = controller),
      cancel: () => void (this.sdkGone = true),
    });
    const { asked, prompts } = this;
    const written = (id: RpcId) => this.answerWritten(id);
    const writable = new WritableStream<AnyMessage>({
      write(message) {
        if ("method" in message && "id" in message && message.id !== null) {
          asked.add(message.id);
          if (message.method === SESSION_PROMPT) prompts.add(message.id);
        }
        // From here stdin's own buffer counts the answer until the agent reads it.
        if (!("method" in message) && "id" in message && message.id !== null) written(message.id);
        // Failing the write makes the SDK close the connection, which rejects what is pending: the agent is gone.
        if (!write(JSON.stringify(message) + "\n")) throw new Error("the agent's stdin is closed");
      },
    });
    this.stream = { readable, writable };
  }

  /**
   * An answer to the agent's request `id`, about `bytes` long, was served: the SDK queues it before it reaches this
   * wire, and it is counted (`answersOnTheirWay`) until it is written to the agent's stdin.
   */
  reserveAnswer(id: RpcId, bytes: number): void {
    const sizes = this.onTheirWay.get(id);
    if (sizes === undefined) this.onTheirWay.set(id, [bytes]);
    else sizes.push(bytes);
    this.onTheirWayBytes += bytes;
  }

  /** Bytes of answers served and not written to the agent's stdin yet. */
  get answersOnTheirWay(): number {
    return this.onTheirWayBytes;
  }

  private answerWritten(id: RpcId): void {
    const sizes = this.onTheirWay.get(id);
    const bytes = sizes?.shift();
    if (bytes === undefined) return;
    if (sizes?.length === 0) this.onTheirWay.delete(id);
    this.onTheirWayBytes -= bytes;
  }

  /** Bytes from the agent's stdout, in order. */
  push(chunk: Buffer): void {
    if (!this.ended) this.lines.push(chunk);
  }

  /** stdout is done (the process is gone): whatever was read is still delivered first, then the SDK sees the end. */
  end(): void {
    if (this.ended) return;
    this.lines.end();
    this.ended = true;
    // Nobody reads what is still on its way.
    this.onTheirWay.clear();
    this.onTheirWayBytes = 0;
    if (!this.sdkGone) this.controller?.close();
  }

  /** Whatever one line holds, nothing of it throws out of here: the stdout handler must go on to the next line. */
  private onLine(line: number, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.refuse(line, `could not be handled: ${excerpt(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}; skipped`);
    }
  }

  /** A line the reader refused (too long, not JSON, too deep): the user hears of it, and a request is answered. */
  private refuseLine(problem: Problem, value: unknown): void {
    this.handlers.problem(problem);
    this.answerRefused(value, problem.message);
  }

  private read(value: unknown, text: string, line: number): void {
    if (!isRecord(value) || value.jsonrpc !== "2.0") {
      this.refuse(line, `not a JSON-RPC 2.0 message: ${excerpt(text)}`);
      return;
    }
    if (value.method === SESSION_UPDATE && !("id" in value)) {
      this.handlers.sessionUpdate(value.params);
      return;
    }
    const message = "method" in value ? this.readCall(value, text, line) : this.readAnswer(value, text, line);
    if (message !== undefined && !this.sdkGone) this.controller?.enqueue(message);
  }

  /** A request or notification from the agent, as the SDK takes one; anything else would reach its console. */
  private readCall(value: Record<string, unknown>, text: string, line: number): AnyMessage | undefined {
    if (typeof value.method === "string" && (!("id" in value) || isRpcId(value.id))) return value as AnyMessage;
    const message = `not a JSON-RPC request or notification (a method name, a string or number id): ${excerpt(text)}`;
    this.refuse(line, message);
    this.answerRefused(value, message);
    return undefined;
  }

  /**
   * The agent's answer to one of our requests. Refused when it answers none of them (the SDK would print its id, the
   * agent's text, raw to our stderr); an answer that is not a JSON-RPC response still ends the request it names, with
   * an error of ours, so nothing waits for ever.
   */
  private readAnswer(value: Record<string, unknown>, text: string, line: number): AnyMessage | undefined {
    const id = value.id;
    if (!isRpcId(id) || !this.asked.has(id)) {
      this.refuse(line, `an answer to no request of ours (id ${describeId(id)}); skipped`);
      return undefined;
    }
    this.asked.delete(id);
    const answersPrompt = this.prompts.delete(id);
    if (isResponse(value)) {
      if (answersPrompt && isRecord(value.result)) this.readPromptTokens(value.result);
      return value as AnyMessage;
    }
    const message = `not a JSON-RPC response (a result, or an error with a code and a message): ${excerpt(text)}`;
    this.refuse(line, message);
    return { jsonrpc: "2.0", id, error: { code: JSON_RPC_INVALID_REQUEST, message: `The agent's answer could not be read: ${message}` } };
  }

  private readPromptTokens(result: Record<string, unknown>): void {
    const tokens = promptTokens(result.usage);
    if (tokens !== undefined) this.handlers.promptTokens?.(tokens);
  }

  /**
   * A refused request is answered with an error, so the agent is not left waiting: as the SDK answered one that was not
   * JSON-RPC. Only its top level is read (a too-deep value's inside must never be walked).
   */
  private answerRefused(value: unknown, message: string): void {
    if (!isRecord(value) || typeof value.method !== "string" || !isRpcId(value.id)) return;
    this.write(JSON.stringify({ jsonrpc: "2.0", id: value.id, error: { code: JSON_RPC_INVALID_REQUEST, message: `Invalid request: ${message}` } }) + "\n");
  }

  private refuse(line: number, message: string): void {
    this.handlers.problem({ line, code: "MALFORMED_EVENT", message });
  }
}

/** The id as the agent sent it, every control character shown escaped (an id is the agent's text). */
function describeId(id: unknown): string {
  if (id === undefined) return "missing";
  return typeof id === "number" ? String(id) : excerpt(typeof id === "string" ? id : JSON.stringify(id));
}

function isRpcId(value: unknown): value is RpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** The SDK's own test of a response (core/jsonrpc.js isResponseMessage): what it can settle a request with. */
function isResponse(value: Record<string, unknown>): boolean {
  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  if (hasResult === hasError) return false;
  if (hasResult) return true;
  const error = value.error;
  return isRecord(error) && Number.isInteger(error.code) && typeof error.message === "string";
}
