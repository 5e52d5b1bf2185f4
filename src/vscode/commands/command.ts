// What every command of the palette gets: the sessions (the active one for commands that act on "the" chat), the
// log, and the ways to show a session.
import type * as vscode from "vscode";
import type { ChatSession } from "../../panel/chat-session";
import type { ChatSessions } from "../../panel/chat-sessions";
import type { Conversation } from "../../panel/conversation";
import type { AgentIdentity, SessionSummary } from "../../protocol/sessions";

export interface CommandContext {
  readonly sessions: ChatSessions;
  /** The active session's conversation: the one Stop, Ask about Workspace and Replay act on. */
  readonly chat: Conversation;
  readonly log: vscode.LogOutputChannel;
  /** Shows the active session: in its editor tab when it has one, else in the chat view. */
  revealChat(): Thenable<void>;
  /** Shows a session (the active one when none is named) in its own editor tab. */
  openChatInEditor(session?: ChatSession): void;
  /** A row of the Sessions view, ours or a CLI's own, open (read from its store when it is not yet): undefined when it is gone. */
  openListed(summary: SessionSummary): Promise<ChatSession | undefined>;
  /** Every row of the Sessions view, ours and the CLIs' own. */
  listed(): SessionSummary[];
  /** Lists the CLIs' own sessions anew: Claude Code's store read again, the ACP agent asked again. */
  refreshSessions(): Promise<void>;
  /** New Session with Agent…'s pick: the built-in agent, a profile's CLI found on the PATH, or the configured CLI. */
  pickAgent(): Thenable<AgentIdentity | undefined>;
}

/** One command of package.json's `contributes.commands`, by its id. */
export interface AgentStreamCommand {
  readonly id: string;
  run(context: CommandContext, ...args: unknown[]): unknown;
}
