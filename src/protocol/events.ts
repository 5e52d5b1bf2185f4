// Protocol 1 of the Locus JSON stream (../shared/protocols/locus-json-stream.md):
// the contract every dialect adapter translates into. Types are z.infer of these schemas.
import { z } from "zod";
import { PROTOCOL_VERSION } from "./version";

export { PROTOCOL_VERSION };

export const PROTOCOL_ERROR_CODES = [
  "CLI_NOT_FOUND",
  "AUTH_EXPIRED",
  "NETWORK_TIMEOUT",
  "CONTEXT_LIMIT",
  "MALFORMED_EVENT",
  "PROCESS_CRASHED",
  "SESSION_NOT_FOUND",
  "UNKNOWN",
] as const;

export const ProtocolErrorCodeSchema = z.enum(PROTOCOL_ERROR_CODES);
export type ProtocolErrorCode = z.infer<typeof ProtocolErrorCodeSchema>;

export const ProtocolErrorSchema = z.object({
  code: ProtocolErrorCodeSchema,
  message: z.string(),
  recoverable: z.boolean(),
});
export type ProtocolError = z.infer<typeof ProtocolErrorSchema>;

export const StartPayloadSchema = z.object({
  command: z.string(),
  model: z.string().optional(),
  provider: z.string().optional(),
  cwd: z.string().optional(),
});

export const ContentPayloadSchema = z.object({ content: z.string() });

export const ToolStartedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

export const ToolCompletedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.string().optional(),
  success: z.boolean(),
  duration: z.number().nonnegative().optional(),
  error: z.string().optional(),
});

export const StatusPayloadSchema = z.object({
  status: z.string(),
  message: z.string().optional(),
});

export const ErrorPayloadSchema = z.object({ error: ProtocolErrorSchema });

export const DonePayloadSchema = z.object({
  exitCode: z.number().int(),
  duration: z.number().nonnegative(),
  toolsUsed: z.array(z.string()).optional(),
  tokensUsed: z.number().nonnegative().optional(),
  success: z.boolean(),
});

function envelope<T extends string, P extends z.ZodType>(type: T, payload: P) {
  return z.object({
    protocol: z.number().int().positive(),
    type: z.literal(type),
    sessionId: z.string(),
    timestamp: z.number(),
    payload,
  });
}

export const StartEventSchema = envelope("start", StartPayloadSchema);
export const TextDeltaEventSchema = envelope("text_delta", ContentPayloadSchema);
export const ThinkingEventSchema = envelope("thinking", ContentPayloadSchema);
export const ToolStartedEventSchema = envelope("tool_started", ToolStartedPayloadSchema);
export const ToolCompletedEventSchema = envelope("tool_completed", ToolCompletedPayloadSchema);
export const StatusEventSchema = envelope("status", StatusPayloadSchema);
export const ErrorEventSchema = envelope("error", ErrorPayloadSchema);
export const DoneEventSchema = envelope("done", DonePayloadSchema);

export const CliStreamEventSchema = z.discriminatedUnion("type", [
  StartEventSchema,
  TextDeltaEventSchema,
  ThinkingEventSchema,
  ToolStartedEventSchema,
  ToolCompletedEventSchema,
  StatusEventSchema,
  ErrorEventSchema,
  DoneEventSchema,
]);

export type CliStreamEvent = z.infer<typeof CliStreamEventSchema>;
export type CliEventType = CliStreamEvent["type"];
export type EventOfType<T extends CliEventType> = Extract<CliStreamEvent, { type: T }>;
export type DonePayload = z.infer<typeof DonePayloadSchema>;

/** Per-type schemas, so a line is checked against its own type's schema only. */
export const EVENT_SCHEMAS: { readonly [T in CliEventType]: z.ZodType<EventOfType<T>> } = {
  start: StartEventSchema,
  text_delta: TextDeltaEventSchema,
  thinking: ThinkingEventSchema,
  tool_started: ToolStartedEventSchema,
  tool_completed: ToolCompletedEventSchema,
  status: StatusEventSchema,
  error: ErrorEventSchema,
  done: DoneEventSchema,
};

export function isCliEventType(type: unknown): type is CliEventType {
  return typeof type === "string" && Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, type);
}

/** The part of every event that is the same whatever its type. */
export const EnvelopeSchema = z.object({
  protocol: z.number().int().positive(),
  type: z.string(),
  sessionId: z.string(),
  timestamp: z.number(),
  payload: z.record(z.string(), z.unknown()),
});
