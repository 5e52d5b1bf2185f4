// The status bar across sessions: it follows the active session (starting, streaming, the tool running, completed,
// failed, stopped), and says so when any session waits for an approval, naming the first.
import type * as vscode from "vscode";
import type { ChatSessions } from "../panel/chat-sessions";
import { StatusTracker, type StatusView } from "../panel/status-model";
import type { StatusBar } from "./status-bar";

export class SessionsStatus implements vscode.Disposable {
  private activeView: StatusView | undefined;
  private following: { tracker: StatusTracker; stop: () => void } | undefined;
  private readonly stopWatching: () => void;

  constructor(
    private readonly sessions: ChatSessions,
    private readonly statusBar: StatusBar,
  ) {
    this.follow();
    this.stopWatching = sessions.onDidChange((change) => {
      if (change === "active") this.follow();
      else this.render();
    });
  }

  dispose(): void {
    this.stopWatching();
    this.following?.stop();
    this.following?.tracker.dispose();
  }

  private follow(): void {
    this.following?.stop();
    this.following?.tracker.dispose();
    const conversation = this.sessions.active.conversation;
    const tracker = new StatusTracker((view) => {
      this.activeView = view;
      this.render();
    }, conversation.lastTurn);
    this.following = { tracker, stop: conversation.observe(tracker) };
  }

  private render(): void {
    const waiting = this.sessions.waiting();
    const first = waiting[0];
    // The active session's own words say it best when it is the only one waiting.
    if (first === undefined || (this.activeView?.kind === "waiting" && waiting.length === 1 && first === this.sessions.active)) {
      if (this.activeView !== undefined) this.statusBar.render(this.activeView);
      return;
    }
    const count = waiting.length === 1 ? "a session waits" : `${waiting.length} sessions wait`;
    this.statusBar.render({
      kind: "waiting",
      text: `$(shield) Agent Stream: ${count} for your approval`,
      tooltip: `"${first.title}" (${first.agent.displayName}) asks for your approval. Click to show the chat.`,
      tone: "warning",
    });
  }
}
