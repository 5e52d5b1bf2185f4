// What every session needs of the editor (see SessionsHost): runs, links, the clipboard, the error cards' editor
// actions, trust. Glue only: each method hands over to the core or to a VS Code API.
import * as vscode from "vscode";
import { workspaceFileOf, workspaceFilesAmong } from "../acp/written-paths";
import type { SessionRunRequest, SessionsHost } from "../panel/chat-session";
import type { EditorAction, Run } from "../panel/conversation";
import { pointsToLocalNetwork } from "../panel/local-address";
import { resolveCommandPath } from "../process/command-path";
import type { PickedFile } from "../protocol/messages";
import type { ToolDiff } from "../protocol/transcript";
import { escapeForLog } from "../protocol/visible-text";
import { resolveCli } from "../profiles/profile-registry";
import { AgentLauncher } from "../launch/agent-launcher";
import { droppedFiles, type DroppedFiles } from "../launch/dropped-files";
import type { AgentStateUpdate, ChoiceOutcome, ChosenAgentSettings } from "../protocol/agent-state";
import type { AgentIdentity } from "../protocol/sessions";
import { settingsForAgent, type AgentRunner } from "./agent-runner";
import type { RememberedChoices } from "./remembered-choices";
import type { DiffViewer } from "./diff-viewer";
import type { WorkspaceFilePicker } from "./file-picker";
import { readSettings } from "./settings";

export class EditorHost implements SessionsHost {
  constructor(
    private readonly runner: AgentRunner,
    private readonly log: vscode.LogOutputChannel,
    private readonly diffs: DiffViewer,
    private readonly files: WorkspaceFilePicker,
    private readonly choices?: RememberedChoices,
  ) {}

  startRun(request: SessionRunRequest): Run {
    return this.runner.start(readSettings(this.log), request);
  }

  imagesRefusal(request: Parameters<NonNullable<SessionsHost["imagesRefusal"]>>[0]): Promise<string | null> {
    return this.runner.imagesRefusal(readSettings(this.log), request);
  }

  applyChoice(sessionId: string, _agent: AgentIdentity, chosen: ChosenAgentSettings): Promise<ChoiceOutcome> {
    return this.runner.chooseNow(sessionId, chosen);
  }

  choiceAppliesAt(agent: AgentIdentity, running: boolean): "now" | "next-turn" {
    const settings = settingsForAgent(readSettings(this.log), agent);
    return settings.useBuiltinAgent ? "next-turn" : AgentLauncher.choiceAppliesAt(settings, running);
  }

  agentStateBeforeRuns(agent: AgentIdentity): AgentStateUpdate | undefined {
    const settings = settingsForAgent(readSettings(this.log), agent);
    return settings.useBuiltinAgent ? undefined : AgentLauncher.agentStateBeforeRuns(settings);
  }

  rememberedChoice(agent: AgentIdentity): ChosenAgentSettings {
    return this.choices?.of(agent) ?? {};
  }

  rememberChoice(agent: AgentIdentity, chosen: ChosenAgentSettings): void {
    this.choices?.remember(agent, chosen);
  }

  openExternal(url: string): void {
    void this.openLink(url);
  }

  /** A link to the user's own machine or network opens only when they say so; dismissing never opens it. */
  private async openLink(url: string): Promise<void> {
    let uri = vscode.Uri.parse(url, true);
    if (pointsToLocalNetwork(url)) {
      const choice = await vscode.window.showWarningMessage(`Open ${url}? It points to your own machine or network.`, { modal: true }, "Open");
      if (choice !== "Open") return;
      // In a remote window this forwards the port, so the link reaches the machine the agent runs on.
      if (vscode.env.remoteName !== undefined) uri = await vscode.env.asExternalUri(uri);
    }
    await vscode.env.openExternal(uri);
  }

  writeClipboard(text: string): void {
    void vscode.env.clipboard.writeText(text);
  }

  async runEditorAction(action: EditorAction): Promise<void> {
    switch (action) {
      case "setCliPath":
        await openMachineSetting("agentStream.cli.path");
        return;
      case "openCliEnv":
        // The agent's environment, where an API key or IS_SANDBOX is set for it.
        await openMachineSetting("agentStream.cli.env");
        return;
      case "showLog":
        this.log.show();
        return;
      case "logIn":
        this.logIn();
        return;
      case "useBuiltinAgent":
        await vscode.workspace.getConfiguration("agentStream").update("useBuiltinAgent", true, vscode.ConfigurationTarget.Global);
        return;
    }
  }

  /** The CLI's own login, interactive, in a terminal the user can see; no shell is involved. */
  private logIn(): void {
    const settings = readSettings(this.log);
    const { profile, command } = resolveCli(settings);
    // The very file a run starts (CliProcess resolves the same way): never one of the workspace's.
    const file = resolveCommandPath(command, { ...process.env, ...settings.cliEnv });
    if (!file.ok) {
      void vscode.window.showErrorMessage(file.message);
      return;
    }
    const terminal = vscode.window.createTerminal({ name: "Agent Stream: log in", shellPath: file.file, shellArgs: [...profile.login.args], env: settings.cliEnv });
    terminal.show();
    if (profile.login.hint !== undefined) void vscode.window.showInformationMessage(profile.login.hint);
  }

  logRejected(reason: string): void {
    this.log.warn(escapeForLog(reason));
  }

  restriction(): string | null {
    return vscode.workspace.isTrusted
      ? null
      : "This workspace is in Restricted Mode, so Agent Stream does not run the agent CLI here. Trust the workspace to chat; replaying a recorded stream still works.";
  }

  openDiff(diff: ToolDiff): void {
    void this.diffs.open(diff);
  }

  addSelection(): void {
    void vscode.commands.executeCommand("agentStream.addSelectionToChat");
  }

  findFiles(query: string): Promise<PickedFile[]> {
    return this.files.find(query);
  }

  droppedFiles(uris: readonly string[]): Promise<DroppedFiles> {
    return droppedFiles(uris, workspaceRoots(), (uri) => {
      // A remote window's explorer names its files by the window's own scheme: placed only in one of its folders.
      let parsed: vscode.Uri;
      try {
        parsed = vscode.Uri.parse(uri, true);
      } catch {
        return undefined;
      }
      return vscode.workspace.getWorkspaceFolder(parsed) === undefined ? undefined : parsed.fsPath;
    });
  }

  workspaceFiles(paths: readonly string[]): Promise<string[]> {
    return workspaceFilesAmong(paths, workspaceRoots());
  }

  openWorkspaceFile(written: string, line: number | null): void {
    void this.openFileAt(written, line);
  }

  private async openFileAt(written: string, line: number | null): Promise<void> {
    const file = await workspaceFileOf(written, workspaceRoots());
    if (file === undefined) {
      this.logRejected(`refused to open ${written}: it is not a file inside the workspace folders`);
      return;
    }
    const at = line === null ? undefined : new vscode.Position(line - 1, 0);
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true, ...(at === undefined ? {} : { selection: new vscode.Range(at, at) }) });
  }

  endAgent(sessionId: string): void {
    this.runner.endSession(sessionId);
  }
}

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
}

/**
 * A machine setting: in a remote window (SSH, WSL, containers, code-server) the Settings editor lists it only under
 * the Remote tab; its User tab would say "No Settings Found". (That command takes its query only as an object.)
 */
async function openMachineSetting(query: string): Promise<void> {
  if (vscode.env.remoteName === undefined) await vscode.commands.executeCommand("workbench.action.openSettings", query);
  else await vscode.commands.executeCommand("workbench.action.openRemoteSettings", { query });
}
