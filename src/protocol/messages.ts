// The contract between the extension host and the chat webview: what the host tells the view (a snapshot,
// then changes), and the small set of intents the view may send back. Both sides use these schemas.
import { z } from "zod";
import { SESSION_STATES } from "../session/session-state";
import { DoneSummarySchema, FinalStatusSchema, ProblemSchema, TranscriptBlockSchema } from "./transcript";

export const SessionStateSchema = z.enum(SESSION_STATES);

export const TranscriptChangeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("block-added"), index: z.number().int().nonnegative(), block: TranscriptBlockSchema }),
  z.object({ kind: z.literal("text-appended"), index: z.number().int().nonnegative(), text: z.string() }),
  z.object({ kind: z.literal("block-updated"), index: z.number().int().nonnegative(), block: TranscriptBlockSchema }),
]);
export type TranscriptChange = z.infer<typeof TranscriptChangeSchema>;

export const SessionChangeSchema = z.discriminatedUnion("kind", [
  ...TranscriptChangeSchema.options,
  z.object({ kind: z.literal("state"), state: SessionStateSchema }),
  z.object({ kind: z.literal("problem"), problem: ProblemSchema }),
  z.object({ kind: z.literal("done"), done: DoneSummarySchema, status: FinalStatusSchema }),
]);
export type SessionChange = z.infer<typeof SessionChangeSchema>;

/** Editor context sent with a prompt: a one-line summary for the view, and the text the agent receives. */
export const PromptContextSchema = z.object({ summary: z.string(), text: z.string() });
export type PromptContext = z.infer<typeof PromptContextSchema>;

/** One prompt and the assistant's answer to it. (Defaults keep turns saved by earlier versions readable.) */
export const TurnSchema = z.object({
  id: z.number().int().nonnegative(),
  prompt: z.string(),
  /** Who answered: "Locus", "Built-in agent", a replayed file's name… */
  agent: z.string(),
  state: SessionStateSchema,
  blocks: z.array(TranscriptBlockSchema),
  problems: z.array(ProblemSchema),
  done: DoneSummarySchema.nullable(),
  status: FinalStatusSchema.nullable(),
  /** What the editor added to the prompt (workspace folder, active file, selection), or null. */
  context: PromptContextSchema.nullable().default(null),
  /** A prompt the agent answers, or a recorded stream shown as it was (nothing ran; its error cards have no actions). */
  origin: z.enum(["prompt", "replay"]).default("prompt"),
});
export type Turn = z.infer<typeof TurnSchema>;

export const HostMessageSchema = z.discriminatedUnion("type", [
  /** The whole conversation: sent after `ready`, so a reloaded view loses nothing. */
  z.object({
    type: z.literal("snapshot"),
    turns: z.array(TurnSchema),
    /** Why no CLI can run here (Restricted Mode), or null. */
    restriction: z.string().nullable(),
  }),
  z.object({ type: z.literal("turn-started"), turn: TurnSchema }),
  /** Changes to one turn, in order, batched by the host. */
  z.object({ type: z.literal("changes"), turnId: z.number().int().nonnegative(), changes: z.array(SessionChangeSchema) }),
  z.object({ type: z.literal("cleared") }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** What an error card's button asks the host to do; the host maps each to a real action. */
export const ERROR_ACTIONS = ["setCliPath", "useBuiltinAgent", "showLog", "logIn", "retry", "newSession"] as const;
export const ErrorActionSchema = z.enum(ERROR_ACTIONS);
export type ErrorAction = z.infer<typeof ErrorActionSchema>;

export const MAX_PROMPT_CHARS = 100_000;
export const MAX_COPY_CHARS = 10 * 1024 * 1024;

/** Everything the webview may ask for. Anything else is dropped and logged by the host. */
export const WebviewIntentSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready") }),
  z.strictObject({ type: z.literal("send"), prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS) }),
  z.strictObject({ type: z.literal("stop") }),
  z.strictObject({ type: z.literal("newSession") }),
  /** The host opens it only after its own check (http and https only). */
  z.strictObject({ type: z.literal("openLink"), url: z.string().max(8192) }),
  z.strictObject({ type: z.literal("copy"), text: z.string().max(MAX_COPY_CHARS) }),
  z.strictObject({ type: z.literal("errorAction"), action: ErrorActionSchema, turnId: z.number().int().nonnegative() }),
]);
export type WebviewIntent = z.infer<typeof WebviewIntentSchema>;
