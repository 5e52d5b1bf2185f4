// The single conversation versions before sessions kept in the workspace's state (five Memento keys, which
// src/vscode/session-storage.ts reads) as the first session of the store, nothing lost: every turn that still fits its
// schema, the turn that was running when the window went, and what a follow-up continues (the CLI's conversation and
// the ACP agent's session). Pure: the glue reads the five values, saves the session, and only then removes the keys.
import * as z from "zod/mini";
import { CliConversationSchema, TurnSchema, type CliConversation, type Turn } from "../protocol/messages";
import { AgentIdentitySchema, STORED_SESSION_VERSION, type AgentIdentity, type AgentSessionRef, type SessionId, type StoredSession } from "../protocol/sessions";
import { withRequestsCancelled } from "./kept-turns";
import { titleFromPrompt } from "../common/session-title";

/** The five values as the workspace's state holds them (anything, or undefined), under the keys they had. */
export interface StoredConversation {
  /** `agentStream.conversation`: the finished turns. */
  turns: unknown;
  /** `agentStream.runningTurn`: the turn that ran, as a reload leaves it (stopped). */
  runningTurn: unknown;
  /** `agentStream.cliConversation`: the CLI conversation the finished turns continue. */
  cliConversation: unknown;
  /** `agentStream.runningCliConversation`: the running turn's, once its CLI had said something. */
  runningCliConversation: unknown;
  /** `agentStream.acpSession`: the ACP agent's session the conversation holds. */
  acpSession: unknown;
}

/**
 * What earlier versions stored under `agentStream.acpSession` (their `acp/saved-session.ts`), frozen here: this reads
 * what they wrote. Lengths as that schema's; the id pattern is `SessionIdSchema`'s looser elder.
 */
const LegacyAcpSessionSchema = z.object({
  conversation: CliConversationSchema.shape.id,
  agent: z.array(z.string()).check(z.minLength(1)),
  sessionId: z.string().check(z.minLength(1), z.maxLength(1024)),
});
type LegacyAcpSession = z.infer<typeof LegacyAcpSessionSchema>;

/** What the panel called the built-in agent in a turn and a CLI conversation. */
const BUILTIN_AGENT_NAME = "Built-in agent";
/** What a replayed recording's turns name as their agent: nothing ran, so it names no agent of the conversation. */
const REPLAY_AGENT_NAME = "Recorded stream";

/**
 * The stored conversation as one session, or null when it holds no turn (nothing to show or continue). `now` is its
 * creation and update time (earlier versions kept neither); `newId` mints its id.
 */
export function migrateConversation(old: StoredConversation, now: number, newId: () => SessionId): StoredSession | null {
  const turns = turnsOf(old.turns);
  let cliConversation = parsedOrNull(CliConversationSchema, old.cliConversation);
  const running = TurnSchema.safeParse(old.runningTurn);
  // As the reloaded panel did: the running turn unless the finished turns hold it (saved as the window closed), with
  // its CLI conversation when it had begun one.
  if (running.success && !turns.some((turn) => turn.id === running.data.id)) {
    turns.push(running.data);
    cliConversation = parsedOrNull(CliConversationSchema, old.runningCliConversation) ?? cliConversation;
  }
  const first = turns.find((turn) => turn.origin === "prompt") ?? turns[0];
  if (first === undefined) return null;
  const acpSession = parsedOrNull(LegacyAcpSessionSchema, old.acpSession);
  return {
    version: STORED_SESSION_VERSION,
    id: newId(),
    title: titleFromPrompt(first.prompt),
    titleSource: "prompt",
    agent: agentOf(turns, cliConversation, acpSession),
    createdAt: now,
    updatedAt: now,
    turns: turns.map(withRequestsCancelled),
    agentSession: agentSessionOf(cliConversation, acpSession),
    source: "agent-stream",
    pendingPrompts: [],
  };
}

/** Each turn that fits its schema: one that no longer does costs itself, not the rest of the conversation. */
function turnsOf(value: unknown): Turn[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const turn = TurnSchema.safeParse(item);
    return turn.success ? [turn.data] : [];
  });
}

/**
 * Who the conversation talked to. Earlier versions kept no profile: the ACP session's command line where there is
 * one, else the name the turns and the CLI conversation give (a command's file name, or the built-in agent's), else
 * "unknown". The profile is then that file name as `auto` reads it (`claude`, `gemini`); the glue may know better.
 */
function agentOf(turns: readonly Turn[], cliConversation: CliConversation | null, acpSession: LegacyAcpSession | null): AgentIdentity {
  // A command line longer than the session's schema keeps is not one to run again.
  const identity = AgentIdentitySchema.safeParse(namedAgent(turns, cliConversation, acpSession));
  return identity.success ? identity.data : UNKNOWN_AGENT;
}

const UNKNOWN_AGENT: AgentIdentity = { profile: "unknown", displayName: "unknown", command: "", args: [] };

function namedAgent(turns: readonly Turn[], cliConversation: CliConversation | null, acpSession: LegacyAcpSession | null): AgentIdentity {
  if (acpSession !== null) {
    const [command, ...args] = acpSession.agent as [string, ...string[]];
    return { profile: commandName(command), displayName: fileName(command), command, args };
  }
  const named = cliConversation?.agent ?? turns.findLast((turn) => turn.origin === "prompt" && turn.agent !== REPLAY_AGENT_NAME)?.agent;
  if (named === BUILTIN_AGENT_NAME) return { profile: "builtin", displayName: BUILTIN_AGENT_NAME, command: "", args: [] };
  if (named === undefined || named === "") return UNKNOWN_AGENT;
  return { profile: commandName(named), displayName: named, command: named, args: [] };
}

/**
 * What a follow-up continues. The ACP session only with the conversation it belongs to: one kept from an earlier
 * conversation (New Session, then another agent) was never continued, and is not now.
 */
function agentSessionOf(cliConversation: CliConversation | null, acpSession: LegacyAcpSession | null): AgentSessionRef | null {
  if (cliConversation === null && acpSession === null) return null;
  const conversationId = cliConversation?.id ?? acpSession?.conversation ?? null;
  const acpSessionId = acpSession !== null && acpSession.conversation === conversationId ? acpSession.sessionId : null;
  return { conversationId, spoke: cliConversation !== null, acpSessionId };
}

function parsedOrNull<T>(schema: z.ZodMiniType<T>, value: unknown): T | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The file name of a command, on any platform's separators. */
function fileName(command: string): string {
  return command.slice(Math.max(command.lastIndexOf("/"), command.lastIndexOf("\\")) + 1);
}

/** A command's file name as the profiles' `auto` compares it: lower case, without a launcher's extension. */
function commandName(command: string): string {
  const name = fileName(command).toLowerCase();
  const extension = [".exe", ".cmd", ".bat", ".js", ".mjs"].find((each) => name.endsWith(each));
  return extension === undefined ? name : name.slice(0, -extension.length);
}
