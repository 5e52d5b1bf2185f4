// The editor's side of the launcher: a session's agent for one prompt as the settings say (the CLI and its profile, or
// the built-in agent), in the workspace's folders, its files through the editor, and each run logged to the Output
// channel (its command line, problems, a failed run's stderr), escaped so that stream text can never forge a log line.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { AgentLauncher, type AgentLaunch, type LaunchAgent } from "../launch/agent-launcher";
import type { SessionRunRequest } from "../panel/chat-session";
import type { Run } from "../panel/conversation";
import type { ChoiceOutcome, ChosenAgentSettings } from "../protocol/agent-state";
import type { SessionChange } from "../protocol/messages";
import type { AgentIdentity } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { BUILTIN_AGENT_PROFILE, profileSettingOf } from "../profiles/agent-identity";
import { builtinAgentCommand } from "../profiles/builtin-agent-profile";
import { EditorFiles } from "./editor-files";
import type { AgentSettings } from "./settings-values";

export class AgentRunner implements vscode.Disposable {
  /** How many permission requests of the sessions' agents wait for the user's answer (on cards, or notifications). */
  readonly permissions: { readonly count: number };
  /** Each session's desk's count of waiting requests: the sum is `permissions.count`. */
  private readonly waitingBySession = new Map<string, number>();
  /** Every session's agent: a warm ACP agent each, and one permission desk each. */
  private readonly launcher: AgentLauncher;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    onPermissionsWaiting: (count: number) => void = () => {},
  ) {
    const waiting = { count: 0 };
    this.permissions = waiting;
    this.countWaiting = () => {
      waiting.count = [...this.waitingBySession.values()].reduce((all, each) => all + each, 0);
      onPermissionsWaiting(waiting.count);
    };
    this.launcher = new AgentLauncher({
      files: (roots) => new EditorFiles(roots, log),
      log: {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        trace: (m) => log.trace(m),
        tracing: () => log.logLevel === vscode.LogLevel.Trace,
      },
      // No `decide`: a request waits for the user's answer by its id, from its card or notification (the run's `answer`).
      onWaiting: (sessionId, count) => {
        this.waitingBySession.set(sessionId, count);
        this.countWaiting();
      },
    });
  }

  private readonly countWaiting: () => void;

  /** Runs the session's own agent: the settings give only what is not the agent's (its env, timeouts, approvals). */
  start(current: AgentSettings, request: SessionRunRequest): Run {
    return this.launcher.start({ ...this.launchOf(current, request), prompt: request.prompt, onChange: this.loggedChanges(request) });
  }

  /**
   * Why the session's agent cannot take these parts' images (its profile, or its ACP agent's word, the agent started
   * for the conversation first when it has not said yet), or null.
   */
  imagesRefusal(current: AgentSettings, request: Omit<SessionRunRequest, "prompt" | "onChange">): Promise<string | null> {
    return this.launcher.imagesRefusalOnceKnown(this.launchOf(current, request));
  }

  /** A launch of the session's agent as the settings say, but for its prompt. */
  private launchOf(current: AgentSettings, request: Omit<SessionRunRequest, "prompt" | "onChange">): Omit<AgentLaunch, "prompt"> {
    const settings = settingsForAgent(current, request.agent);
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    return {
      sessionId: request.sessionId,
      agent: this.launchAgentOf(settings),
      parts: request.parts,
      // Where pi keeps the conversation's session file (pi makes the folder); other CLIs keep theirs themselves.
      conversation: { ...request.conversation, stateDir: path.join(this.context.globalStorageUri.fsPath, "cli-conversations") },
      // Without a folder the agent starts in the home folder, where every file is outside the workspace.
      cwd: folders[0] ?? os.homedir(),
      workspaceRoots: folders,
      inactivityTimeoutMs: settings.inactivityTimeoutMs,
      idleStopMs: settings.acpIdleStopMs,
      maxLineBytes: settings.maxLineBytes,
      autoAnswer: settings.autoApprove,
      chosenSettings: request.chosen,
      acpSessionId: request.acpSessionId,
      // The chat's turn is the transcript, built from the changes: the host holds it once.
      heldByListener: true,
      onAgentState: (update) => request.onAgentState(update),
      onAcpSession: (acpSessionId) => request.onAcpSession(acpSessionId),
    };
  }

  private launchAgentOf(settings: AgentSettings): LaunchAgent {
    const extensionPath = this.context.extensionPath;
    return settings.useBuiltinAgent
      ? { kind: "builtin", command: (prompt, conversation) => builtinAgentCommand(extensionPath, prompt, conversation) }
      : { kind: "cli", choice: settings, env: settings.cliEnv };
  }

  /** The user chose the session's mode, model or options: given to its agent now where it can take it. */
  chooseNow(sessionId: string, chosen: ChosenAgentSettings): Promise<ChoiceOutcome> {
    return this.launcher.chooseNow(sessionId, chosen);
  }

  /** The session was deleted: its warm agent and everything it started end now; open requests end cancelled. */
  endSession(sessionId: string): void {
    void this.launcher.endSession(sessionId);
    if (this.waitingBySession.delete(sessionId)) this.countWaiting();
  }

  dispose(): void {
    this.launcher.dispose();
  }

  /** The run's changes for the chat; problems also go to the log. */
  private loggedChanges(request: SessionRunRequest): (change: SessionChange) => void {
    return (change) => {
      // Stream text reaches the log escaped, one log line at most per stream line: it cannot forge log lines.
      if (change.kind === "problem") this.log.warn(escapeForLog(`line ${change.problem.line ?? "?"}: ${change.problem.code} ${change.problem.message}`));
      request.onChange(change);
    };
  }
}

/** The settings as they apply to a session: its own agent (fixed when it was created) in place of the settings' one. */
export function settingsForAgent(settings: AgentSettings, agent: AgentIdentity): AgentSettings {
  if (agent.profile === BUILTIN_AGENT_PROFILE) return { ...settings, useBuiltinAgent: true };
  return { ...settings, useBuiltinAgent: false, cliPath: agent.command, cliArgs: agent.args === null ? null : [...agent.args], cliProfile: profileSettingOf(agent.profile) };
}
