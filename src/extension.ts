// Extension entry point: the composition root. It creates the parts and wires them together; what each part does
// lives in the core (src/panel, src/sessions, …) and in the editor glue (src/vscode/, its commands in
// src/vscode/commands/).
import * as vscode from "vscode";
import { ChatSessions } from "./panel/chat-sessions";
import type { Conversation } from "./panel/conversation";
import { NotificationPolicy } from "./panel/notification-policy";
import { StatusTracker, type StatusView } from "./panel/status-model";
import { AgentRunner } from "./vscode/agent-runner";
import { configuredAgent, pickAgent, settingsAgent } from "./vscode/agent-picker";
import { ChatPanels, ChatViewProvider, CHAT_PANEL_TYPE, CHAT_VIEW_ID } from "./vscode/chat-webviews";
import { ALL_COMMANDS } from "./vscode/commands/all-commands";
import type { CommandContext } from "./vscode/commands/command";
import { DiffViewer } from "./vscode/diff-viewer";
import { EditorHost } from "./vscode/editor-host";
import { Notifier, type NoticeHandler } from "./vscode/notifier";
import { PermissionNotifications } from "./vscode/permission-notifications";
import { activeSessionId, openSessionStore, rememberActiveSession } from "./vscode/session-storage";
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

  // The notifications need the sessions, which need the runner: they are reached through this once both exist. A
  // request is offered when it starts waiting, and again when the last chat on screen goes away while it still waits.
  const permissionNotices = new Set<PermissionNotifications>();
  const offerWaiting = () => permissionNotices.forEach((notices) => notices.offerWaiting());
  const runner = new AgentRunner(context, log, offerWaiting);
  const diffs = new DiffViewer();
  const host = new EditorHost(runner, log, diffs);
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

  const viewProvider = new ChatViewProvider(context.extensionUri, chats, log, offerWaiting);
  const panels = new ChatPanels(context.extensionUri, chats, log, offerWaiting);
  /** Whether the user can see this session now: in the chat view, or in its editor tab. */
  const onScreen = (id: string) => viewProvider.visibleSession?.id === id || (chats.get(id) !== undefined && panels.showsOnScreen(chats.get(id)!));
  const revealChat = async () => {
    if (!panels.revealIfOpen(chats.active)) await viewProvider.reveal();
  };
  const showSession = async (id: string) => {
    const session = await chats.show(id);
    if (session !== undefined) await revealChat();
  };

  // The status bar follows the active session, and says when another one waits for an approval.
  const statusBar = new StatusBar("agentStream.openChat");
  let activeStatus: StatusView | undefined;
  const renderStatus = () => {
    const waiting = chats.waiting();
    const first = waiting[0];
    if (first === undefined || activeStatus?.kind === "waiting" && waiting.length === 1) {
      if (activeStatus !== undefined) statusBar.render(activeStatus);
      return;
    }
    const count = waiting.length === 1 ? "a session waits" : `${waiting.length} sessions wait`;
    statusBar.render({ kind: "waiting", text: `$(shield) Agent Stream: ${count} for your approval`, tooltip: `"${first.title}" (${first.agent.displayName}) asks for your approval. Click to show the chat.`, tone: "warning" });
  };
  let status: { tracker: StatusTracker; stop: () => void } | undefined;
  const followActive = () => {
    status?.stop();
    status?.tracker.dispose();
    const tracker = new StatusTracker((view) => {
      activeStatus = view;
      renderStatus();
    }, chats.active.conversation.lastTurn);
    status = { tracker, stop: chats.active.conversation.observe(tracker) };
  };
  followActive();

  const foreign = new ForeignSessions(chats, log);
  const sessionsView = new SessionsView(chats, () => foreign.list(), log);
  const stopWatching = [
    chats.onDidChange((change) => {
      if (change === "active") {
        followActive();
        rememberActiveSession(context.workspaceState, chats.active.id);
      }
      renderStatus();
    }),
    chats.watch((session) => new NotificationPolicy((notice) => notifier.show(notice, (action) => void session.conversation.runErrorAction(action, notice.turn)))),
    chats.watch((session) => {
      const notices = new PermissionNotifications(session.conversation, notifier, () => onScreen(session.id), () => runner.permissions.count);
      permissionNotices.add(notices);
      return notices;
    }),
    // A session in the background (not the active one, and not in a tab on screen) that completes says so once, with
    // a way to it. (A failure says so through its own notice, above.)
    chats.watch((session) => ({
      turnChanged: (turn, change) => {
        if (change.kind !== "done" || change.status !== "completed" || turn.origin !== "prompt" || session === chats.active || onScreen(session.id)) return;
        void notifier.ask(`Agent Stream: "${session.title}" (${session.agent.displayName}) completed.`, ["Show"]).then((choice) => {
          if (choice === "Show") void showSession(session.id);
        });
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
  };
  context.subscriptions.push(
    runner,
    diffs,
    statusBar,
    viewProvider,
    panels,
    sessionsView,
    new vscode.Disposable(() => {
      stopWatching.forEach((stop) => stop());
      status?.stop();
      status?.tracker.dispose();
    }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, viewProvider),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    ...ALL_COMMANDS.map((command) => vscode.commands.registerCommand(command.id, (...args: unknown[]) => command.run(commandContext, ...args))),
    vscode.workspace.onDidGrantWorkspaceTrust(() => chats.refresh()),
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
