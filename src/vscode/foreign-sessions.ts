// The CLIs' own sessions for this workspace (today: Claude Code's store under the user's home), listed beside ours
// and opened as ours: what the CLI's store holds becomes a session of the list whose next prompt continues the CLI's
// conversation (`--resume`). Nothing in the CLI's store is ever written or deleted.
import * as os from "node:os";
import * as vscode from "vscode";
import type { ChatSession } from "../panel/chat-session";
import type { ChatSessions } from "../panel/chat-sessions";
import { agentIdentityOf } from "../profiles/agent-identity";
import { claudeProfile } from "../profiles/claude-profile";
import { STORED_SESSION_VERSION, type SessionSummary, type StoredSession } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { listClaudeSessions, readClaudeSession } from "../sessions/claude-code-sessions";
import { readSettings } from "./settings";

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export class ForeignSessions {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Claude Code's sessions of this workspace's folder, newest first; none without a folder. */
  static lister(log: vscode.LogOutputChannel): () => Promise<SessionSummary[]> {
    return async () => {
      const folder = workspaceFolder();
      if (folder === undefined) return [];
      return listClaudeSessions(folder, os.homedir(), { onSkipped: (file, why) => log.info(escapeForLog(`Claude Code's session ${file} is not listed: ${why}`)) });
    };
  }

  /** A CLI's session of the list, read from its store and open as one of ours; undefined when it cannot be read. */
  async open(summary: SessionSummary): Promise<ChatSession | undefined> {
    const live = this.sessions.get(summary.id);
    if (live !== undefined) return live;
    const folder = workspaceFolder();
    if (summary.source !== "claude-code" || folder === undefined) return undefined;
    const history = await readClaudeSession(folder, os.homedir(), summary.id, {
      onSkipped: (file, why) => this.log.warn(escapeForLog(`Claude Code's session ${file} could not be read: ${why}`)),
    });
    if (history === undefined) return undefined;
    if (!history.complete) this.log.info(escapeForLog(`Claude Code's session ${summary.id} is longer than a session keeps: its first part is shown`));
    const now = Date.now();
    const stored: StoredSession = {
      version: STORED_SESSION_VERSION,
      id: summary.id,
      title: summary.title,
      titleSource: "prompt",
      agent: claudeAgent(this.log),
      createdAt: summary.createdAt,
      updatedAt: Math.max(summary.updatedAt, now),
      turns: history.turns,
      // The follow-up runs `claude --resume <id>`: Claude continues its own conversation.
      agentSession: { conversationId: history.claudeSessionId, spoke: true, acpSessionId: null },
      source: "claude-code",
    };
    return this.sessions.adoptStored(stored);
  }
}

/** Claude Code as the settings run it when they name it, else the `claude` on the PATH with the profile's arguments. */
function claudeAgent(log: vscode.LogOutputChannel) {
  const settings = readSettings(log);
  const configured = agentIdentityOf({ ...settings, useBuiltinAgent: false });
  if (configured.profile === claudeProfile.name) return configured;
  return { profile: claudeProfile.name, displayName: claudeProfile.displayName, command: claudeProfile.command, args: null };
}
