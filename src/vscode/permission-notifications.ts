// A permission request waiting while no chat is on screen would go unseen: it is offered as a notification too, with
// the agent's options as buttons in its words. A click answers exactly like the card does, by the request's id;
// dismissing the notification answers nothing (the card still waits), so closing anything is never an allow. A request
// about files outside the workspace says so here as on the card: the notification is all the user may see of it.
import type { Conversation, ConversationObserver } from "../panel/conversation";
import type { SessionChange, Turn } from "../protocol/messages";
import type { PermissionBlock } from "../protocol/transcript";
import type { Notifier } from "./notifier";

export class PermissionNotifications implements ConversationObserver {
  /** `turnId:requestId` of the requests already offered: one notification per request. */
  private readonly offered = new Set<string>();

  constructor(
    private readonly chat: Conversation,
    private readonly notifier: Pick<Notifier, "ask">,
    /** Whether any chat view or tab is on screen. */
    private readonly chatVisible: () => boolean,
    /** How many requests wait for the user now (auto-answered ones never do). */
    private readonly waitingCount: () => number,
  ) {}

  turnChanged(_turn: Turn, change: SessionChange): void {
    if (change.kind !== "block-added" || change.block.kind !== "permission") return;
    this.offerWaiting();
  }

  /**
   * Called when a card appears and when a request starts waiting, whichever comes second finds both: a card whose
   * request the setting answers at once never waits, so it is never offered. Called again when a chat is hidden or
   * closed: a request that waited on screen is offered once the user can no longer see it.
   */
  offerWaiting(): void {
    const turn = this.chat.lastTurn;
    if (turn === undefined || this.waitingCount() === 0 || this.chatVisible()) return;
    for (const block of turn.blocks) {
      if (block.kind !== "permission" || block.decision !== null) continue;
      const key = `${turn.id}:${block.requestId}`;
      if (this.offered.has(key)) continue;
      this.offered.add(key);
      void this.notifier.ask(permissionMessage(block), buttonOrder(block.options).map((option) => option.name)).then((chosen) => {
        const option = block.options.find((candidate) => candidate.name === chosen);
        // Answered meanwhile (on its card, by Stop): the click is too late, and says nothing.
        if (option === undefined || !stillWaiting(turn, block.requestId)) return;
        this.chat.answerPermission(turn.id, block.requestId, option.id);
      });
    }
  }
}

/**
 * The options as buttons: VS Code makes the first one the notification's primary button, which a quick Enter picks, so
 * it is a one-time answer, never an "always" (agents list theirs in any order).
 */
const BUTTON_ORDER: Record<PermissionBlock["options"][number]["kind"], number> = { allow_once: 0, reject_once: 1, allow_always: 2, reject_always: 3 };

function buttonOrder(options: PermissionBlock["options"]): PermissionBlock["options"] {
  return [...options].sort((a, b) => BUTTON_ORDER[a.kind] - BUTTON_ORDER[b.kind]);
}

function stillWaiting(turn: Turn, requestId: string): boolean {
  return turn.blocks.some((block) => block.kind === "permission" && block.requestId === requestId && block.decision === null);
}

/** The request's title, and the files outside the workspace it names, as the card warns of them. */
function permissionMessage(block: Pick<PermissionBlock, "title" | "outsideWorkspace">): string {
  const outside = block.outsideWorkspace.length === 0 ? "" : ` — outside your workspace: ${block.outsideWorkspace.join(", ")}`;
  return `Agent Stream: ${block.title}${outside}`;
}
