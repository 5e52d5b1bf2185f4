// Protocol 1 of the Locus JSON stream (docs/protocols/locus-json-stream.md):
// the contract every dialect adapter translates into. Types are z.infer of these schemas.
// zod/mini: the same checks as zod's classic API, and only what is used reaches the bundles.
import { en } from "zod/locales";
import * as z from "zod/mini";
import { PROTOCOL_VERSION } from "./version";

// zod/mini words every issue "Invalid input" until given a locale (classic zod sets English itself), and
// describeIssues passes some issues on as zod words them: "Too small: expected number to be >0".
z.config(en());

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
  model: z.optional(z.string()),
  provider: z.optional(z.string()),
  cwd: z.optional(z.string()),
});

export const ContentPayloadSchema = z.object({ content: z.string() });

export const ToolStartedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.unknown())),
});

export const ToolCompletedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.optional(z.string()),
  success: z.boolean(),
  duration: z.optional(z.number().check(z.nonnegative())),
  error: z.optional(z.string()),
});

export const StatusPayloadSchema = z.object({
  status: z.string(),
  message: z.optional(z.string()),
});

export const ErrorPayloadSchema = z.object({ error: ProtocolErrorSchema });

export const DonePayloadSchema = z.object({
  exitCode: z.number().check(z.int()),
  duration: z.number().check(z.nonnegative()),
  toolsUsed: z.optional(z.array(z.string())),
  tokensUsed: z.optional(z.number().check(z.nonnegative())),
  success: z.boolean(),
});

function envelope<T extends string, P extends z.ZodMiniType>(type: T, payload: P) {
  return z.object({
    protocol: z.number().check(z.int(), z.positive()),
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
export const EVENT_SCHEMAS: { readonly [T in CliEventType]: z.ZodMiniType<EventOfType<T>> } = {
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
  protocol: z.number().check(z.int(), z.positive()),
  type: z.string(),
  sessionId: z.string(),
  timestamp: z.number(),
  payload: z.record(z.string(), z.unknown()),
});
