// Many conversations (issue 23): what a session is on disk and in the Sessions view, shared by the store, the
// registry, the view and the readers of the CLIs' own session stores. Read back through these schemas: a workspace's
// storage and a CLI's store are not trusted.
import * as z from "zod/mini";
import { AgentStateSchema, ChosenAgentSettingsSchema, emptyAgentState } from "./agent-state";
import { AttachmentSchema, MAX_ATTACHMENTS, MAX_PROMPT_CHARS, PromptContextSchema, TurnSchema } from "./messages";
import { MAX_IMAGES } from "./image-bytes";
import { PromptImageSchema } from "./prompt-parts";

import { SessionIdSchema } from "./session-id";

export { SessionIdSchema, type SessionId } from "./session-id";

/** Longer than any real command, argument, id or title: a value this long is not one, and is not kept. */
const MAX_FIELD_CHARS = 4096;
const Field = z.string().check(z.maxLength(MAX_FIELD_CHARS));

/**
 * The agent a session talks to, fixed for the session's life: its profile, the name people know it by ("Claude Code",
 * "Gemini CLI", "Built-in agent") and the command line it runs. Settings changed later affect new sessions only.
 */
export const AgentIdentitySchema = z.object({
  /** A profile name (`claude`, `qwen`, …), or `builtin` for the built-in agent. */
  profile: Field,
  displayName: Field,
  command: Field,
  /** The user's arguments, or null for the profile's own. */
  args: z.nullable(z.array(Field).check(z.maxLength(256))),
  /** The user's arguments added after those (`agentStream.cli.extraArgs`); absent: none (and in older files). */
  extraArgs: z.optional(z.array(Field).check(z.maxLength(256))),
});
export type AgentIdentity = z.infer<typeof AgentIdentitySchema>;

/**
 * The agent's own side of the conversation, what a follow-up (also after a reload) continues. One record for every
 * kind of agent: a stream CLI's conversation id (Claude's `--session-id`/`--resume`, pi's session file), set once the
 * CLI has said something in it; an ACP agent's session id, to `session/resume` or `session/load`.
 */
export const AgentSessionRefSchema = z.object({
  /** The id the CLI knows the conversation by; null before a first prompt. */
  conversationId: z.nullable(Field),
  /** Whether the CLI holds that conversation (it said something in it): only then does a follow-up continue it. */
  spoke: z.boolean(),
  /** An ACP agent's `sessionId`, or null. */
  acpSessionId: z.nullable(Field),
});
export type AgentSessionRef = z.infer<typeof AgentSessionRefSchema>;

/** What the Sessions view says of a session: waiting means a permission request waits for the user. */
export const SESSION_STATUSES = ["new", "running", "waiting", "completed", "failed", "stopped"] as const;
export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** Where a listed session lives: ours, or a CLI's own store that we only read (never write or delete). */
export const SESSION_SOURCES = ["agent-stream", "claude-code", "acp"] as const;
export const SessionSourceSchema = z.enum(SESSION_SOURCES);
export type SessionSource = z.infer<typeof SessionSourceSchema>;

/** Lines added and removed by the files the session's turns changed, where the agent said. */
export const SessionChangesSchema = z.object({ added: z.number().check(z.int(), z.nonnegative()), removed: z.number().check(z.int(), z.nonnegative()) });

/** One row of the Sessions view, and one entry of the store's index: everything the list needs, nothing more. */
export const SessionSummarySchema = z.object({
  id: SessionIdSchema,
  title: Field,
  agent: z.object({ profile: Field, displayName: Field }),
  status: SessionStatusSchema,
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  updatedAt: z.number(),
  turnCount: z.number().check(z.int(), z.nonnegative()),
  changes: z.nullable(SessionChangesSchema),
  source: SessionSourceSchema,
  /**
   * The agent's own id of the conversation it continues (Claude Code's session id), so that the CLI's own listing of
   * that conversation is not shown beside it. Absent in index entries written before it was kept.
   */
  agentConversationId: z.optional(z.nullable(Field)),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const STORED_SESSION_VERSION = 1;

/** A session as its file holds it: the summary's facts and everything needed to show and continue it. */
/** How many prompts a session keeps waiting for its running turn to end; the composer refuses more. */
export const MAX_PENDING_PROMPTS = 50;

/** A prompt the user sent while the session's turn ran: sent, in order, once it ends. */
export const PendingPromptSchema = z.object({
  id: Field,
  prompt: z.string().check(z.maxLength(MAX_PROMPT_CHARS)),
  context: z._default(z.nullable(PromptContextSchema), null),
  /** When the user sent it. */
  createdAt: z.number(),
  /** The files, folders and selection it carries, sent with it; absent in files written before they were kept. */
  attachments: z.optional(z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS))),
  /**
   * Its images. The store keeps their bytes in a file of their own beside the session's (session-store.ts), so that
   * the session's file, written again at every change, does not carry megabytes.
   */
  images: z.optional(z.array(PromptImageSchema).check(z.maxLength(MAX_IMAGES))),
});
export type PendingPrompt = z.infer<typeof PendingPromptSchema>;

export const StoredSessionSchema = z.object({
  version: z.literal(STORED_SESSION_VERSION),
  id: SessionIdSchema,
  title: Field,
  /** Who named it: the first prompt, the agent's own title (ACP `session_info_update`), or the user (Rename). */
  titleSource: z.enum(["prompt", "agent", "user"]),
  agent: AgentIdentitySchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  turns: z.array(TurnSchema),
  agentSession: z.nullable(AgentSessionRefSchema),
  source: SessionSourceSchema,
  /**
   * What the agent last said of the session (modes, model, config options, commands, usage). Absent in files written
   * before it was kept; one that no longer fits is dropped, not the session.
   */
  agentState: z.optional(z.catch(AgentStateSchema, () => emptyAgentState())),
  /** The mode and model the user chose for the session; absent: none chosen. One that no longer fits is dropped. */
  chosen: z.optional(z.catch(ChosenAgentSettingsSchema, () => ({}))),
  /** Prompts waiting for the running turn; a file written before they were kept has none. */
  pendingPrompts: z._default(z.array(PendingPromptSchema).check(z.maxLength(MAX_PENDING_PROMPTS)), []),
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;
