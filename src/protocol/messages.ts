// The contract between the extension host and the chat webview: what the host tells the view (a snapshot,
// then changes), and the small set of intents the view may send back. Both sides use these schemas.
import * as z from "zod/mini";
import { SESSION_STATES } from "./session-states";
import { SessionIdSchema } from "./session-id";
import { DoneSummarySchema, FinalStatusSchema, ProblemSchema, TranscriptBlockSchema } from "./transcript";
import { MAX_IMAGES } from "./image-bytes";
import { PromptImageSchema } from "./prompt-parts";
import { ContextUseSchema, UsageCostSchema } from "./usage";

export const SessionStateSchema = z.enum(SESSION_STATES);

/** 0, 1, 2…: a position in a list, or a turn's id. */
const WholeNumberSchema = z.number().check(z.int(), z.nonnegative());

export const TranscriptChangeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("block-added"), index: WholeNumberSchema, block: TranscriptBlockSchema }),
  z.object({ kind: z.literal("text-appended"), index: WholeNumberSchema, text: z.string() }),
  z.object({ kind: z.literal("block-updated"), index: WholeNumberSchema, block: TranscriptBlockSchema }),
  /** The text block at `index` reached its size limit: `truncatedChars` more characters (so far) were dropped. */
  z.object({ kind: z.literal("text-truncated"), index: WholeNumberSchema, truncatedChars: WholeNumberSchema }),
]);
export type TranscriptChange = z.infer<typeof TranscriptChangeSchema>;

export const SessionChangeSchema = z.discriminatedUnion("kind", [
  ...TranscriptChangeSchema.def.options,
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
  id: WholeNumberSchema,
  prompt: z.string(),
  /** Who answered: "Locus", "Built-in agent", a replayed file's name… */
  agent: z.string(),
  state: SessionStateSchema,
  blocks: z.array(TranscriptBlockSchema),
  problems: z.array(ProblemSchema),
  done: z.nullable(DoneSummarySchema),
  status: z.nullable(FinalStatusSchema),
  /** What the editor added to the prompt (workspace folder, active file, selection), or null. */
  context: z._default(z.nullable(PromptContextSchema), null),
  /** A prompt the agent answers, or a recorded stream shown as it was (nothing ran; its error cards have no actions). */
  origin: z._default(z.enum(["prompt", "replay"]), "prompt"),
});

/** The turns a window saved, as it reads them back after a reload. */
export const SavedTurnsSchema = z.array(TurnSchema);

/** The agent CLI's conversation a follow-up continues (kept across a reload): the agent that holds it and its id. */
export const CliConversationSchema = z.object({ agent: z.string(), id: z.string().check(z.regex(/^[0-9a-f-]{36}$/)) });
export type CliConversation = z.infer<typeof CliConversationSchema>;

export type Turn = z.infer<typeof TurnSchema>;

/** Which session a message is about: a view shows one session at a time, and drops news of any other. */
const AboutSession = { sessionId: SessionIdSchema };

/** What the chat's header says of the session it shows. */
export const SessionHeaderSchema = z.object({
  title: z.string(),
  /** The name people know the session's agent by ("Claude Code", "Built-in agent"). */
  agent: z.string(),
  /**
   * When new sessions would get another agent than this one (the settings changed, or `npm start`'s built-in agent
   * stands in for a configured CLI): that agent's name, so the header can offer it. Null otherwise.
   */
  otherAgent: z.nullable(z.string()),
});
export type SessionHeader = z.infer<typeof SessionHeaderSchema>;

/** A selection attached to a prompt keeps at most this much of its text (the agent is told when it is cut). */
export const MAX_ATTACHED_SELECTION_CHARS = 32 * 1024;

/**
 * What a prompt may carry besides its words: a file or folder picked with @, or a selection ("Add Selection to Chat"),
 * by its path (relative to the workspace folder; absolute in a multi-root one) and, for a selection, its lines and text.
 */
export const AttachmentSchema = z.strictObject({
  path: z.string().check(z.minLength(1), z.maxLength(1024)),
  kind: z.enum(["file", "folder", "selection"]),
  lines: z.optional(z.strictObject({ start: z.number().check(z.int(), z.gte(1)), end: z.number().check(z.int(), z.gte(1)) })),
  text: z.optional(z.string().check(z.maxLength(MAX_ATTACHED_SELECTION_CHARS))),
  /** The editor's language id, for the selection's code fence. */
  language: z.optional(z.string().check(z.maxLength(64))),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A file or folder the @ picker offers, and that a prompt may carry: relative to the workspace folder (absolute in a multi-root one). */
export const PickedFileSchema = z.object({ path: z.string(), kind: z.enum(["file", "folder"]), open: z.boolean() });
export type PickedFile = z.infer<typeof PickedFileSchema>;

/** One value a picker offers. */
const ControlChoiceSchema = z.object({ id: z.string(), name: z.string(), description: z.nullable(z.string()) });

/**
 * A picker of the header: what the agent says the setting is now (`currentId`), what the user chose for the session
 * (null: the default), and what is offered (empty: the agent names its value but lists no others).
 */
const ControlSettingSchema = z.object({ currentId: z.string(), chosenId: z.nullable(z.string()), offered: z.array(ControlChoiceSchema) });

/** What the header's pickers show; see AgentControls in src/panel/agent-controls.ts. */
export const AgentControlsSchema = z.object({
  /** Each mode marked when the agent approves its own actions in it (nobody is asked): shown in warning colours. */
  mode: z.nullable(z.object({ ...ControlSettingSchema.shape, offered: z.array(z.object({ ...ControlChoiceSchema.shape, approvesItself: z.boolean() })) })),
  model: z.nullable(ControlSettingSchema),
  /** The agent's other config options (ACP `configOptions`), by their ids: a list of values, or On/Off for a boolean. */
  options: z.array(z.object({ ...ControlSettingSchema.shape, optionId: z.string(), name: z.string() })),
  /** Whether a choice reaches the agent at once (ACP, Claude's control requests) or only with the next prompt. */
  appliesAt: z.enum(["now", "next-turn"]),
  /** A choice is on its way to the agent: the pickers show it until the agent answers (then, what the agent says). */
  applying: z.boolean(),
  /** Why the agent refused the last choice (the picker went back), or null. */
  refusal: z.nullable(z.string()),
});
export type AgentControls = z.infer<typeof AgentControlsSchema>;

export const HostMessageSchema = z.discriminatedUnion("type", [
  /** The whole session: sent after `ready` and when the view moves to another session, so a view loses nothing. */
  z.object({
    type: z.literal("snapshot"),
    ...AboutSession,
    header: SessionHeaderSchema,
    turns: z.array(TurnSchema),
    /** Why no CLI can run here (Restricted Mode), or null. */
    restriction: z.nullable(z.string()),
  }),
  z.object({ type: z.literal("turn-started"), ...AboutSession, turn: TurnSchema }),
  /** Changes to one turn, in order, batched by the host. */
  z.object({ type: z.literal("changes"), ...AboutSession, turnId: WholeNumberSchema, changes: z.array(SessionChangeSchema) }),
  /** The session was renamed, or its agent gave it a title. */
  z.object({ type: z.literal("header"), ...AboutSession, header: SessionHeaderSchema }),
  /** The answer to the view's `checkPaths`, to that view only: of the paths it asked about, those that are workspace files. */
  z.object({ type: z.literal("pathsChecked"), ...AboutSession, checked: z.array(z.string()), found: z.array(z.string()) }),
  /** The slash commands the session's agent takes (ACP `available_commands_update`, Claude's init): `/` completes them. */
  z.object({
    type: z.literal("commands"),
    ...AboutSession,
    commands: z.array(z.object({ name: z.string(), description: z.string() })),
  }),
  /**
   * The messages waiting for the running turn, in the order they will be sent; `held`: the last turn did not complete,
   * so they wait for the user's word (a failed turn never sends the queue unasked).
   */
  z.object({
    type: z.literal("queue"),
    ...AboutSession,
    items: z.array(z.object({ id: z.string(), prompt: z.string(), summary: z.nullable(z.string()) })),
    held: z.boolean(),
  }),
  /** "Add Selection to Chat": a chip for the composer of the session's views. */
  z.object({ type: z.literal("attach"), ...AboutSession, attachment: AttachmentSchema }),
  /** The answer to the view's `findFiles` with the same request id, to that view only: the best matches, best first. */
  z.object({ type: z.literal("filesFound"), ...AboutSession, requestId: WholeNumberSchema, files: z.array(PickedFileSchema) }),
  /** The last `send` was not sent, and why (its agent takes no images): the composer says so and gives the draft back. */
  z.object({ type: z.literal("promptRefused"), ...AboutSession, reason: z.string() }),
  /** The header's pickers: the mode, model and config options the agent offers, as they are and as the user chose. */
  z.object({ type: z.literal("controls"), ...AboutSession, controls: AgentControlsSchema }),
  /**
   * What the agent said since the last turn's end (ACP `usage_update`, mid-turn), for the header: how full the model's
   * context is, and what the running turn has added to the session's cost so far; each null once a turn's end says it
   * with that turn's usage.
   */
  z.object({ type: z.literal("context"), ...AboutSession, context: z.nullable(ContextUseSchema), cost: z.nullable(UsageCostSchema) }),
  /**
   * The answer to the view's `dropFiles`, to that view only: chips for the dropped workspace files and folders, and
   * what was refused (not a file or folder inside the workspace), as the drop named it.
   */
  z.object({ type: z.literal("filesDropped"), ...AboutSession, attachments: z.array(AttachmentSchema), refused: z.array(z.string()) }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** What an error card's button asks the host to do; the host maps each to a real action. */
export const ERROR_ACTIONS = ["setCliPath", "useBuiltinAgent", "showLog", "logIn", "retry", "newSession", "openCliEnv"] as const;
export const ErrorActionSchema = z.enum(ERROR_ACTIONS);
export type ErrorAction = z.infer<typeof ErrorActionSchema>;

export const MAX_PROMPT_CHARS = 100_000;
export const MAX_COPY_CHARS = 10 * 1024 * 1024;
/** An agent's option ids are short names ("allow-once"); anything longer is not one of them. */
const MAX_OPTION_ID_CHARS = 1024;
/** A path as an answer writes it; longer is not one. */
export const MAX_WRITTEN_PATH_CHARS = 1024;
/** How many files and folders one prompt may carry. */
export const MAX_ATTACHMENTS = 20;
/** A dropped file's URI: its path (at most 1024 characters) percent-encoded, and its scheme and host. */
export const MAX_DROPPED_URI_CHARS = 4096;
/** The @ picker's query: what was typed after the @. */
export const MAX_FILE_QUERY_CHARS = 200;
/** How many paths one `checkPaths` may ask about. */
export const MAX_CHECKED_PATHS = 100;
const WrittenPathSchema = z.string().check(z.minLength(1), z.maxLength(MAX_WRITTEN_PATH_CHARS));
/** A mode's, model's or config option's id, as the agent state keeps them (agent-state.ts). */
const MAX_SETTING_ID_CHARS = 4096;
/** A permission request's id is the desk's count of its requests: a few digits. */
const MAX_REQUEST_ID_CHARS = 64;

/** What the composer sends, whether it waits for the running turn (`send`) or goes into it (`sendNow`). */
const ComposedPrompt = {
  prompt: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_PROMPT_CHARS)),
  /** Files and folders picked with @: the agent is told of them with the prompt (only workspace files are passed on). */
  attachments: z.optional(z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS))),
  /** Images pasted or dropped in the composer: sent to an agent that takes images, refused (`promptRefused`) otherwise. */
  images: z.optional(z.array(PromptImageSchema).check(z.maxLength(MAX_IMAGES))),
};

/** Everything the webview may ask for. Anything else is dropped and logged by the host. */
export const WebviewIntentSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready") }),
  z.strictObject({
    type: z.literal("send"),
    ...ComposedPrompt,
  }),
  z.strictObject({ type: z.literal("stop") }),
  /** A new session with the same agent; the one shown stays in the Sessions list (and keeps running if it runs). */
  z.strictObject({ type: z.literal("newSession") }),
  /** A new session with an agent the user picks. */
  z.strictObject({ type: z.literal("newSessionWithAgent") }),
  /** The host opens it only after its own check (http and https only). */
  z.strictObject({ type: z.literal("openLink"), url: z.string().check(z.maxLength(8192)) }),
  z.strictObject({ type: z.literal("copy"), text: z.string().check(z.maxLength(MAX_COPY_CHARS)) }),
  z.strictObject({ type: z.literal("errorAction"), action: ErrorActionSchema, turnId: WholeNumberSchema }),
  /** A tool card's "Open Diff": the host opens the editor's diff of that file (before ↔ after) from its own turn. */
  z.strictObject({ type: z.literal("openDiff"), turnId: WholeNumberSchema, blockIndex: WholeNumberSchema, diffIndex: WholeNumberSchema }),
  /**
   * A queued message: removed, moved up or down, or sent now (the running turn is stopped in band and it goes next);
   * `resume` sends a held queue.
   */
  z.strictObject({ type: z.literal("queued"), action: z.enum(["remove", "up", "down", "sendNow"]), id: z.string().check(z.minLength(1), z.maxLength(64)) }),
  z.strictObject({ type: z.literal("resumeQueue") }),
  /** The composer's Add Selection: the host attaches the editor's selection (answered with `attach`). */
  z.strictObject({ type: z.literal("addSelection") }),
  /** The @ picker: the workspace's files and folders best matching what was typed (answered with `filesFound`). */
  z.strictObject({ type: z.literal("findFiles"), requestId: WholeNumberSchema, query: z.string().check(z.maxLength(MAX_FILE_QUERY_CHARS)) }),
  /** Which of these paths, written in answers, are files in the workspace (answered with `pathsChecked`). */
  z.strictObject({ type: z.literal("checkPaths"), paths: z.array(WrittenPathSchema).check(z.maxLength(MAX_CHECKED_PATHS)) }),
  /** A path link: the host opens it at the line only when it is a file inside the workspace. */
  z.strictObject({ type: z.literal("openPath"), path: WrittenPathSchema, line: z.nullable(z.number().check(z.int(), z.gte(1), z.lte(100_000_000))) }),
  /**
   * The user's answer to a permission request, named by its id: one of the agent's options by id, or null when they
   * dismissed it (Escape with no reject option), which is answered `cancelled`, never an allow.
   */
  z.strictObject({
    type: z.literal("answerPermission"),
    turnId: WholeNumberSchema,
    requestId: z.string().check(z.minLength(1), z.maxLength(MAX_REQUEST_ID_CHARS)),
    optionId: z.nullable(z.string().check(z.maxLength(MAX_OPTION_ID_CHARS))),
  }),
  /**
   * The composer's steer key: a message for the running turn, delivered to the agent as it works where it takes one,
   * otherwise the turn is stopped in band and this goes next (as a queued message's Send now). No turn runs: a send.
   * A message with images is never steered (it goes next, after the stop).
   */
  z.strictObject({
    type: z.literal("sendNow"),
    ...ComposedPrompt,
  }),
  /**
   * A header picker: the session's mode, model or one of the agent's config options (`option`, with its id) set to a
   * value the agent offers; null: back to the default (the mode that asks, the agent's own model).
   */
  z.strictObject({
    type: z.literal("chooseSetting"),
    setting: z.enum(["mode", "model", "option"]),
    optionId: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_SETTING_ID_CHARS))),
    value: z.nullable(z.string().check(z.minLength(1), z.maxLength(MAX_SETTING_ID_CHARS))),
  }),
  /**
   * Files and folders dropped on the composer from VS Code's explorer, by the URIs the drop carried (`text/uri-list`,
   * `application/vnd.code.uri-list`): the host makes chips of the workspace ones (`filesDropped`).
   */
  z.strictObject({
    type: z.literal("dropFiles"),
    uris: z.array(z.string().check(z.minLength(1), z.maxLength(MAX_DROPPED_URI_CHARS))).check(z.minLength(1), z.maxLength(MAX_ATTACHMENTS)),
  }),
]);
export type WebviewIntent = z.infer<typeof WebviewIntentSchema>;

/**
 * How every intent travels: with the session the view showed when the user acted. An intent for a session the view no
 * longer shows (it moved on while the message was under way) is dropped, never applied to another session. `ready`
 * names the session a reloaded editor tab showed, or null.
 */
export const IntentEnvelopeSchema = z.strictObject({ sessionId: z.nullable(SessionIdSchema), intent: z.unknown() });
export type IntentEnvelope = { sessionId: string | null; intent: WebviewIntent };
