// The notifications of every session: why a run failed (with its fix), a permission request nobody can see (with the
// agent's options), and a session in the background that completed (with Show).
import type { ChatSession } from "../panel/chat-session";
import type { ChatSessions } from "../panel/chat-sessions";
import { NotificationPolicy } from "../panel/notification-policy";
import type { Notifier } from "./notifier";
import { PermissionNotifications } from "./permission-notifications";

export interface SessionNoticesOptions {
  /** Whether the user can see this session now: in the chat view, or in its editor tab. */
  onScreen(session: ChatSession): boolean;
  /** Makes the session active and shows it. */
  show(session: ChatSession): void;
  /** How many permission requests wait for the user now. */
  waitingCount(): number;
}

export class SessionNotices {
  private readonly permissions = new Map<string, PermissionNotifications>();
  private readonly stops: (() => void)[];

  constructor(
    private readonly sessions: ChatSessions,
    notifier: Notifier,
    options: SessionNoticesOptions,
  ) {
    this.stops = [
      sessions.watch((session) => new NotificationPolicy((notice) => notifier.show(notice, (action) => void session.conversation.runErrorAction(action, notice.turn)))),
      sessions.watch((session) => {
        const notices = new PermissionNotifications(session.conversation, notifier, () => options.onScreen(session), () => options.waitingCount());
        this.permissions.set(session.id, notices);
        return notices;
      }),
      // A session in the background (not the active one, not in a tab on screen) that completes says so once, with a
      // way to it. (A failure says so through its own notice, above.)
      sessions.watch((session) => ({
        turnChanged: (turn, change) => {
          if (change.kind !== "done" || change.status !== "completed" || turn.origin !== "prompt" || session === sessions.active || options.onScreen(session)) return;
          void notifier.ask(`Agent Stream: "${session.title}" (${session.agent.displayName}) completed.`, ["Show"]).then((choice) => {
            if (choice === "Show") options.show(session);
          });
        },
      })),
    ];
  }

  /** A request started waiting, or a chat went off screen: each session offers what waits unseen. */
  offerWaiting(): void {
    for (const [id, notices] of this.permissions) {
      if (this.sessions.get(id) === undefined) this.permissions.delete(id);
      else notices.offerWaiting();
    }
  }

  dispose(): void {
    this.stops.forEach((stop) => stop());
    this.permissions.clear();
  }
}
