// How an ACP turn ended, in the project's words: a `stopReason` or a JSON-RPC error becomes completed / canceled /
// failed with the ProtocolError code that means the same, so the card offers the action that helps (Log In, Retry,
// New Session).
import { stderrExcerpt } from "../../common/stderr-excerpt";
import { apiErrorBody, apiErrorText, errorCodeFor, meaningfulPart } from "../error-meaning";
import type { ProtocolError, ProtocolErrorCode } from "../../protocol/events";
import { isRecord } from "../../protocol/json-record";
import type { TurnUsage } from "../../protocol/usage";
import type { EmitEvent } from "./acp-event-translator";

export type AcpTurnOutcome =
  | { status: "completed"; stopReason: "end_turn" }
  | { status: "canceled"; stopReason: string | null }
  | { status: "failed"; stopReason: string | null; error: ProtocolError };

const STOP_REASON_FAILURES: Readonly<Record<string, string>> = {
  refusal: "The agent refused to continue this request (stop reason: refusal).",
  max_tokens: "The model reached its maximum output length before it finished (stop reason: max_tokens).",
  max_turn_requests: "The agent reached its limit of model requests for one turn (stop reason: max_turn_requests).",
};

/** `session/prompt`'s answer. A reason this version does not know is a failure that names it, never a success. */
export function outcomeOfStopReason(stopReason: string): AcpTurnOutcome {
  if (stopReason === "end_turn") return { status: "completed", stopReason };
  if (stopReason === "cancelled") return { status: "canceled", stopReason };
  const message = STOP_REASON_FAILURES[stopReason] ?? `The agent ended the turn with stop reason ${JSON.stringify(stopReason)}.`;
  return { status: "failed", stopReason, error: { code: "UNKNOWN", message, recoverable: false } };
}

/** What a shell reports for Ctrl-C: a canceled turn's exit code, as a stopped CLI's. */
export const CANCELED_EXIT_CODE = 130;

/** The turn's last events, live or replayed: an error card when it failed, then its one `done`. */
export function emitTurnEnd(emit: EmitEvent, outcome: AcpTurnOutcome, duration: number, tokensUsed: number | undefined, usage?: TurnUsage): void {
  const tokens = { ...(tokensUsed === undefined ? {} : { tokensUsed }), ...(usage === undefined ? {} : { usage }) };
  if (outcome.status === "completed") {
    emit("done", { exitCode: 0, duration, success: true, ...tokens });
    return;
  }
  if (outcome.status === "canceled") {
    emit("done", { exitCode: CANCELED_EXIT_CODE, duration, success: false, status: "canceled", ...tokens });
    return;
  }
  emit("error", { error: outcome.error });
  emit("done", { exitCode: 1, duration, success: false, status: "failed", ...tokens });
}

/** A JSON-RPC error as the SDK hands it over: `code`, `message`, and the agent's details in `data`. */
export interface RpcErrorShape {
  code: number;
  message: string;
  data?: unknown;
}

const JSON_RPC_AUTH_REQUIRED = -32000;
const JSON_RPC_RESOURCE_NOT_FOUND = -32002;
/** "Session 9f2c… not found": the words between are bounded, or "session session …" would be tried pair by pair. */
const SESSION_NOT_FOUND_TEXT = /\b(session\b.{0,80}\bnot found|unknown session|no such session|session does not exist|no conversation found)/i;
/**
 * Agents that wrap an HTTP error name its status in many ways: "status": 401, "HTTP 429", "status code 503". The blanks
 * after a separator belong to it, so no run of blanks is split between two quantifiers.
 */
const STATUS_IN_TEXT = /\b(?:status(?:[ _]?code)?|http)["']?\s*(?:[:=]\s*)?(\d{3})\b/i;

/**
 * A JSON-RPC error to a request → the ProtocolError it means. The real shapes: code 401 with the raw HTTP body
 * (Gemini), -32603 "Internal error" with the details in `data` (Qwen, opencode, Codex), -32000 "Authentication
 * required" (the newest Claude adapter).
 */
export function protocolErrorOfRpcError(error: RpcErrorShape): ProtocolError {
  const details = detailsText(error.data);
  const text = details === "" || details === error.message ? error.message : `${error.message}: ${details}`;
  // An API's JSON error body passed on as the message or the details (Gemini CLI's 401): its words, not its JSON.
  const api = apiErrorBody(text);
  return { code: codeOfRpcError(error, text, api?.code), message: api === undefined ? text : apiErrorText(api), recoverable: false };
}

function codeOfRpcError(error: RpcErrorShape, text: string, bodyStatus: number | undefined): ProtocolErrorCode {
  const read = meaningfulPart(text);
  if (error.code === JSON_RPC_AUTH_REQUIRED && /auth/i.test(error.message)) return "AUTH_EXPIRED";
  if (error.code === JSON_RPC_RESOURCE_NOT_FOUND || SESSION_NOT_FOUND_TEXT.test(read)) return "SESSION_NOT_FOUND";
  return errorCodeFor(read, httpStatusOf(error, read) ?? bodyStatus);
}

/** An HTTP status: the JSON-RPC code itself when it is one (Gemini's 401), or one named in the details. */
function httpStatusOf(error: RpcErrorShape, text: string): number | null {
  if (error.code >= 400 && error.code <= 599) return error.code;
  if (isRecord(error.data)) {
    for (const key of ["status", "statusCode", "httpStatus"]) {
      const value = error.data[key];
      if (typeof value === "number" && value >= 400 && value <= 599) return value;
    }
  }
  const match = STATUS_IN_TEXT.exec(text);
  return match === null ? null : Number(match[1]);
}

const MAX_DETAILS_CHARS = 2000;

function detailsText(data: unknown): string {
  if (data === undefined || data === null) return "";
  if (typeof data === "string") return data.slice(0, MAX_DETAILS_CHARS);
  if (isRecord(data) && typeof data.details === "string") return data.details.slice(0, MAX_DETAILS_CHARS);
  if (isRecord(data) && typeof data.message === "string") return data.message.slice(0, MAX_DETAILS_CHARS);
  try {
    return JSON.stringify(data).slice(0, MAX_DETAILS_CHARS);
  } catch {
    return "";
  }
}

/** The agent process ended while a turn ran: its last stderr lines are the only explanation there is. */
export function crashedError(exitCode: number | null, signal: string | null, stderrTail: string): ProtocolError {
  const how = signal !== null ? `was ended by ${signal}` : `exited with code ${exitCode ?? "unknown"}`;
  const tail = stderrExcerpt(stderrTail);
  return {
    code: "PROCESS_CRASHED",
    message: tail === "" ? `The agent ${how} during the turn.` : `The agent ${how} during the turn. Its last output on stderr:\n${tail}`,
    recoverable: false,
  };
}
