// Which ACP session a prompt continues after a window reload. The host saves the agent's session id with the chat's
// conversation and the agent it belongs to; a reloaded window's follow-up in that conversation, to the same agent,
// asks the new agent process to load or resume it. Read back through a schema: the workspace's state is not trusted.
import * as z from "zod/mini";

/** Longer ids than any agent uses are not an id but something else stored under the key. */
const MAX_SESSION_ID_CHARS = 1024;

export const SavedAcpSessionSchema = z.object({
  /** The chat's conversation (the panel's id for it). */
  conversation: z.string().check(z.regex(/^[0-9a-f-]{36}$/)),
  /** The agent as it was started: its command and arguments. Another agent cannot continue this session. */
  agent: z.array(z.string()),
  /** The agent's own id for the session. */
  sessionId: z.string().check(z.minLength(1), z.maxLength(MAX_SESSION_ID_CHARS)),
});
export type SavedAcpSession = z.infer<typeof SavedAcpSessionSchema>;

export interface AcpSessionRequest {
  /** The chat's conversation, and whether this prompt continues it (a follow-up) or starts it. */
  conversation: { id: string; continues: boolean };
  command: string;
  args: readonly string[];
}

export function savedAcpSession(request: AcpSessionRequest, sessionId: string): SavedAcpSession {
  return { conversation: request.conversation.id, agent: [request.command, ...request.args], sessionId };
}

/** The saved session id a new agent process should continue for this prompt, or undefined to start a new one. */
export function sessionToContinue(saved: unknown, request: AcpSessionRequest): string | undefined {
  if (!request.conversation.continues) return undefined;
  const parsed = SavedAcpSessionSchema.safeParse(saved);
  if (!parsed.success) return undefined;
  const { conversation, agent, sessionId } = parsed.data;
  const sameAgent = JSON.stringify(agent) === JSON.stringify([request.command, ...request.args]);
  return conversation === request.conversation.id && sameAgent ? sessionId : undefined;
}
