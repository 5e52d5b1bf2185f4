// Turns another CLI's error (its message, and an HTTP status when it gives one) into the ProtocolError code that
// means the same to a user, so the panel offers the action that helps: log in, retry, start a new session.
import type { ProtocolErrorCode } from "../protocol/events";
import { isRecord } from "../protocol/json-record";

const RULES: readonly { code: ProtocolErrorCode; statuses: readonly number[]; pattern: RegExp }[] = [
  {
    code: "AUTH_EXPIRED",
    statuses: [401, 403],
    pattern: /\b(authenticat|unauthori[sz]ed|invalid[ _-]?(api[ _-]?key|x-api-key|token|credential)|api[ _-]?key|credential|expired[ _-]?token|token[ _-]?(has )?expired|log ?in again|please (run )?\/?login|permission_error|oauth)/i,
  },
  {
    code: "CONTEXT_LIMIT",
    statuses: [413],
    pattern: /\b(context[ _-]?(window|length|limit)|prompt is too long|too many tokens|maximum context|input is too long|request_too_large|(context|request) too large|exceeds? the (model's )?(context|token))/i,
  },
  {
    code: "NETWORK_TIMEOUT",
    statuses: [408, 429, 500, 502, 503, 504, 529],
    pattern: /\b(overloaded|rate[ _-]?limit(ed)?|too many requests|timed? ?out|timeout|ETIMEDOUT|ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|socket hang up|network|connection (error|refused|reset)|fetch failed|internal server error|high demand|bad gateway|service unavailable|gateway timeout|api_error|5\d\d)\b/i,
  },
  {
    // Claude Code, asked to --resume a session it does not have: "No conversation found with session ID: <id>".
    code: "SESSION_NOT_FOUND",
    statuses: [],
    pattern: /\bno conversation found\b/i,
  },
];

/**
 * Characters read at each end of a long error's text. An error says what went wrong at its start (a status,
 * "Authentication required") or at its end (the cause a wrapper adds last); between them lies a response body or a
 * dump, which would only make the work of reading it grow with its size.
 */
const READ_CHARS_AT_EACH_END = 4096;

/** The part of an error's text its meaning is read from: all of a short text, the two ends of a long one. */
export function meaningfulPart(text: string): string {
  if (text.length <= 2 * READ_CHARS_AT_EACH_END) return text;
  // A line break at the cut: no word, and so no match, is made of the two ends.
  return `${text.slice(0, READ_CHARS_AT_EACH_END)}\n${text.slice(-READ_CHARS_AT_EACH_END)}`;
}

/** The code whose meaning the error has; `UNKNOWN` keeps the CLI's own words as the message. */
export function errorCodeFor(message: string, status?: number | null): ProtocolErrorCode {
  if (typeof status === "number") {
    const byStatus = RULES.find((rule) => rule.statuses.includes(status));
    if (byStatus !== undefined) return byStatus.code;
  }
  const read = meaningfulPart(message);
  return RULES.find((rule) => rule.pattern.test(read))?.code ?? "UNKNOWN";
}

/** What an API's JSON error body says: Google's `{"error": {"code": 401, "message": "…", "status": "UNAUTHENTICATED"}}`. */
export interface ApiErrorBody {
  message: string;
  code: number | undefined;
  status: string | undefined;
}

/** An error body longer than this is not read as one: a real one is a few hundred characters. */
const MAX_API_ERROR_BODY_CHARS = 64 * 1024;

/**
 * The error body an agent passed on in its error text (Gemini CLI over ACP: the raw HTTP body as the JSON-RPC message;
 * after words such as "Internal error: " or "[API Error: "), or undefined when the text holds none. Only its top level
 * is read, so no depth of nesting costs more.
 */
export function apiErrorBody(text: string): ApiErrorBody | undefined {
  const start = text.indexOf('{"error"');
  const end = text.lastIndexOf("}") + 1;
  if (start === -1 || end - start > MAX_API_ERROR_BODY_CHARS) return undefined;
  const body = text.slice(start, end);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  if (error === undefined || typeof error.message !== "string" || error.message.trim() === "") return undefined;
  return { message: error.message, code: typeof error.code === "number" ? error.code : undefined, status: typeof error.status === "string" ? error.status : undefined };
}

/** The body's words, then its status: "API key not valid. (HTTP 401, UNAUTHENTICATED)". */
export function apiErrorText(api: ApiErrorBody): string {
  if (api.code === undefined) return api.status === undefined ? api.message : `${api.message} (${api.status})`;
  return `${api.message} (HTTP ${api.code}${api.status === undefined ? "" : `, ${api.status}`})`;
}
