// The transcript a session keeps: what the panel shows and what `agent-stream transcript --format json` prints.
import * as z from "zod/mini";
import { ProtocolErrorCodeSchema } from "./events";

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
});
export const StatusBlockSchema = z.object({
  kind: z.literal("status"),
  status: z.string(),
  message: z.nullable(z.string()),
});
export const ErrorBlockSchema = z.object({
  kind: z.literal("error"),
  code: ProtocolErrorCodeSchema,
  message: z.string(),
  recoverable: z.boolean(),
});

export const TranscriptBlockSchema = z.discriminatedUnion("kind", [
  TextBlockSchema,
  ThinkingBlockSchema,
  ToolCardSchema,
  StatusBlockSchema,
  ErrorBlockSchema,
]);
export type TranscriptBlock = z.infer<typeof TranscriptBlockSchema>;
export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type ToolCard = z.infer<typeof ToolCardSchema>;
export type ErrorBlock = z.infer<typeof ErrorBlockSchema>;

export const DoneSummarySchema = z.object({
  exitCode: z.number().check(z.int()),
  durationMs: z.number(),
  toolsUsed: z.array(z.string()),
  tokensUsed: z.nullable(z.number()),
  success: z.boolean(),
  synthesized: z.boolean(),
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
