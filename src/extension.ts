// Extension entry point: the composition root. It creates the parts and wires them together; what each part does
// lives in the core (src/panel, src/session, …) and in the editor glue (src/vscode/, its commands in
// src/vscode/commands/).
import * as vscode from "vscode";
import { Conversation } from "./panel/conversation";
import { NotificationPolicy } from "./panel/notification-policy";
import { StatusTracker } from "./panel/status-model";
import { AgentRunner } from "./vscode/agent-runner";
import { ChatPanels, ChatViewProvider, CHAT_PANEL_TYPE, CHAT_VIEW_ID } from "./vscode/chat-webviews";
import { ALL_COMMANDS } from "./vscode/commands/all-commands";
import type { CommandContext } from "./vscode/commands/command";
import { ConversationStore } from "./vscode/conversation-store";
import { DiffViewer } from "./vscode/diff-viewer";
import { EditorHost } from "./vscode/editor-host";
import { Notifier, type NoticeHandler } from "./vscode/notifier";
import { PermissionNotifications } from "./vscode/permission-notifications";
import { StatusBar } from "./vscode/status-bar";

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

  const store = new ConversationStore(context.workspaceState, log);
  // The notifications need the chat, which needs the runner: they are reached through this once both exist. A request
  // is offered when it starts waiting, and again when the last chat on screen goes away while it still waits.
  let permissionNotices: PermissionNotifications | undefined;
  const offerWaiting = () => permissionNotices?.offerWaiting();
  const runner = new AgentRunner(context, log, store, offerWaiting);
  const diffs = new DiffViewer();
  const host = new EditorHost(runner, store, log, diffs);
  const restored = store.restore();
  const chat = new Conversation(host, restored.turns, restored.cliConversation);
  conversation = chat;

  const statusBar = new StatusBar("agentStream.openChat");
  const status = new StatusTracker((view) => statusBar.render(view), chat.lastTurn);
  const notifier = new Notifier((action, turn) => void chat.runErrorAction(action, turn));

  const viewProvider = new ChatViewProvider(context.extensionUri, chat, offerWaiting);
  const panels = new ChatPanels(context.extensionUri, chat, offerWaiting);
  permissionNotices = new PermissionNotifications(chat, notifier, () => viewProvider.visible || panels.visible, () => runner.permissions.count);
  const stopObserving = [chat.observe(status), chat.observe(new NotificationPolicy((notice) => notifier.show(notice))), chat.observe(permissionNotices)];
  const commandContext: CommandContext = {
    chat,
    log,
    revealChat: () => (panels.revealIfOpen() ? Promise.resolve() : viewProvider.reveal()),
    openChatInEditor: () => panels.open(),
  };
  context.subscriptions.push(
    runner,
    diffs,
    statusBar,
    viewProvider,
    panels,
    new vscode.Disposable(() => {
      stopObserving.forEach((stop) => stop());
      status.dispose();
    }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, viewProvider),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    ...ALL_COMMANDS.map((command) => vscode.commands.registerCommand(command.id, (...args: unknown[]) => command.run(commandContext, ...args))),
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
