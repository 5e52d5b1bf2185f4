// Extension entry point: wires the core (protocol, stream, process, session, panel) to the editor.
// Thin on purpose: no protocol logic lives here.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { createAdapter } from "./dialects/registry";
import { Conversation, type ConversationHost, type Run, type RunRequest } from "./panel/conversation";
import type { ErrorAction, Turn } from "./protocol/messages";
import { TurnSchema } from "./protocol/messages";
import { LiveSession } from "./session/live-session";
import { ChatPanels, ChatViewProvider, CHAT_PANEL_TYPE, CHAT_VIEW_ID } from "./vscode/chat-webviews";
import { readSettings, type AgentSettings } from "./vscode/settings";

const PERSISTED_TURNS_KEY = "agentStream.conversation";

let conversation: Conversation | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel("Agent Stream", { log: true });
  context.subscriptions.push(log);

  const host = new EditorHost(context, log);
  conversation = new Conversation(host, restoredTurns(context, log));
  host.conversation = conversation;

  const viewProvider = new ChatViewProvider(context.extensionUri, conversation);
  const panels = new ChatPanels(context.extensionUri, conversation);
  context.subscriptions.push(
    viewProvider,
    panels,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, viewProvider),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    vscode.commands.registerCommand("agentStream.openChat", () => viewProvider.reveal()),
    vscode.commands.registerCommand("agentStream.openChatInEditor", () => panels.open()),
    vscode.commands.registerCommand("agentStream.stop", () => conversation?.stop()),
    vscode.commands.registerCommand("agentStream.newSession", () => conversation?.newSession()),
    vscode.commands.registerCommand("agentStream.showLog", () => log.show()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => conversation?.refresh()),
  );
}

export function deactivate(): void {
  // Window closing or extension stopping: no CLI outlives us.
  conversation?.dispose();
  conversation = undefined;
}

class EditorHost implements ConversationHost {
  conversation: Conversation | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  startRun(request: RunRequest): Run {
    const settings = readSettings();
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const live = LiveSession.start({
      adapter: createAdapter("locus"),
      maxLineBytes: settings.maxLineBytes,
      process: { ...this.agentCommand(settings, request.prompt), cwd, inactivityTimeoutMs: settings.inactivityTimeoutMs },
      onChange: (change) => {
        if (change.kind === "problem") this.log.warn(`line ${change.problem.line ?? "?"}: ${change.problem.code} ${change.problem.message}`);
        request.onChange(change);
      },
      onStderr: (chunk) => this.log.trace(`stderr: ${chunk.toString("utf8").trimEnd()}`),
    });
    this.log.info(`run: ${live.commandLine} (in ${cwd})`);
    void live.finished.then((transcript) => {
      this.log.info(`done: ${transcript.status}, exit code ${transcript.done.exitCode}, ${transcript.done.durationMs} ms`);
    });
    return live;
  }

  /** The agent CLI from settings, or the built-in agent run by this extension host's own Node. */
  private agentCommand(settings: AgentSettings, prompt: string): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
    // "--" ends the options: a prompt that starts with "-" is still the prompt.
    if (settings.useBuiltinAgent) {
      const script = path.join(this.context.extensionPath, "dist", "builtin-agent.js");
      // In desktop VS Code execPath is Electron: this makes it behave as plain Node.
      return { command: process.execPath, args: [script, "exec", "--json-stream", "--", prompt], env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } };
    }
    return { command: settings.cliPath, args: [...settings.cliArgs, "--", prompt], env: { ...process.env, ...settings.cliEnv } };
  }

  openExternal(url: string): void {
    void vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  writeClipboard(text: string): void {
    void vscode.env.clipboard.writeText(text);
  }

  runErrorAction(action: ErrorAction, turn: Turn): void {
    switch (action) {
      case "setCliPath":
        void vscode.commands.executeCommand("workbench.action.openSettings", "agentStream.cli.path");
        return;
      case "showLog":
        this.log.show();
        return;
      case "retry":
        this.conversation?.send(turn.prompt);
        return;
      case "newSession":
        void this.conversation?.newSession();
        return;
      case "logIn": {
        const terminal = vscode.window.createTerminal({ name: "Agent Stream: log in", shellPath: readSettings().cliPath, shellArgs: ["login"] });
        terminal.show();
        return;
      }
      case "useBuiltinAgent":
        void vscode.workspace
          .getConfiguration("agentStream")
          .update("useBuiltinAgent", true, vscode.ConfigurationTarget.Global)
          .then(() => this.conversation?.send(turn.prompt));
        return;
    }
  }

  logRejected(reason: string): void {
    this.log.warn(reason);
  }

  restriction(): string | null {
    return vscode.workspace.isTrusted
      ? null
      : "This workspace is in Restricted Mode, so Agent Stream does not run the agent CLI here. Trust the workspace to chat; replaying a recorded stream still works.";
  }

  agentName(): string {
    const settings = readSettings();
    return settings.useBuiltinAgent ? "Built-in agent" : path.basename(settings.cliPath);
  }

  persist(turns: readonly Turn[]): void {
    void this.context.workspaceState.update(PERSISTED_TURNS_KEY, turns);
  }
}

/** Turns kept from before a reload; anything that no longer fits the schema is dropped, not trusted. */
function restoredTurns(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Turn[] {
  const stored = context.workspaceState.get<unknown>(PERSISTED_TURNS_KEY, []);
  const parsed = TurnSchema.array().safeParse(stored);
  if (parsed.success) return parsed.data;
  log.warn("the saved conversation could not be read and was dropped");
  return [];
}
