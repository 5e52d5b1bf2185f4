// The places a session is shown: the chat view in the Agent Stream container (it shows the active session, and moves
// with it), and editor tabs, one per session, that a serializer brings back after a window reload.
import * as vscode from "vscode";
import type { ChatSession } from "../panel/chat-session";
import type { ChatSessions } from "../panel/chat-sessions";
import { SessionView } from "../panel/session-view";
import { SessionIdSchema, type SessionId } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { showChatPage, webviewOptions } from "./webview-content";

export const CHAT_VIEW_ID = "agentStream.chat";
export const CHAT_PANEL_TYPE = "agentStream.chatPanel";

/** A webview showing one session at a time (SessionView), wired to the webview's messages. */
class SessionWebview extends SessionView implements vscode.Disposable {
  private readonly listener: vscode.Disposable;

  constructor(webview: vscode.Webview, target: ChatSession, log: vscode.LogOutputChannel) {
    super((message) => void webview.postMessage(message), target, (reason) => log.warn(escapeForLog(reason)));
    this.listener = webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
  }

  override dispose(): void {
    super.dispose();
    this.listener.dispose();
  }
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private connection: SessionWebview | undefined;
  private readonly stopFollowing: () => void;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessions: ChatSessions,
    private readonly log: vscode.LogOutputChannel,
    /** The view was hidden or shown (another view over it, its sidebar closed or opened). */
    private readonly onVisibilityChanged: () => void = () => {},
  ) {
    // The view shows the active session, whichever it is.
    this.stopFollowing = sessions.onDidChange((change) => {
      if (change === "active") this.connection?.show(sessions.active);
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.connection?.dispose();
    this.view = view;
    this.connection = new SessionWebview(view.webview, this.sessions.active, this.log);
    showChatPage(view.webview, this.extensionUri, "sidebar");
    view.onDidChangeVisibility(() => this.onVisibilityChanged());
    view.onDidDispose(() => {
      this.connection?.dispose();
      this.connection = undefined;
      this.view = undefined;
    });
  }

  /** Whether the view is on screen now (false when its sidebar is closed or another view covers it). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The session the view shows (or is loading) while it is on screen, else undefined. */
  get visibleSession(): ChatSession | undefined {
    return this.visible ? this.connection?.showing : undefined;
  }

  /** Shows the view, creating it if VS Code has not yet. */
  async reveal(): Promise<void> {
    if (this.view !== undefined) {
      this.view.show(true);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    this.stopFollowing();
    this.connection?.dispose();
  }
}

/** Editor tabs, one per session at most. Closing a tab leaves its session (and its run) as they are. */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly panels = new Map<SessionId, { panel: vscode.WebviewPanel; connection: SessionWebview }>();
  private readonly stopFollowing: () => void;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessions: ChatSessions,
    private readonly log: vscode.LogOutputChannel,
    /** A tab was hidden, shown or closed. */
    private readonly onVisibilityChanged: () => void = () => {},
  ) {
    // A tab's title is its session's; a deleted session's tab closes.
    this.stopFollowing = sessions.onDidChange((change, session) => {
      if (change !== "list") return;
      for (const [id, { panel }] of this.panels) {
        const live = sessions.get(id);
        if (live === undefined) panel.dispose();
        else if (session === live) panel.title = tabTitle(live);
      }
    });
  }

  /** Shows the active session's tab if it has one; false when it has none. */
  revealIfOpen(session: ChatSession): boolean {
    const open = this.panels.get(session.id);
    if (open === undefined) return false;
    open.panel.reveal();
    return true;
  }

  /** Whether a tab of this session is on screen now. */
  showsOnScreen(session: ChatSession): boolean {
    return this.panels.get(session.id)?.panel.visible ?? false;
  }

  /** Whether any tab is on screen now. */
  get visible(): boolean {
    return [...this.panels.values()].some(({ panel }) => panel.visible);
  }

  /** Shows the session in its own editor tab (the one it has, or a new one beside the editor). */
  open(session: ChatSession): void {
    const open = this.panels.get(session.id);
    if (open !== undefined) {
      open.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, tabTitle(session), vscode.ViewColumn.Beside, webviewOptions(this.extensionUri));
    this.adopt(panel, session);
  }

  /** After a reload: the tab comes back empty with the state its page saved, which names the session it showed. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = SessionIdSchema.safeParse(typeof state === "object" && state !== null ? (state as { sessionId?: unknown }).sessionId : undefined);
    const session = (id.success ? await this.sessions.open(id.data) : undefined) ?? this.sessions.active;
    if (this.panels.has(session.id)) {
      panel.dispose();
      return;
    }
    this.adopt(panel, session);
  }

  dispose(): void {
    this.stopFollowing();
    for (const { panel } of this.panels.values()) panel.dispose();
  }

  private adopt(panel: vscode.WebviewPanel, session: ChatSession): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "agent-stream.svg");
    panel.title = tabTitle(session);
    const connection = new SessionWebview(panel.webview, session, this.log);
    this.panels.set(session.id, { panel, connection });
    showChatPage(panel.webview, this.extensionUri, "editor");
    panel.onDidChangeViewState(() => this.onVisibilityChanged());
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panels.get(session.id)?.panel === panel) this.panels.delete(session.id);
      this.onVisibilityChanged();
    });
  }
}

/** A tab's title: the session's, short enough for a tab. */
function tabTitle(session: ChatSession): string {
  const title = session.title;
  return title.length > 40 ? `${title.slice(0, 39)}…` : title;
}
