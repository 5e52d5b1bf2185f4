// Extension entry point: the composition root. It creates the parts and wires them together; what each part does
// lives in the core (src/panel, src/sessions, …) and in the editor glue (src/vscode/, its commands in
// src/vscode/commands/).
import * as vscode from "vscode";
import { ChatSessions } from "./panel/chat-sessions";
import type { Conversation } from "./panel/conversation";
import { AgentRunner } from "./vscode/agent-runner";
import { configuredAgent, pickAgent, settingsAgent } from "./vscode/agent-picker";
import { ChatPanels, ChatViewProvider, CHAT_PANEL_TYPE, CHAT_VIEW_ID } from "./vscode/chat-webviews";
import { ALL_COMMANDS } from "./vscode/commands/all-commands";
import type { CommandContext } from "./vscode/commands/command";
import { DiffViewer } from "./vscode/diff-viewer";
import { RememberedChoices } from "./vscode/remembered-choices";
import { EditorHost } from "./vscode/editor-host";
import { WorkspaceFilePicker } from "./vscode/file-picker";
import { Notifier, type NoticeHandler } from "./vscode/notifier";
import { SessionNotices } from "./vscode/session-notices";
import { activeSessionId, openSessionStore, rememberActiveSession } from "./vscode/session-storage";
import { SessionsStatus } from "./vscode/sessions-status";
import { SessionsView } from "./vscode/sessions-view";
import { readSettings } from "./vscode/settings";
import { StatusBar } from "./vscode/status-bar";
import { ForeignSessions } from "./vscode/foreign-sessions";

let sessions: ChatSessions | undefined;

/** Returned by `activate` only when AGENT_STREAM_TEST_API=1 (the integration suite): nothing is exposed otherwise. */
export interface AgentStreamTestApi {
  /** The active session's conversation. */
  readonly conversation: Conversation;
  readonly sessions: ChatSessions;
  readonly statusBarItem: vscode.StatusBarItem;
  /** Notifications go to `handler` (which answers with a button's caption) until the disposable is disposed. */
  interceptNotifications(handler: NoticeHandler): vscode.Disposable;
}

export async function activate(context: vscode.ExtensionContext): Promise<AgentStreamTestApi | undefined> {
  const log = vscode.window.createOutputChannel("Agent Stream", { log: true });
  context.subscriptions.push(log);

  // The notifications need the sessions, which need the runner: they are reached through this once all exist. A
  // request is offered when it starts waiting, and again when the last chat on screen goes away while it still waits.
  let notices: SessionNotices | undefined;
  const offerWaiting = () => notices?.offerWaiting();
  const runner = new AgentRunner(context, log, offerWaiting);
  const diffs = new DiffViewer();
  const filePicker = new WorkspaceFilePicker(log);
  context.subscriptions.push(filePicker);
  const host = new EditorHost(runner, log, diffs, filePicker, new RememberedChoices(context.globalState));
  const store = await openSessionStore(context, log);
  const notifier = new Notifier();
  const chats = await ChatSessions.open(
    {
      store,
      host,
      defaultAgent: () => settingsAgent(log),
      configuredAgent: () => configuredAgent(log),
      maxRunning: () => readSettings(log).maxRunningSessions,
      say: (message) => void vscode.window.showWarningMessage(`Agent Stream: ${message}`),
      pickAgent: () => pickAgent(log),
      log: (message) => log.warn(message),
    },
    activeSessionId(context.workspaceState),
  );
  sessions = chats;
  // The store keeps to agentStream.sessions.maxStorageMB: the oldest sessions not open go, now and after each turn.
  void chats.evict();

  const viewProvider = new ChatViewProvider(context.extensionUri, chats, log, offerWaiting);
  const panels = new ChatPanels(context.extensionUri, chats, log, offerWaiting);
  const revealChat = async () => {
    if (!panels.revealIfOpen(chats.active)) await viewProvider.reveal();
  };
  const showSession = async (id: string) => {
    const session = await chats.show(id);
    if (session !== undefined) await revealChat();
  };

  const statusBar = new StatusBar("agentStream.openChat");
  const status = new SessionsStatus(chats, statusBar);
  notices = new SessionNotices(chats, notifier, {
    onScreen: (session) => viewProvider.visibleSession === session || panels.showsOnScreen(session),
    show: (session) => void showSession(session.id),
    waitingCount: () => runner.permissions.count,
  });

  // A session Claude Code writes (a `claude -p` in a terminal) is listed without waiting for a turn of ours.
  const foreign = new ForeignSessions(chats, log, () => void sessionsView.reloadForeign());
  const sessionsView = new SessionsView(chats, () => foreign.list(), log);
  const stopWatching = [
    chats.onDidChange((change) => {
      if (change === "active") rememberActiveSession(context.workspaceState, chats.active.id);
    }),
    // After each turn: the store kept to its bound, and the CLIs' own sessions read again (a `claude -p` run meanwhile).
    chats.watch(() => ({
      turnChanged: (_turn, change) => {
        if (change.kind !== "done") return;
        void chats.evict();
        void sessionsView.reloadForeign();
      },
    })),
  ];

  const commandContext: CommandContext = {
    sessions: chats,
    get chat() {
      return chats.active.conversation;
    },
    log,
    revealChat,
    openChatInEditor: (session) => panels.open(session ?? chats.active),
    openListed: (summary) => (summary.source === "agent-stream" ? chats.open(summary.id) : foreign.open(summary)),
    listed: () => sessionsView.all(),
    pickAgent: () => pickAgent(log),
    refreshSessions: () => {
      foreign.forgetAcpList();
      return sessionsView.reloadForeign();
    },
  };
  context.subscriptions.push(
    runner,
    diffs,
    statusBar,
    viewProvider,
    panels,
    sessionsView,
    foreign,
    status,
    notices,
    new vscode.Disposable(() => stopWatching.forEach((stop) => stop())),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, viewProvider),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    ...ALL_COMMANDS.map((command) => vscode.commands.registerCommand(command.id, (...args: unknown[]) => command.run(commandContext, ...args))),
    vscode.workspace.onDidGrantWorkspaceTrust(() => chats.refresh()),
    // New sessions take the settings' agent: the headers that offer it, and the agent's own sessions, change with them.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration("agentStream.cli") && !event.affectsConfiguration("agentStream.useBuiltinAgent")) return;
      chats.settingsChanged();
      foreign.forgetAcpList();
      void sessionsView.reloadForeign();
    }),
  );

  if (process.env["AGENT_STREAM_TEST_API"] !== "1") return undefined;
  return {
    get conversation() {
      return chats.active.conversation;
    },
    sessions: chats,
    statusBarItem: statusBar.item,
    interceptNotifications: (handler) => notifier.intercept(handler),
  };
}

export async function deactivate(): Promise<void> {
  // Window closing or extension stopping: no CLI outlives us, and every session's last words reach its file.
  const closing = sessions;
  sessions = undefined;
  await closing?.dispose();
}
