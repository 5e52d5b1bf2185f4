// Dialect `acp`: a client's log of ACP traffic (both directions, one JSON-RPC message a line, in wire order) read back
// as the turns a live ACP run shows, through the same decoder, translator and turn outcomes as src/acp's client:
// each `session/prompt` a turn (start … done), `session/update`s its blocks, a permission request and the client's
// answer a permission block, the prompt's answer (its stopReason, or a JSON-RPC error) how the turn ended.
//
// Which side sent a message is told by its method (the protocol names who sends each). A response names only an id,
// and each side numbers its own requests, so it answers the other side's open request of that id; when both sides
// have one open, the result's shape decides (a stopReason answers a prompt, an outcome a permission request), then the
// later request (an agent asks while the client's prompt waits, and the prompt's answer comes last). A wrapped line
// (json-rpc-line.ts) says its direction and needs none of this.
//
// A log may leave requests unanswered (a client that crashed, or a hostile agent's flood): the reader remembers only
// what an answer needs, of at most MAX_OPEN_REQUESTS at once, and says how many it forgot.
import * as z from "zod/mini";
import { bounded } from "../../common/bounded-text";
import type { CliEventType, EventOfType, ProtocolError } from "../../protocol/events";
import { cancelledDecision, offeredOption, selectedDecision, type PermissionDecision, type PermissionRequest } from "../../permissions/permission-request";
import type { AdapterOutput, DialectAdapter } from "../dialect";
import { defineDialect } from "../dialect";
import { EventFactory } from "../event-factory";
import { readObject } from "../kit/cli-line";
import { lineSchema, Malformed } from "../kit/line-schema";
import { AcpEventTranslator } from "./acp-event-translator";
import type { AcpEvent } from "./acp-events";
import { isAcpTrafficLine, readRpcMessage, type Direction, type RpcError, type RpcId, type RpcMessage } from "./json-rpc-line";
import { replayedRequestOf } from "./permission-request";
import { promptTokens } from "./prompt-usage";
import { SessionUpdateDecoder } from "./session-update-decoder";
import { emitTurnEnd, outcomeOfStopReason, protocolErrorOfRpcError, type AcpTurnOutcome } from "./turn-outcome";

export const ACP_DIALECT_NAME = "acp";

/** The client's requests that belong to a turn: the handshake opens one (as in a live run's first turn). */
const TURN_REQUESTS = new Set(["initialize", "authenticate", "session/new", "session/load", "session/resume", "session/prompt"]);
/** Methods the protocol has each side send; a method in neither is told by the `_` of an extension or not at all. */
const CLIENT_METHODS = new Set([...TURN_REQUESTS, "session/cancel", "session/set_mode", "session/set_model", "session/set_config_option", "session/list", "session/close"]);
const AGENT_METHODS = new Set(["session/update", "session/request_permission", "fs/read_text_file", "fs/write_text_file"]);

const UpdateParams = lineSchema(z.object({ sessionId: z.optional(z.string()), update: z.unknown() }));
const PermissionParams = lineSchema(
  z.object({
    toolCall: z.object({ toolCallId: z.string(), title: z.optional(z.nullable(z.string())) }),
    options: z.array(z.object({ optionId: z.string(), name: z.string(), kind: z.string() })),
  }),
);
const PermissionResult = lineSchema(
  z.object({ outcome: z.union([z.object({ outcome: z.literal("selected"), optionId: z.string() }), z.object({ outcome: z.literal("cancelled") })]) }),
);
/** The prompt's answer; its `usage` (unstable ACP) is the turn's tokens, read as the live client reads it (prompt-usage.ts). */
const PromptResult = lineSchema(z.object({ stopReason: z.string(), usage: z.optional(z.unknown()) }));
const SessionResult = lineSchema(z.object({ sessionId: z.string() }));

/** Requests of both sides the reader remembers unanswered at once; past these the oldest is forgotten, and counted. */
export const MAX_OPEN_REQUESTS = 1000;
/** Characters of a method's name remembered for a trace (a method this version does not know may be anything). */
const METHOD_CHARS = 100;
/** Distinct things traced once each; past these, no more are (a log could name a new method on every line). */
const MAX_TRACED = 1000;

/** What an answer needs of its request: never its params, which may be large and are read when it is asked. */
interface PendingRequest {
  method: string;
  /** Order of asking, across both sides: the later of two candidates is the likelier one answered. */
  order: number;
  /** The session a `session/load` or `session/resume` asks for: its answer makes it the session. */
  sessionId?: string;
  /** A permission request as shown, for its answer. */
  permission?: PermissionRequest;
}

interface Turn {
  cancelRequested: boolean;
  /** `session/new` answered that authentication is required: a failure unless `authenticate` follows. */
  authFailure: ProtocolError | undefined;
  startedAt: number;
  /** Its `start` is written with its first event, by when `session/new` has usually named the session. */
  started: boolean;
}

export class AcpAdapter implements DialectAdapter {
  readonly dialect = ACP_DIALECT_NAME;
  private readonly factory: EventFactory;
  private readonly decoder: SessionUpdateDecoder;
  private readonly translator: AcpEventTranslator;
  /** Requests not answered yet, by side and id (ids are per side), oldest first. */
  private readonly pending: Record<Direction, Map<string, PendingRequest>> = { outgoing: new Map(), incoming: new Map() };
  /** Permission requests shown and not answered yet: the turn's end answers them `cancelled`. */
  private readonly openPermissions = new Set<PendingRequest>();
  /** Requests forgotten unanswered, and how many of them the transcript was told of. */
  private forgotten = 0;
  private reportedForgotten = 0;
  private asked = 0;
  private nextPermissionId = 1;
  private turn: Turn | undefined;
  private sessionId: string | undefined;
  /** Between `session/load` and its answer the agent replays history the log's reader has seen already. */
  private replaying = false;
  private out: AdapterOutput | undefined;
  private readonly traced = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {
    this.factory = new EventFactory(now);
    this.translator = new AcpEventTranslator((type, payload) => this.emit(type, payload));
    this.decoder = new SessionUpdateDecoder({ event: (event) => this.onAcpEvent(event), trace: (message) => this.trace(message) });
  }

  decode(value: unknown, out: AdapterOutput): void {
    this.out = out;
    const record = readObject(value, out);
    if (record === undefined) return;
    const message = readRpcMessage(record);
    if (message instanceof Malformed) {
      out.problem("MALFORMED_EVENT", `not an ACP message (JSON-RPC 2.0): ${message.message}`);
      return;
    }
    if (message.kind === "response") this.onResponse(message);
    else if (this.senderOf(message) === "outgoing") this.onClientMessage(message);
    else this.onAgentMessage(message);
  }

  end(out: AdapterOutput): void {
    this.out = out;
    // An auth failure nothing answered: the turn ended there. A log cut mid-turn is the session's to report.
    if (this.turn?.authFailure !== undefined) this.endTurn({ status: "failed", stopReason: null, error: this.turn.authFailure });
    else if (this.turn !== undefined) this.reportForgotten();
  }

  /** Who sent a request or notification: the wrapper's word, else the method's. */
  private senderOf(message: Extract<RpcMessage, { kind: "request" | "notification" }>): Direction {
    if (message.direction !== undefined) return message.direction;
    if (CLIENT_METHODS.has(message.method)) return "outgoing";
    if (AGENT_METHODS.has(message.method) || message.method.startsWith("terminal/")) return "incoming";
    // Extensions (`_auth/status_update`) and methods newer than this version: agents send most of them.
    this.traceOnce(`method:${message.method}`, `method ${JSON.stringify(message.method)} is not known; read as the agent's and ignored`);
    return "incoming";
  }

  private onClientMessage(message: Extract<RpcMessage, { kind: "request" | "notification" }>): void {
    if (message.kind === "notification") {
      if (message.method === "session/cancel" && this.turn !== undefined) this.turn.cancelRequested = true;
      else if (message.method !== "session/cancel") this.trace(`client notification ${message.method} ignored`);
      return;
    }
    this.remember("outgoing", message);
    if (!TURN_REQUESTS.has(message.method)) return;
    if (this.turn?.authFailure !== undefined && message.method !== "authenticate") this.endTurn({ status: "failed", stopReason: null, error: this.turn.authFailure });
    if (this.turn === undefined) this.beginTurn();
    if (message.method === "authenticate") this.turn!.authFailure = undefined;
    if (message.method === "session/load") this.replaying = true;
  }

  private onAgentMessage(message: Extract<RpcMessage, { kind: "request" | "notification" }>): void {
    if (message.kind === "request") {
      const pending = this.remember("incoming", message);
      if (message.method === "session/request_permission") this.onPermissionRequest(message.params, pending);
      return;
    }
    if (message.method !== "session/update") {
      this.traceOnce(`notification:${message.method}`, `notification ${message.method} ignored`);
      return;
    }
    const params = UpdateParams.read(message.params);
    if (params instanceof Malformed) return this.trace(`session/update ignored: ${params.message}`);
    if (this.replaying) return;
    if (this.sessionId !== undefined && params.sessionId !== undefined && params.sessionId !== this.sessionId) {
      return this.trace(`session/update for another session (${params.sessionId}) ignored`);
    }
    this.decoder.decode(params.update);
  }

  private onPermissionRequest(params: unknown, pending: PendingRequest): void {
    const read = PermissionParams.read(params);
    if (read instanceof Malformed) return this.trace(`session/request_permission not shown: ${read.message}`);
    const tool = this.decoder.mentionTool(read.toolCall);
    pending.permission = replayedRequestOf(String(this.nextPermissionId++), read, tool);
    // Outside a turn it is not shown (onAcpEvent drops it), so nothing waits for its answer.
    if (this.turn !== undefined) this.openPermissions.add(pending);
    this.onAcpEvent({ type: "permission_requested", request: pending.permission });
  }

  private onResponse(message: Extract<RpcMessage, { kind: "response" }>): void {
    const answered = this.answeredRequest(message);
    if (answered === undefined) {
      this.trace(`a response to request ${JSON.stringify(message.id)}, which the log never showed, ignored`);
      return;
    }
    const [side, request] = answered;
    if (side === "incoming") this.onAnswerToAgent(request, message);
    else this.onAnswerFromAgent(request, message);
  }

  /** The client answered the agent: only a permission request's answer is shown. */
  private onAnswerToAgent(request: PendingRequest, message: Extract<RpcMessage, { kind: "response" }>): void {
    const asked = request.permission;
    if (asked === undefined || !this.openPermissions.delete(request)) return;
    const result = PermissionResult.read(message.result);
    if (message.error !== undefined || result instanceof Malformed) {
      this.trace(`the answer to permission request ${asked.requestId} is not an outcome; read as cancelled`);
    }
    const decision = result instanceof Malformed || message.error !== undefined ? cancelledDecision() : decisionOf(result.outcome, asked);
    this.onAcpEvent({ type: "permission_answered", requestId: asked.requestId, toolCallId: asked.toolCallId, decision });
  }

  /** The agent answered the client: the handshake's and the prompt's answers shape the turn. */
  private onAnswerFromAgent(request: PendingRequest, message: Extract<RpcMessage, { kind: "response" }>): void {
    if (request.method === "session/load" || request.method === "session/resume") {
      this.replaying = false;
      // Refused: the client starts a new session instead, as a live one does.
      if (message.error !== undefined) return this.trace(`${request.method} was refused: ${message.error.message}`);
      if (request.sessionId !== undefined) this.sessionId = request.sessionId;
      return;
    }
    if (message.error !== undefined) return this.onRequestFailed(request.method, message.error);
    if (request.method === "session/new") {
      const result = SessionResult.read(message.result);
      if (!(result instanceof Malformed)) this.adoptSession(result.sessionId);
      return;
    }
    if (request.method !== "session/prompt" || this.turn === undefined) return;
    const result = PromptResult.read(message.result);
    if (result instanceof Malformed) {
      this.out!.problem("MALFORMED_EVENT", `session/prompt result: ${result.message}`);
      return;
    }
    const tokens = promptTokens(result.usage);
    if (tokens !== undefined) this.translator.translate({ type: "prompt_tokens", tokens });
    this.endTurn(outcomeOfStopReason(result.stopReason));
  }

  private onRequestFailed(method: string, error: RpcError): void {
    if (!TURN_REQUESTS.has(method) || this.turn === undefined) {
      this.trace(`${method} failed: ${error.message}`);
      return;
    }
    const meaning = protocolErrorOfRpcError(error);
    if (method === "session/new" && meaning.code === "AUTH_EXPIRED") {
      // A live client may authenticate and ask again; the next line says whether this one did.
      this.turn.authFailure = meaning;
      return;
    }
    this.endTurn({ status: "failed", stopReason: null, error: meaning });
  }

  private adoptSession(sessionId: string): void {
    this.sessionId = sessionId;
    if (this.factory.sessionId === "") this.factory.sessionId = sessionId;
  }

  private beginTurn(): void {
    this.turn = { cancelRequested: false, authFailure: undefined, startedAt: this.now(), started: false };
  }

  private endTurn(outcome: AcpTurnOutcome): void {
    const turn = this.turn!;
    // A request the turn outlived is answered `cancelled`, as the live client answers every one still open.
    for (const request of [...this.openPermissions]) this.cancelPermission(request);
    this.reportForgotten();
    // Stopped by the client: the turn is stopped, whatever the agent called it (as a live run reads it).
    const final: AcpTurnOutcome = turn.cancelRequested ? { status: "canceled", stopReason: outcome.stopReason } : outcome;
    emitTurnEnd((type, payload) => this.emit(type, payload), final, Math.max(0, this.now() - turn.startedAt), this.translator.tokensUsed, this.translator.turnUsage());
    this.translator.turnEnded();
    this.turn = undefined;
  }

  /** Events outside a turn (an update after its prompt was answered) are dropped, as the live client drops them. */
  private onAcpEvent(event: AcpEvent): void {
    if (this.turn === undefined) {
      this.traceOnce(`between-turns:${event.type}`, `${event.type} between turns ignored`);
      return;
    }
    this.translator.translate(event);
  }

  private emit<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]): void {
    if (this.turn !== undefined && !this.turn.started) {
      this.turn.started = true;
      this.out!.event(this.factory.make("start", { command: "", dialect: ACP_DIALECT_NAME }));
    }
    this.out!.event(this.factory.make(type, payload));
  }

  private remember(side: Direction, message: Extract<RpcMessage, { kind: "request" }>): PendingRequest {
    const pending: PendingRequest = { method: bounded(message.method, METHOD_CHARS).text, order: this.asked++ };
    if (message.method === "session/load" || message.method === "session/resume") {
      const params = SessionResult.read(message.params);
      if (!(params instanceof Malformed)) pending.sessionId = params.sessionId;
    }
    const key = idKey(message.id);
    const replaced = this.pending[side].get(key);
    if (replaced !== undefined) {
      // A request that reuses an open one's id replaces it: an answer can only be matched to the later.
      this.pending[side].delete(key);
      if (this.openPermissions.has(replaced)) this.cancelPermission(replaced);
    } else if (this.pending.outgoing.size + this.pending.incoming.size >= MAX_OPEN_REQUESTS) {
      this.forgetOldest();
    }
    this.pending[side].set(key, pending);
    return pending;
  }

  /**
   * The oldest request still unanswered on the side with more of them (the side that floods: a prompt waiting for its
   * answer outlasts an agent's thousand requests) is forgotten; a permission request is then shown cancelled.
   */
  private forgetOldest(): void {
    const side: Direction = this.pending.outgoing.size > this.pending.incoming.size ? "outgoing" : "incoming";
    const oldest = this.pending[side].entries().next();
    if (oldest.done === true) return;
    const [key, request] = oldest.value;
    this.pending[side].delete(key);
    this.forgotten++;
    if (this.openPermissions.has(request)) this.cancelPermission(request);
  }

  private cancelPermission(request: PendingRequest): void {
    const asked = request.permission!;
    this.openPermissions.delete(request);
    this.onAcpEvent({ type: "permission_answered", requestId: asked.requestId, toolCallId: asked.toolCallId, decision: cancelledDecision() });
  }

  /** Once per turn at most, a note in the transcript that counts the requests forgotten so far. */
  private reportForgotten(): void {
    if (this.forgotten === this.reportedForgotten || this.turn === undefined) return;
    this.reportedForgotten = this.forgotten;
    const count = this.forgotten.toLocaleString("en-US");
    this.emit("status", {
      status: "requests forgotten",
      message: `This log left more requests unanswered than the ${MAX_OPEN_REQUESTS.toLocaleString("en-US")} its reader remembers at once: ${count} ${this.forgotten === 1 ? "was" : "were"} forgotten. A later answer to one is ignored; a permission request among them shows as cancelled.`,
    });
  }

  /** The open request a response answers: the other side's, by id (and by shape and order when both sides have one). */
  private answeredRequest(message: Extract<RpcMessage, { kind: "response" }>): [Direction, PendingRequest] | undefined {
    if (message.id === null) return undefined;
    const key = idKey(message.id);
    // A response travels the other way from its request: an incoming one answers an outgoing request.
    const sides: Direction[] = message.direction === undefined ? ["outgoing", "incoming"] : [message.direction === "incoming" ? "outgoing" : "incoming"];
    const candidates = sides.flatMap((side): [Direction, PendingRequest][] => {
      const request = this.pending[side].get(key);
      return request === undefined ? [] : [[side, request]];
    });
    const fitting = candidates.filter(([, request]) => fits(request.method, message));
    const chosen = (fitting.length > 0 ? fitting : candidates).sort((a, b) => b[1].order - a[1].order)[0];
    if (chosen !== undefined) this.pending[chosen[0]].delete(key);
    return chosen;
  }

  private trace(message: string): void {
    this.out?.trace?.(message);
  }

  private traceOnce(key: string, message: string): void {
    const short = bounded(key, METHOD_CHARS).text;
    if (this.traced.has(short) || this.traced.size >= MAX_TRACED) return;
    this.traced.add(short);
    this.trace(message);
  }
}

/** Whether a response's shape could answer the method (an error could answer anything). */
function fits(method: string, message: Extract<RpcMessage, { kind: "response" }>): boolean {
  if (message.error !== undefined) return true;
  switch (method) {
    case "session/prompt":
      return PromptResult.matches(message.result);
    case "session/request_permission":
      return PermissionResult.matches(message.result);
    case "session/new":
      return SessionResult.matches(message.result);
    default:
      return true;
  }
}

function idKey(id: RpcId): string {
  return `${typeof id}:${id}`;
}

/** The option the client chose, by id; an id the agent did not offer is no answer (cancelled), as live. */
function decisionOf(outcome: { outcome: "selected"; optionId: string } | { outcome: "cancelled" }, asked: PermissionRequest): PermissionDecision {
  const option = outcome.outcome === "cancelled" ? undefined : offeredOption(asked, outcome.optionId);
  return option === undefined ? cancelledDecision() : selectedDecision(option, "unrecorded");
}

export const acpDialect = defineDialect({
  name: ACP_DIALECT_NAME,
  summary: "ACP traffic as a client logs it: JSON-RPC 2.0, both directions, one message a line (`agent-stream ask` runs ACP agents live).",
  create: () => new AcpAdapter(),
  recognizes: isAcpTrafficLine,
});
