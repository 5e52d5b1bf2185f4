// The transcript a session keeps: what the panel shows and what `agent-stream transcript --format json` prints.
import * as z from "zod/mini";
import {
  ErrorCauseSchema,
  PERMISSION_DECISIONS,
  PERMISSION_OPTION_KINDS,
  PermissionOptionSchema,
  PlanEntrySchema,
  ProtocolErrorCodeSchema,
  ToolDiffSchema,
  ToolLocationSchema,
} from "./events";
import { TurnUsageSchema } from "./usage";

// The shapes an event and a block share are defined once, with the events.
export { PERMISSION_DECISIONS, PERMISSION_OPTION_KINDS, PermissionOptionSchema, PlanEntrySchema, ToolDiffSchema, ToolLocationSchema };

/** Why a line or event could not be used as it was. Data, never an exception. */
export const PROBLEM_CODES = [
  "MALFORMED_EVENT",
  "UNKNOWN_EVENT_TYPE",
  "UNSUPPORTED_PROTOCOL",
  "OUT_OF_ORDER",
  "MISSING_DONE",
] as const;
export const ProblemCodeSchema = z.enum(PROBLEM_CODES);
export type ProblemCode = z.infer<typeof ProblemCodeSchema>;

export const ProblemSchema = z.object({
  line: z.nullable(z.number().check(z.int())),
  code: ProblemCodeSchema,
  message: z.string(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export const TOOL_STATUSES = ["running", "succeeded", "failed", "abandoned"] as const;
export const ToolStatusSchema = z.enum(TOOL_STATUSES);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

/**
 * Characters of a block the session did not keep (a text past its size limit, tool parameters too large to keep).
 * Absent when the block is whole.
 */
const TruncatedCharsSchema = z.optional(z.number().check(z.int(), z.nonnegative()));

export const TextBlockSchema = z.object({ kind: z.literal("text"), text: z.string(), truncatedChars: TruncatedCharsSchema });
export const ThinkingBlockSchema = z.object({ kind: z.literal("thinking"), text: z.string(), truncatedChars: TruncatedCharsSchema });
export type ToolDiff = z.infer<typeof ToolDiffSchema>;
export type ToolLocation = z.infer<typeof ToolLocationSchema>;

export const ToolCardSchema = z.object({
  kind: z.literal("tool"),
  tool: z.string(),
  toolId: z.nullable(z.string()),
  parameters: z.nullable(z.record(z.string(), z.unknown())),
  status: ToolStatusSchema,
  durationMs: z.nullable(z.number()),
  error: z.nullable(z.string()),
  /** Set when the parameters (this many characters of JSON) were too large to keep: `parameters` is then null. */
  truncatedChars: TruncatedCharsSchema,
  // What agents that say more about a tool tell (ACP; Codex and opencode edits). Defaults keep older turns readable.
  /** The kind of tool (ACP: read, edit, delete, move, search, execute, think, fetch, switch_mode, other), or null. */
  toolKind: z._default(z.nullable(z.string()), null),
  /** The agent's own one-line title for the call (`Read src/a.ts`, the command line), or null. */
  title: z._default(z.nullable(z.string()), null),
  /** What the tool printed or returned, as text (bounded like any block), or null. */
  output: z._default(z.nullable(z.string()), null),
  diffs: z._default(z.array(ToolDiffSchema), []),
  locations: z._default(z.array(ToolLocationSchema), []),
});

export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

/** An agent asked before it acts (ACP `session/request_permission`): the options in its words, and what was answered. */
export const PermissionBlockSchema = z.object({
  kind: z.literal("permission"),
  /** The desk's id of the request: an answer names it. Empty in turns saved by versions before it was kept. */
  requestId: z._default(z.string(), ""),
  /** The tool call it is about, when the agent names one. */
  toolId: z.nullable(z.string()),
  title: z.string(),
  options: z.array(PermissionOptionSchema),
  /** Null while the request waits for an answer. */
  decision: z.nullable(z.enum(PERMISSION_DECISIONS)),
  optionId: z.nullable(z.string()),
  /** Who answered: the user, or their auto-answer setting; null while waiting or when cancelled. */
  answeredBy: z._default(z.nullable(z.enum(["user", "setting", "remembered"])), null),
  /** Files the request names outside the workspace folders (as the agent named them); the card warns of them. */
  outsideWorkspace: z._default(z.array(z.string()), []),
});
export type PermissionBlock = z.infer<typeof PermissionBlockSchema>;

export type PlanEntry = z.infer<typeof PlanEntrySchema>;
/** The agent's plan (ACP `plan`): each update replaces the whole plan, in place. */
export const PlanBlockSchema = z.object({ kind: z.literal("plan"), entries: z.array(PlanEntrySchema) });
export type PlanBlock = z.infer<typeof PlanBlockSchema>;
export const StatusBlockSchema = z.object({
  kind: z.literal("status"),
  status: z.string(),
  message: z.nullable(z.string()),
});
/**
 * A message the user sent into the running turn (Send now, or its key): the agent took it without a turn of its own.
 * `untaken`: it never took it (its run ended first), so it went back to the queue: sent as the next message, or put
 * back to wait there (the queue held after a Stop). Absent in turns stored before it was said.
 */
export const SteerBlockSchema = z.object({ kind: z.literal("steer"), text: z.string(), untaken: z.optional(z.enum(["sent next", "queued"])) });
export const ErrorBlockSchema = z.object({
  kind: z.literal("error"),
  code: ProtocolErrorCodeSchema,
  message: z.string(),
  recoverable: z.boolean(),
  cause: z.optional(ErrorCauseSchema),
});

export const TranscriptBlockSchema = z.discriminatedUnion("kind", [
  TextBlockSchema,
  ThinkingBlockSchema,
  ToolCardSchema,
  StatusBlockSchema,
  ErrorBlockSchema,
  PermissionBlockSchema,
  PlanBlockSchema,
  SteerBlockSchema,
]);
export type TranscriptBlock = z.infer<typeof TranscriptBlockSchema>;
export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type ToolCard = z.infer<typeof ToolCardSchema>;
export type ErrorBlock = z.infer<typeof ErrorBlockSchema>;
export type StatusBlock = z.infer<typeof StatusBlockSchema>;
export type SteerBlock = z.infer<typeof SteerBlockSchema>;

export const DoneSummarySchema = z.object({
  exitCode: z.number().check(z.int()),
  durationMs: z.number(),
  toolsUsed: z.array(z.string()),
  tokensUsed: z.nullable(z.number()),
  success: z.boolean(),
  synthesized: z.boolean(),
  /** Tokens in and out, cost and context, as the agent counted them; null: not said (and in turns kept before). */
  usage: z._default(z.nullable(TurnUsageSchema), null),
});
export type DoneSummary = z.infer<typeof DoneSummarySchema>;

export const FINAL_STATUSES = ["completed", "failed", "canceled"] as const;
export const FinalStatusSchema = z.enum(FINAL_STATUSES);
export type FinalStatus = z.infer<typeof FinalStatusSchema>;

export const TranscriptSchema = z.object({
  sessionId: z.nullable(z.string()),
  dialect: z.string(),
  status: FinalStatusSchema,
  blocks: z.array(TranscriptBlockSchema),
  done: DoneSummarySchema,
  problems: z.array(ProblemSchema),
});
export type Transcript = z.infer<typeof TranscriptSchema>;
