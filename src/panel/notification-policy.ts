// Which of a session's errors deserve a pop-up, and with which actions. A failed session gets one notification
// for the error that ended it; malformed output gets at most one per session; recoverable errors stay inline in the
// panel; the user's own Stop and replayed streams never notify.
import { ERROR_GUIDES, guideFor } from "../protocol/error-guides";
import type { ErrorAction, SessionChange, Turn } from "../protocol/messages";
import type { ConversationObserver } from "./conversation";
import { failingError, firstLine } from "../common/turn-failure";

export interface Notice {
  severity: "error" | "warning";
  message: string;
  actions: readonly ErrorAction[];
  /** The turn the actions apply to (Retry asks its prompt again). */
  turn: Turn;
}

export class NotificationPolicy implements ConversationObserver {
  private readonly malformedNoticeGiven = new Set<number>();

  constructor(private readonly notify: (notice: Notice) => void) {}

  turnChanged(turn: Turn, change: SessionChange): void {
    if (turn.origin === "replay") return;
    if (change.kind === "problem" && change.problem.code === "MALFORMED_EVENT" && !this.malformedNoticeGiven.has(turn.id)) {
      this.malformedNoticeGiven.add(turn.id);
      const guide = ERROR_GUIDES.MALFORMED_EVENT;
      const where = change.problem.line === null ? "" : ` (line ${change.problem.line})`;
      this.notify({
        severity: "warning",
        message: `${turn.agent}: ${guide.title}${where}: ${firstLine(change.problem.message)}. The rest of the answer is still shown; the log has every skipped line.`,
        actions: guide.actions,
        turn,
      });
      return;
    }
    if (change.kind !== "done") return;
    this.malformedNoticeGiven.delete(turn.id);
    // "canceled" is only ever the user's own Stop; a completed turn needs no pop-up.
    if (change.status !== "failed") return;
    const error = failingError(turn);
    // Malformed lines already had their one notification; if they are all that went wrong, that was it.
    if (error !== null && error.code === "MALFORMED_EVENT" && error.recoverable) return;
    const guide = error === null ? ERROR_GUIDES.UNKNOWN : guideFor(error);
    const detail = error === null ? `it ended without success (exit code ${change.done.exitCode})` : firstLine(error.message);
    this.notify({ severity: "error", message: `${turn.agent}: ${guide.title}. ${detail}`, actions: guide.actions, turn });
  }
}
