// Extension entry point: wires the core (protocol, stream, process, session, panel) to the editor.
// Thin on purpose: no protocol logic lives here.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { createAdapter } from "./dialects/registry";
import { Conversation, type ConversationHost, type Run, type RunRequest } from "./panel/conversation";
import { NotificationPolicy } from "./panel/notification-policy";
import { pointsToLocalNetwork } from "./panel/local-address";
import { buildPromptContext } from "./panel/prompt-context";
import { StatusTracker } from "./panel/status-model";
import type { CliConversation, ErrorAction, Turn } from "./protocol/messages";
import { CliConversationSchema, MAX_PROMPT_CHARS, SavedTurnsSchema } from "./protocol/messages";
import { ByteTail } from "./process/byte-tail";
import { escapeForLog, logLines } from "./protocol/visible-text";
import { resolveCommandPath } from "./process/command-path";
import type { ConversationKey } from "./profiles/cli-profile";
import { agentCommand, resolveCli, type AgentCommand } from "./profiles/profile-registry";
import { LiveSession } from "./session/live-session";
import { ReplayRun } from "./session/replay";
import { ChatPanels, ChatViewProvider, CHAT_PANEL_TYPE, CHAT_VIEW_ID } from "./vscode/chat-webviews";
import { snapshotEditor } from "./vscode/editor-context";
import { Notifier, type NoticeHandler } from "./vscode/notifier";
import { readSettings } from "./vscode/settings";
import type { AgentSettings } from "./vscode/settings-values";
import { StatusBar } from "./vscode/status-bar";

const PERSISTED_TURNS_KEY = "agentStream.conversation";
const PERSISTED_CLI_CONVERSATION_KEY = "agentStream.cliConversation";
/** Raw lines longer than this are cut in the trace log (the panel still gets all of them). */
const MAX_TRACED_LINE_CHARS = 4000;
/** How much of a CLI's stderr the log keeps for a failed run. */
const STDERR_TAIL_BYTES = 8 * 1024;

let conversation: Conversation | undefined;

/** Returned by `activate` only when AGENT_STREAM_TEST_API=1 (the integration suite): nothing is exposed otherwise. */
export interface AgentStreamTestApi {
  readonly conversation: Conversation;
  readonly statusBarItem: vscode.StatusBarItem;
  /** Notifications go to `handler` (which answers with a button's caption) until the disposable is disposed. */
  interceptNotifications(handler: NoticeHandler): vscode.Disposable;
}

export function activate(context: vscode.ExtensionContext): AgentStreamTestApi | undefined {
  const log = vscode.window.createOutputChannel("Agent Stream", { log: true });
  context.subscriptions.push(log);

  const host = new EditorHost(context, log);
  const chat = new Conversation(host, restoredTurns(context, log), restoredCliConversation(context));
  conversation = chat;
  host.conversation = chat;

  const statusBar = new StatusBar("agentStream.openChat");
  const status = new StatusTracker((view) => statusBar.render(view), chat.lastTurn);
  const notifier = new Notifier((action, turn) => host.runErrorAction(action, turn));
  const stopObserving = [chat.observe(status), chat.observe(new NotificationPolicy((notice) => notifier.show(notice)))];

  const viewProvider = new ChatViewProvider(context.extensionUri, chat);
  const panels = new ChatPanels(context.extensionUri, chat);
  /** The chat the user already has open in an editor tab, else the view. */
  const revealChat = () => (panels.revealIfOpen() ? Promise.resolve() : viewProvider.reveal());
  context.subscriptions.push(
    statusBar,
    viewProvider,
    panels,
    new vscode.Disposable(() => {
      stopObserving.forEach((stop) => stop());
      status.dispose();
    }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, viewProvider),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    vscode.commands.registerCommand("agentStream.askAboutWorkspace", (prompt?: unknown) =>
      askAboutWorkspace(chat, log, revealChat, typeof prompt === "string" ? prompt : undefined),
    ),
    vscode.commands.registerCommand("agentStream.openChat", revealChat),
    vscode.commands.registerCommand("agentStream.openChatInEditor", () => panels.open()),
    vscode.commands.registerCommand("agentStream.stop", () => chat.stop()),
    vscode.commands.registerCommand("agentStream.newSession", () => chat.newSession()),
    vscode.commands.registerCommand("agentStream.showLog", () => log.show()),
    vscode.commands.registerCommand("agentStream.replayStreamFile", (uri?: vscode.Uri) => replayStreamFile(chat, log, revealChat, uri)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => chat.refresh()),
  );

  if (process.env["AGENT_STREAM_TEST_API"] !== "1") return undefined;
  return { conversation: chat, statusBarItem: statusBar.item, interceptNotifications: (handler) => notifier.intercept(handler) };
}

export function deactivate(): void {
  // Window closing or extension stopping: no CLI outlives us.
  conversation?.dispose();
  conversation = undefined;
}

/**
 * F1 → "Ask about Workspace": a prompt from an input box, sent with the editor context the settings allow. A
 * keybinding may give the prompt as the command's argument (`"args": "Explain the selection"`): no input box then.
 */
async function askAboutWorkspace(chat: Conversation, log: vscode.LogOutputChannel, revealChat: () => Thenable<void>, given?: string): Promise<void> {
  // Taken first: once the chat opens in an editor tab, there is no active text editor any more.
  const editor = snapshotEditor();
  // The notifications are not awaited: the command is done once it has said so, whenever the user answers.
  if (chat.running) {
    void vscode.window.showInformationMessage("Agent Stream is still answering. Stop it before asking again.", "Stop", "Show Chat").then((choice) => {
      if (choice === "Stop") void chat.stop();
      if (choice === "Show Chat") void revealChat();
    });
    return;
  }
  if (!vscode.workspace.isTrusted) {
    await revealChat();
    void vscode.window
      .showWarningMessage("Agent Stream does not run agent CLIs in Restricted Mode. Trust this workspace to ask about it.", "Manage Workspace Trust")
      .then((choice) => choice !== undefined && vscode.commands.executeCommand("workbench.trust.manage"));
    return;
  }
  const settings = readSettings(log);
  const context = buildPromptContext(editor, settings.context);
  const prompt = given?.slice(0, MAX_PROMPT_CHARS) ?? await vscode.window.showInputBox({
    title: "Agent Stream: Ask about Workspace",
    prompt: context === null ? "Ask the agent about this workspace." : `Sent with ${context.summary}.`,
    placeHolder: "e.g. Where is the session state machine, and how does Stop work?",
    ignoreFocusOut: true,
    validateInput: (value) => (value.length > MAX_PROMPT_CHARS ? `At most ${MAX_PROMPT_CHARS.toLocaleString("en-US")} characters.` : null),
  });
  if (prompt === undefined || prompt.trim() === "") return;
  await revealChat();
  chat.send(prompt, context);
}

/** "Replay Stream File…": a recorded stream shown in the chat; nothing runs, so it works in Restricted Mode. */
async function replayStreamFile(chat: Conversation, log: vscode.LogOutputChannel, revealChat: () => Thenable<void>, given?: vscode.Uri): Promise<void> {
  const uri =
    given instanceof vscode.Uri
      ? given
      : (
          await vscode.window.showOpenDialog({
            title: "Agent Stream: Replay Stream File",
            openLabel: "Replay",
            canSelectMany: false,
            filters: { "Agent streams": ["ndjson", "jsonl", "json", "log", "txt"], "All files": ["*"] },
          })
        )?.[0];
  if (uri === undefined) return;
  const settings = readSettings(log);
  const name = path.basename(uri.path);
  const started = chat.replay(`Replay of ${name}`, (onChange) => {
    log.info(escapeForLog(`replay: ${uri.toString(true)} (dialect ${settings.dialect})`));
    return new ReplayRun(readChunks(uri), { adapter: createAdapter(settings.dialect), maxLineBytes: settings.maxLineBytes, onChange });
  });
  if (!started) {
    void vscode.window.showInformationMessage("Agent Stream is still answering. Stop it, then replay the file.");
    return;
  }
  await revealChat();
}

/** Local files are streamed (a recording can be hundreds of MB); other schemes are read through the editor. */
async function* readChunks(uri: vscode.Uri): AsyncIterable<Uint8Array> {
  if (uri.scheme === "file") {
    yield* fs.createReadStream(uri.fsPath, { highWaterMark: 256 * 1024 });
    return;
  }
  yield await vscode.workspace.fs.readFile(uri);
}

class EditorHost implements ConversationHost {
  conversation: Conversation | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  startRun(request: RunRequest): Run {
    const settings = readSettings(this.log);
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const stderr = new ByteTail(STDERR_TAIL_BYTES);
    const log = this.log;
    const agent = this.agentCommand(settings, request);
    const live = LiveSession.start({
      adapter: createAdapter(agent.dialect),
      maxLineBytes: settings.maxLineBytes,
      process: { command: agent.command, args: agent.args, env: agent.env, input: agent.input, cwd, inactivityTimeoutMs: settings.inactivityTimeoutMs },
      isRunOver: agent.isRunOver,
      onChange: (change) => {
        // Stream text reaches the log escaped, one log line at most per stream line: it cannot forge log lines.
        if (change.kind === "problem") log.warn(escapeForLog(`line ${change.problem.line ?? "?"}: ${change.problem.code} ${change.problem.message}`));
        request.onChange(change);
      },
      onStderr: (chunk) => {
        stderr.push(chunk);
        for (const line of logLines(chunk.toString("utf8").trimEnd())) log.trace(`stderr: ${line}`);
      },
      // Decided per run: formatting every line costs time only someone reading the trace should pay.
      onLine: log.logLevel === vscode.LogLevel.Trace ? (text, line) => log.trace(`line ${line}: ${escapeForLog(clip(text))}`) : undefined,
    });
    log.info(escapeForLog(`run: ${live.commandLine} (in ${cwd}, ${agent.description})`));
    void live.finished.then((transcript) => {
      log.info(`done: ${transcript.status}, exit code ${transcript.done.exitCode}, ${transcript.done.durationMs} ms`);
      const tail = stderr.text().trimEnd();
      if (transcript.status !== "failed" || tail === "") return;
      log.warn(`stderr of the failed run (last ${STDERR_TAIL_BYTES / 1024} KiB):`);
      for (const line of logLines(tail)) log.warn(`stderr: ${line}`);
    });
    return live;
  }

  /** The agent CLI from settings and its profile, or the built-in agent run by this extension host's own Node. */
  private agentCommand(settings: AgentSettings, request: RunRequest): AgentCommand & { env: NodeJS.ProcessEnv; description: string } {
    if (settings.useBuiltinAgent) {
      const script = path.join(this.context.extensionPath, "dist", "builtin-agent.js");
      // It speaks Locus protocol 1. In desktop VS Code execPath is Electron: ELECTRON_RUN_AS_NODE makes it plain Node.
      const builtin = agentCommand({ cliPath: process.execPath, cliArgs: [script, "exec", "--json-stream"], cliProfile: "locus", dialect: "locus" }, request.prompt, this.conversationKey(request));
      return { ...builtin, env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" }, description: "built-in agent" };
    }
    const agent = agentCommand(settings, request.prompt, this.conversationKey(request));
    const continues = request.conversation.continues ? `, continuing conversation ${request.conversation.id}` : "";
    return { ...agent, env: { ...process.env, ...settings.cliEnv }, description: `profile ${agent.profile.name}, dialect ${agent.dialect}${continues}` };
  }

  private conversationKey(request: RunRequest): ConversationKey {
    // Where pi keeps the conversation's session file (pi makes the folder); other CLIs keep theirs themselves.
    return { ...request.conversation, stateDir: path.join(this.context.globalStorageUri.fsPath, "cli-conversations") };
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

  runErrorAction(action: ErrorAction, turn: Turn): void {
    switch (action) {
      case "setCliPath": {
        // A machine setting: in a remote window (SSH, WSL, containers, code-server) the Settings editor lists it only
        // under the Remote tab; its User tab would say "No Settings Found". (That command takes its query only as
        // an object.)
        const query = "agentStream.cli.path";
        if (vscode.env.remoteName === undefined) void vscode.commands.executeCommand("workbench.action.openSettings", query);
        else void vscode.commands.executeCommand("workbench.action.openRemoteSettings", { query });
        return;
      }
      case "showLog":
        this.log.show();
        return;
      case "retry":
        void this.conversation?.retry(turn);
        return;
      case "newSession":
        void this.conversation?.newSession();
        return;
      case "logIn": {
        // The CLI's own login, interactive, in a terminal the user can see; no shell is involved.
        const settings = readSettings(this.log);
        const { profile, command } = resolveCli(settings);
        // The very file a run starts (CliProcess resolves the same way): never one of the workspace's.
        const file = resolveCommandPath(command, { ...process.env, ...settings.cliEnv });
        if (!file.ok) {
          void vscode.window.showErrorMessage(file.message);
          return;
        }
        const terminal = vscode.window.createTerminal({
          name: "Agent Stream: log in",
          shellPath: file.file,
          shellArgs: [...profile.login.args],
          env: settings.cliEnv,
        });
        terminal.show();
        if (profile.login.hint !== undefined) void vscode.window.showInformationMessage(profile.login.hint);
        return;
      }
      case "useBuiltinAgent":
        void vscode.workspace
          .getConfiguration("agentStream")
          .update("useBuiltinAgent", true, vscode.ConfigurationTarget.Global)
          .then(() => this.conversation?.retry(turn));
        return;
    }
  }

  logRejected(reason: string): void {
    this.log.warn(escapeForLog(reason));
  }

  restriction(): string | null {
    return vscode.workspace.isTrusted
      ? null
      : "This workspace is in Restricted Mode, so Agent Stream does not run the agent CLI here. Trust the workspace to chat; replaying a recorded stream still works.";
  }

  agentName(): string {
    const settings = readSettings(this.log);
    return settings.useBuiltinAgent ? "Built-in agent" : path.basename(resolveCli(settings).command);
  }

  persist(turns: readonly Turn[], cliConversation: CliConversation | null): void {
    void this.context.workspaceState.update(PERSISTED_TURNS_KEY, turns);
    void this.context.workspaceState.update(PERSISTED_CLI_CONVERSATION_KEY, cliConversation);
  }
}

function clip(text: string): string {
  return text.length > MAX_TRACED_LINE_CHARS ? `${text.slice(0, MAX_TRACED_LINE_CHARS)}… (${text.length.toLocaleString("en-US")} characters)` : text;
}

/** The CLI conversation a follow-up after a reload continues; anything malformed is forgotten. */
function restoredCliConversation(context: vscode.ExtensionContext): CliConversation | null {
  const parsed = CliConversationSchema.safeParse(context.workspaceState.get<unknown>(PERSISTED_CLI_CONVERSATION_KEY));
  return parsed.success ? parsed.data : null;
}

/** Turns kept from before a reload; anything that no longer fits the schema is dropped, not trusted. */
function restoredTurns(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Turn[] {
  const stored = context.workspaceState.get<unknown>(PERSISTED_TURNS_KEY, []);
  const parsed = SavedTurnsSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  log.warn("the saved conversation could not be read and was dropped");
  return [];
}
