// The CLIs' own sessions for this workspace, listed beside ours and opened as ours: Claude Code's store under the
// user's home, and the sessions of the configured ACP agent when it lists them (`session/list`). Opening one shows
// what its store holds (Claude's history; what `session/load` replays) and the next prompt continues the agent's own
// conversation (`--resume`; `session/resume` or `session/load`). Nothing in an agent's store is written or deleted.
import * as os from "node:os";
import * as vscode from "vscode";
import { listAgentSessions, loadAgentSession, type AgentVisitOptions } from "../acp/agent-sessions";
import type { ChatSession } from "../panel/chat-session";
import type { ChatSessions } from "../panel/chat-sessions";
import { agentIdentityOf } from "../profiles/agent-identity";
import { acpTransportOf, userArgumentsOf } from "../profiles/cli-profile";
import { claudeProfile } from "../profiles/claude-profile";
import { resolveCli } from "../profiles/profile-registry";
import type { Turn } from "../protocol/messages";
import { STORED_SESSION_VERSION, type AgentIdentity, type AgentSessionRef, type SessionSummary, type StoredSession } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { claudeSessionFolders, listClaudeSessions, readClaudeSession } from "../sessions/claude-code-sessions";
import { watchStoreFolder, type StoreFolderWatch } from "../sessions/store-folder-watch";
import { readSettings } from "./settings";

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** A listed ACP session: the agent that listed it (as the settings ran it then) and its own id. */
interface ListedAcpSession {
  agent: AgentIdentity;
  visit: Omit<AgentVisitOptions, "log">;
  acpSessionId: string;
}

export class ForeignSessions implements vscode.Disposable {
  /** The ACP sessions listed last, by their row's id: opening one needs the agent's id and how to run it. */
  private readonly acpListed = new Map<string, ListedAcpSession>();
  /** The agent is asked for its list once per window (it is a process started for the asking), and on a refresh. */
  private acpRows: SessionSummary[] | undefined;
  /** Claude Code's folders of this workspace's sessions, watched while they exist: a session written there is listed. */
  private claudeWatches: StoreFolderWatch[] = [];

  constructor(
    private readonly sessions: ChatSessions,
    private readonly log: vscode.LogOutputChannel,
    /** A CLI's own store changed (Claude Code ran, in the panel or a terminal): `list` has news. */
    private readonly onStoreChanged: () => void = () => {},
  ) {}

  /** Claude Code's sessions of this folder and the configured ACP agent's, newest first; none without a folder. */
  async list(): Promise<SessionSummary[]> {
    const folder = workspaceFolder();
    if (folder === undefined) return [];
    const home = homeOfRuns(this.log);
    const claude = await listClaudeSessions(folder, home, {
      onSkipped: (file, why) => this.log.info(escapeForLog(`Claude Code's session ${file} is not listed: ${why}`)),
    });
    await this.watchClaude(folder, home);
    this.acpRows ??= await this.listAcp(folder);
    return [...claude, ...this.acpRows];
  }

  dispose(): void {
    for (const watch of this.claudeWatches) watch.close();
    this.claudeWatches = [];
  }

  /** Watches Claude Code's folders of this workspace once they exist (a first `claude` run makes them), anew if they moved. */
  private async watchClaude(folder: string, home: string): Promise<void> {
    const folders = await claudeSessionFolders(folder, home);
    const watched = this.claudeWatches.filter((watch) => watch.watching).map((watch) => watch.folder);
    if (folders.length === watched.length && folders.every((each) => watched.includes(each))) return;
    this.dispose();
    this.claudeWatches = folders.flatMap((each) => watchStoreFolder(each, this.onStoreChanged) ?? []);
  }

  /** The next `list` asks the ACP agent again. */
  forgetAcpList(): void {
    this.acpRows = undefined;
  }

  /** A CLI's session of the list, read from its store and open as one of ours; undefined when it cannot be read. */
  async open(summary: SessionSummary): Promise<ChatSession | undefined> {
    const live = this.sessions.get(summary.id);
    if (live !== undefined) return live;
    const folder = workspaceFolder();
    if (folder === undefined) return undefined;
    if (summary.source === "claude-code") return this.openClaude(summary, folder);
    if (summary.source === "acp") return this.openAcp(summary);
    return undefined;
  }

  private async openClaude(summary: SessionSummary, folder: string): Promise<ChatSession | undefined> {
    const history = await readClaudeSession(folder, homeOfRuns(this.log), summary.id, {
      onSkipped: (file, why) => this.log.warn(escapeForLog(`Claude Code's session ${file} could not be read: ${why}`)),
    });
    if (history === undefined) return undefined;
    if (!history.complete) this.log.info(escapeForLog(`Claude Code's session ${summary.id} is longer than a session keeps: its first part is shown`));
    // The follow-up runs `claude --resume <id>`: Claude continues its own conversation.
    return this.adopt(summary, claudeAgent(this.log), history.turns, { conversationId: history.claudeSessionId, spoke: true, acpSessionId: null });
  }

  private async openAcp(summary: SessionSummary): Promise<ChatSession | undefined> {
    const listed = this.acpListed.get(summary.id);
    if (listed === undefined || !vscode.workspace.isTrusted) return undefined;
    let turns: Turn[] = [];
    try {
      const loaded = await loadAgentSession({ ...listed.visit, log: (m) => this.log.info(escapeForLog(m)) }, listed.acpSessionId);
      turns = loaded?.turns ?? [];
    } catch (error) {
      // Shown without its history: the next prompt still asks the agent to continue the session.
      this.log.warn(escapeForLog(`${listed.agent.displayName} could not show its session ${listed.acpSessionId}: ${String(error)}`));
    }
    // The follow-up's agent process continues the agent's session (`session/resume`, else `session/load`).
    return this.adopt(summary, listed.agent, turns, { conversationId: summary.id, spoke: true, acpSessionId: listed.acpSessionId });
  }

  private adopt(summary: SessionSummary, agent: AgentIdentity, turns: Turn[], agentSession: AgentSessionRef): ChatSession {
    const stored: StoredSession = {
      version: STORED_SESSION_VERSION,
      id: summary.id,
      title: summary.title,
      titleSource: "prompt",
      agent,
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      turns,
      agentSession,
      // Ours from now on (renamed, deleted, saved like any other); the agent's own store is still never touched, and
      // lists it again if ours is deleted.
      source: "agent-stream",
      pendingPrompts: [],
    };
    return this.sessions.adoptStored(stored);
  }

  /**
   * The configured agent's sessions of this folder, when it is an ACP agent that lists them. Asking starts the agent
   * (initialize and `session/list` only), so never in Restricted Mode.
   */
  private async listAcp(folder: string): Promise<SessionSummary[]> {
    const settings = readSettings(this.log);
    if (settings.useBuiltinAgent || !vscode.workspace.isTrusted) return [];
    const { profile, command } = resolveCli(settings);
    if (acpTransportOf(profile) === undefined) return [];
    const agent = agentIdentityOf(settings);
    const visit = { command, args: [...(userArgumentsOf(profile, settings.cliArgs, settings.cliExtraArgs) ?? profile.defaultArgs)], env: { ...process.env, ...settings.cliEnv }, cwd: folder, agent };
    try {
      const listed = (await listAgentSessions({ ...visit, log: (m) => this.log.info(escapeForLog(m)) })) ?? [];
      this.acpListed.clear();
      for (const { summary, acpSessionId } of listed) this.acpListed.set(summary.id, { agent, visit, acpSessionId });
      return listed.map(({ summary }) => summary);
    } catch (error) {
      this.log.warn(escapeForLog(`${agent.displayName} could not list its sessions: ${String(error)}`));
      return [];
    }
  }
}

/** The home folder the agents run with (`agentStream.cli.env` may set another), where Claude Code keeps its store. */
function homeOfRuns(log: vscode.LogOutputChannel): string {
  return readSettings(log).cliEnv["HOME"] ?? os.homedir();
}

/** Claude Code as the settings run it when they name it, else the `claude` on the PATH with the profile's arguments. */
function claudeAgent(log: vscode.LogOutputChannel): AgentIdentity {
  const configured = agentIdentityOf({ ...readSettings(log), useBuiltinAgent: false });
  if (configured.profile === claudeProfile.name) return configured;
  return { profile: claudeProfile.name, displayName: claudeProfile.displayName, command: claudeProfile.command, args: null };
}
