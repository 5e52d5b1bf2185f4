// Builds valid protocol-1 events and NDJSON streams for tests, so each test states only what it is about.
import type { CliEventType, CliStreamEvent, EventOfType, ProtocolErrorCode } from "../../src/protocol/events";

export const SESSION_ID = "3b241101-e2bb-4255-8caf-4136c566a962";
/** The protocol document's example timestamp. */
export const T0 = 1707700000000;

/** Envelope fields a test may override; everything else is protocol 1's defaults. */
export type EnvelopeOverrides = Partial<Pick<CliStreamEvent, "protocol" | "sessionId" | "timestamp">>;

export function event<T extends CliEventType>(
  type: T,
  payload: EventOfType<T>["payload"],
  overrides: EnvelopeOverrides = {},
): EventOfType<T> {
  // TypeScript cannot narrow a generic discriminant; the parameter types keep payload and type paired.
  return { protocol: 1, sessionId: SESSION_ID, timestamp: T0, ...overrides, type, payload } as EventOfType<T>;
}

export function start(payload: Partial<EventOfType<"start">["payload"]> = {}, overrides?: EnvelopeOverrides): EventOfType<"start"> {
  return event("start", { command: "exec", ...payload }, overrides);
}

export function textDelta(content: string, overrides?: EnvelopeOverrides): EventOfType<"text_delta"> {
  return event("text_delta", { content }, overrides);
}

export function thinking(content: string, overrides?: EnvelopeOverrides): EventOfType<"thinking"> {
  return event("thinking", { content }, overrides);
}

export function toolStarted(
  tool: string,
  toolId?: string,
  parameters?: Record<string, unknown>,
  overrides?: EnvelopeOverrides,
): EventOfType<"tool_started"> {
  return event("tool_started", { tool, ...(toolId === undefined ? {} : { toolId }), ...(parameters === undefined ? {} : { parameters }) }, overrides);
}

export function toolCompleted(
  tool: string,
  toolId?: string,
  result: Omit<EventOfType<"tool_completed">["payload"], "tool" | "toolId" | "success"> & { success?: boolean } = {},
  overrides?: EnvelopeOverrides,
): EventOfType<"tool_completed"> {
  return event("tool_completed", { tool, ...(toolId === undefined ? {} : { toolId }), success: true, ...result }, overrides);
}

export function status(value: string, message?: string, overrides?: EnvelopeOverrides): EventOfType<"status"> {
  return event("status", { status: value, ...(message === undefined ? {} : { message }) }, overrides);
}

export function errorEvent(
  code: ProtocolErrorCode,
  message: string,
  recoverable = false,
  overrides?: EnvelopeOverrides,
): EventOfType<"error"> {
  return event("error", { error: { code, message, recoverable } }, overrides);
}

/** A `done`; `success` follows `exitCode` unless given. */
export function done(
  payload: Partial<EventOfType<"done">["payload"]> = {},
  overrides?: EnvelopeOverrides,
): EventOfType<"done"> {
  const exitCode = payload.exitCode ?? 0;
  return event("done", { exitCode, duration: 0, success: exitCode === 0, ...payload }, overrides);
}

/** One JSON object per line, each line ended (the last one too), as a CLI writes them. */
export function toNdjson(events: readonly unknown[], lineEnding: "\n" | "\r\n" = "\n"): string {
  return events.map((e) => JSON.stringify(e) + lineEnding).join("");
}

/** What a child's stdout looks like to the reader: the given chunks, one at a time, asynchronously. */
export async function* chunksOf<T extends Uint8Array | string>(chunks: Iterable<T>): AsyncGenerator<T> {
  for (const chunk of chunks) yield chunk;
}
