// The Sessions view: one row per conversation of this workspace, newest first — title, agent, state (with a codicon),
// when, and `+N −M` where known — and the sessions of the CLIs' own stores, labelled with the CLI's name. Its badge
// counts the sessions waiting for an approval.
import * as vscode from "vscode";
import type { ChatSessions } from "../panel/chat-sessions";
import type { SessionStatus, SessionSummary } from "../protocol/sessions";
import { listedSessions } from "../sessions/session-summary";

export const SESSIONS_VIEW_ID = "agentStream.sessions";

const STATUS: Readonly<Record<SessionStatus, { icon: string; color?: string; words: string }>> = {
  new: { icon: "circle-large-outline", words: "new" },
  running: { icon: "loading~spin", words: "running" },
  waiting: { icon: "shield", color: "list.warningForeground", words: "waiting for you" },
  completed: { icon: "pass", color: "testing.iconPassed", words: "completed" },
  failed: { icon: "error", color: "list.errorForeground", words: "failed" },
  // Not `debug-stop`: the workbench paints that one in the debugger's red, and a stop the user chose is no failure.
  stopped: { icon: "stop-circle", words: "stopped" },
};

/** Sessions of the CLIs' own stores, for this workspace (Claude Code's): listed beside ours, read only. */
export type ForeignSessions = () => Promise<SessionSummary[]>;

export class SessionsView implements vscode.TreeDataProvider<SessionSummary>, vscode.Disposable {
  readonly treeView: vscode.TreeView<SessionSummary>;
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stopFollowing: () => void;
  private refreshTimer: NodeJS.Timeout | undefined;
  private foreign: SessionSummary[] = [];

  constructor(
    private readonly sessions: ChatSessions,
    private readonly foreignSessions: ForeignSessions,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.treeView = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
    // Rows change with every state a session passes through: one repaint for a burst of them.
    this.stopFollowing = sessions.onDidChange(() => this.refreshSoon());
    this.treeView.onDidChangeVisibility((event) => {
      if (event.visible) void this.reloadForeign();
    });
    void this.reloadForeign();
    this.updateBadge();
  }

  getTreeItem(summary: SessionSummary): vscode.TreeItem {
    const active = this.sessions.active.id === summary.id;
    // The active session's title is highlighted, as a match is: the "●" of its description is the first thing cut off
    // at the default width. (Selecting its row instead would need TreeView.reveal, which opens the sidebar too.)
    const label: vscode.TreeItemLabel = { label: summary.title, highlights: active ? [[0, summary.title.length]] : [] };
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = summary.id;
    const status = STATUS[summary.status];
    item.iconPath = new vscode.ThemeIcon(status.icon, status.color === undefined ? undefined : new vscode.ThemeColor(status.color));
    const changes = summary.changes === null ? "" : ` · +${summary.changes.added} −${summary.changes.removed}`;
    item.description = `${active ? "● " : ""}${summary.agent.displayName} · ${ago(summary.updatedAt, Date.now())}${changes}`;
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.appendText(summary.title);
    tooltip.appendMarkdown("\n\n");
    tooltip.appendText(
      `${summary.agent.displayName} · ${status.words} · ${summary.turnCount} ${summary.turnCount === 1 ? "turn" : "turns"} · ${new Date(summary.updatedAt).toLocaleString()}${changes}`,
    );
    if (summary.source !== "agent-stream") tooltip.appendText(`\n\nFrom ${summary.agent.displayName}'s own sessions: opening it continues it here; its own store is never changed.`);
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: `${summary.title}, ${summary.agent.displayName}, ${status.words}${active ? ", active" : ""}` };
    item.contextValue = `session.${summary.source === "agent-stream" ? "ours" : "foreign"}.${summary.status}`;
    item.command = { command: "agentStream.openSession", title: "Open Session", arguments: [summary] };
    return item;
  }

  getChildren(element?: SessionSummary): SessionSummary[] {
    if (element !== undefined) return [];
    return listedSessions(this.sessions.list(), this.foreign);
  }

  /** Reads the CLIs' own stores again (when the view is shown, and when asked). */
  async reloadForeign(): Promise<void> {
    try {
      this.foreign = await this.foreignSessions();
    } catch (error) {
      this.log.warn(`the CLIs' own sessions could not be listed: ${String(error)}`);
      this.foreign = [];
    }
    this.refreshSoon();
  }

  /** Everything listed, ours and the CLIs' (the search goes over both). */
  all(): SessionSummary[] {
    return this.getChildren();
  }

  dispose(): void {
    this.stopFollowing();
    clearTimeout(this.refreshTimer);
    this.changed.dispose();
    this.treeView.dispose();
  }

  private refreshSoon(): void {
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      this.changed.fire(undefined);
      this.updateBadge();
    }, 50);
  }

  private updateBadge(): void {
    const waiting = this.sessions.waiting().length;
    this.treeView.badge = waiting === 0 ? undefined : { value: waiting, tooltip: `${waiting} ${waiting === 1 ? "session waits" : "sessions wait"} for your approval` };
  }
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function ago(then: number, now: number): string {
  const minutes = Math.floor((now - then) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} d ago`;
  return new Date(then).toLocaleDateString();
}
