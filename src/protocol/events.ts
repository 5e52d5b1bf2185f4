// Protocol 1 of the Locus JSON stream (docs/protocols/locus-json-stream.md):
// the contract every dialect adapter translates into. Types are z.infer of these schemas.
// zod/mini: the same checks as zod's classic API, and only what is used reaches the bundles.
import { en } from "zod/locales";
import * as z from "zod/mini";
import { TurnUsageSchema } from "./usage";
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

/**
 * Why an error happened, when the run knows more than the CLI said. An environment cause is fixed in the agent's
 * environment (`agentStream.cli.env`), so the card offers to open it: it names the variable, never its value. A refusal
 * is no fault: every call the turn would have done was refused (`calls`, as their cards said them), so nothing was done.
 */
export const ErrorCauseSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["api-key-rejected", "root-refused"]), variable: z.string() }),
  z.object({ kind: z.literal("refused"), calls: z.array(z.string()) }),
]);
export type ErrorCause = z.infer<typeof ErrorCauseSchema>;

export const ProtocolErrorSchema = z.object({
  code: ProtocolErrorCodeSchema,
  message: z.string(),
  recoverable: z.boolean(),
  cause: z.optional(ErrorCauseSchema),
});
export type ProtocolError = z.infer<typeof ProtocolErrorSchema>;

export const StartPayloadSchema = z.object({
  command: z.string(),
  model: z.optional(z.string()),
  /** The mode the agent says it runs in (Claude Code's `permissionMode`: `default`, `plan`, …). */
  mode: z.optional(z.string()),
  /** The slash commands the agent takes in a prompt (Claude Code's `slash_commands`, less the terminal-only ones). */
  commands: z.optional(z.array(z.string())),
  provider: z.optional(z.string()),
  cwd: z.optional(z.string()),
  /** The dialect the writer read these events from (`acp`), so a stream read back says where it came from. */
  dialect: z.optional(z.string()),
});

export const ContentPayloadSchema = z.object({ content: z.string() });

/**
 * A file a tool changes, as the agent reports it (ACP `diff` content): `oldText` null for a new file. `excerpt`: the
 * texts are only the part the tool replaced (an edit's old and new string), not the whole file.
 */
export const ToolDiffSchema = z.object({ path: z.string(), oldText: z.nullable(z.string()), newText: z.string(), excerpt: z.optional(z.boolean()) });
/** A place in a file a tool works on (ACP `locations`). */
export const ToolLocationSchema = z.object({ path: z.string(), line: z.nullable(z.number()) });

// What agents that say more about a tool tell (ACP): all optional, so protocol 1 streams stay valid as they are.
export const ToolStartedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.unknown())),
  /** The kind of tool (ACP: read, edit, execute, …). */
  kind: z.optional(z.string()),
  /** The agent's own one-line title for the call. */
  title: z.optional(z.string()),
  locations: z.optional(z.array(ToolLocationSchema)),
});

export const ToolCompletedPayloadSchema = z.object({
  tool: z.string(),
  toolId: z.optional(z.string()),
  success: z.boolean(),
  duration: z.optional(z.number().check(z.nonnegative())),
  error: z.optional(z.string()),
  /** What the tool printed or returned, as text. */
  output: z.optional(z.string()),
  diffs: z.optional(z.array(ToolDiffSchema)),
});

export const TOOL_UPDATE_STATUSES = ["pending", "in_progress", "completed", "failed"] as const;

/** A running tool call changed (ACP `tool_call_update`): only the fields present apply; a final status completes it. */
export const ToolUpdatedPayloadSchema = z.object({
  toolId: z.string(),
  tool: z.optional(z.string()),
  title: z.optional(z.string()),
  kind: z.optional(z.string()),
  status: z.optional(z.enum(TOOL_UPDATE_STATUSES)),
  output: z.optional(z.string()),
  diffs: z.optional(z.array(ToolDiffSchema)),
  locations: z.optional(z.array(ToolLocationSchema)),
});

export const PERMISSION_OPTION_KINDS = ["allow_once", "allow_always", "reject_once", "reject_always"] as const;
export const PermissionOptionSchema = z.object({ id: z.string(), name: z.string(), kind: z.enum(PERMISSION_OPTION_KINDS) });
export const PERMISSION_DECISIONS = ["allowed", "rejected", "cancelled"] as const;

/** The agent asks before it acts: the options in its words. */
export const PermissionRequestedPayloadSchema = z.object({
  requestId: z.string(),
  toolId: z.optional(z.string()),
  title: z.string(),
  toolKind: z.optional(z.string()),
  options: z.array(PermissionOptionSchema),
  /** Files the request names outside the workspace folders: never answered "allow" without the user. */
  outsideWorkspace: z.optional(z.array(z.string())),
});

/**
 * The one answer to a permission request, and who gave it (`cancelled`: nobody; Stop or close). `by` absent: not
 * known, as in a replayed ACP log (dialect `acp`), whose wire carries the answer but not who chose it.
 */
export const PermissionAnsweredPayloadSchema = z.object({
  requestId: z.string(),
  decision: z.enum(PERMISSION_DECISIONS),
  optionId: z.optional(z.string()),
  by: z.optional(z.enum(["user", "setting", "remembered", "cancelled"])),
});

export const PlanEntrySchema = z.object({
  content: z.string(),
  priority: z.enum(["high", "medium", "low"]),
  status: z.enum(["pending", "in_progress", "completed"]),
});
/** The agent's whole plan: each one replaces the one before. */
export const PlanPayloadSchema = z.object({ entries: z.array(PlanEntrySchema) });

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
  /** The turn's tokens, cost and context as the agent counted them (an extension of protocol 1; absent: not said). */
  usage: z.optional(TurnUsageSchema),
  success: z.boolean(),
  /**
   * How the turn ended, when the writer knows better than `success` can say (a stopped run is `canceled`, not
   * `failed`). Written by the session into the streams it normalizes; absent in protocol 1 as specified.
   */
  status: z.optional(z.enum(["completed", "failed", "canceled"])),
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
export const ToolUpdatedEventSchema = envelope("tool_updated", ToolUpdatedPayloadSchema);
export const PermissionRequestedEventSchema = envelope("permission_requested", PermissionRequestedPayloadSchema);
export const PermissionAnsweredEventSchema = envelope("permission_answered", PermissionAnsweredPayloadSchema);
export const PlanEventSchema = envelope("plan", PlanPayloadSchema);
export const StatusEventSchema = envelope("status", StatusPayloadSchema);
export const ErrorEventSchema = envelope("error", ErrorPayloadSchema);
export const DoneEventSchema = envelope("done", DonePayloadSchema);

export const CliStreamEventSchema = z.discriminatedUnion("type", [
  StartEventSchema,
  TextDeltaEventSchema,
  ThinkingEventSchema,
  ToolStartedEventSchema,
  ToolCompletedEventSchema,
  ToolUpdatedEventSchema,
  PermissionRequestedEventSchema,
  PermissionAnsweredEventSchema,
  PlanEventSchema,
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
  tool_updated: ToolUpdatedEventSchema,
  permission_requested: PermissionRequestedEventSchema,
  permission_answered: PermissionAnsweredEventSchema,
  plan: PlanEventSchema,
  status: StatusEventSchema,
  error: ErrorEventSchema,
  done: DoneEventSchema,
};

/** The part of every event that is the same whatever its type. */
export const EnvelopeSchema = z.object({
  protocol: z.number().check(z.int(), z.positive()),
  type: z.string(),
  sessionId: z.string(),
  timestamp: z.number(),
  payload: z.record(z.string(), z.unknown()),
});
