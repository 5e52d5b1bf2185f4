// The two places the chat lives: a view in its own activity-bar container, and an editor tab that a
// serializer brings back after a window reload. Both show the same conversation.
import * as vscode from "vscode";
import type { Conversation } from "../panel/conversation";
import { chatHtml, webviewOptions } from "./webview-content";

export const CHAT_VIEW_ID = "agentStream.chat";
export const CHAT_PANEL_TYPE = "agentStream.chatPanel";

/** Connects one webview to the conversation: intents in (checked by the conversation), messages out. */
function connect(webview: vscode.Webview, conversation: Conversation): vscode.Disposable {
  // The view joins the conversation when its script says `ready`, not before: it gets a snapshot, then changes.
  const view = { post: (message: unknown) => void webview.postMessage(message) };
  const listener = webview.onDidReceiveMessage((raw: unknown) => conversation.handleIntent(view, raw));
  return new vscode.Disposable(() => {
    conversation.detach(view);
    listener.dispose();
  });
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private connection: vscode.Disposable | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly conversation: Conversation,
    /** The view was hidden or shown (another view over it, its sidebar closed or opened). */
    private readonly onVisibilityChanged: () => void = () => {},
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.connection?.dispose();
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    this.connection = connect(view.webview, this.conversation);
    view.webview.html = chatHtml(view.webview, this.extensionUri, "sidebar");
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

  /** Shows the view, creating it if VS Code has not yet. */
  async reveal(): Promise<void> {
    if (this.view !== undefined) {
      this.view.show(true);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    this.connection?.dispose();
  }
}

export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly conversation: Conversation,
    /** The tab was hidden, shown or closed. */
    private readonly onVisibilityChanged: () => void = () => {},
  ) {}

  /** Shows the editor-tab chat if there is one; false when there is none. */
  revealIfOpen(): boolean {
    if (this.panel === undefined) return false;
    this.panel.reveal();
    return true;
  }

  /** Whether the editor-tab chat is on screen now (false when there is none or another tab covers it). */
  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  open(): void {
    if (this.panel !== undefined) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, "Agent Stream", vscode.ViewColumn.Beside, webviewOptions(this.extensionUri));
    this.adopt(panel);
  }

  /** After a reload: the tab comes back empty, says `ready`, and gets the conversation as a snapshot. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = webviewOptions(this.extensionUri);
    this.adopt(panel);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "agent-stream.svg");
    const connection = connect(panel.webview, this.conversation);
    panel.webview.html = chatHtml(panel.webview, this.extensionUri, "editor");
    panel.onDidChangeViewState(() => this.onVisibilityChanged());
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panel === panel) this.panel = undefined;
      this.onVisibilityChanged();
    });
  }
}
