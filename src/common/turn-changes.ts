// How a change from the session updates a turn. The host's copy (panel/conversation.ts) and the view's copy
// (webview/turn-view.ts) follow these rules, written once, so the two can never drift apart.
import type { SessionChange, Turn } from "../protocol/messages";
import { isFinished } from "../protocol/session-states";

/**
 * Applies one change to a turn in place. False when it had nothing to apply to (text for a block that is not text or
 * thinking, or that does not exist): the caller then has nothing to show either.
 */
export function applyChange(turn: Turn, change: SessionChange): boolean {
  switch (change.kind) {
    case "block-added":
    case "block-updated":
      // A copy: text-appended grows the block in place, and the change may be kept elsewhere (a batch, a log).
      turn.blocks[change.index] = { ...change.block };
      return true;
    case "text-appended": {
      const block = turn.blocks[change.index];
      if (block === undefined || (block.kind !== "text" && block.kind !== "thinking")) return false;
      block.text += change.text;
      return true;
    }
    case "text-truncated": {
      const block = turn.blocks[change.index];
      if (block === undefined || (block.kind !== "text" && block.kind !== "thinking")) return false;
      block.truncatedChars = change.truncatedChars;
      return true;
    }
    case "state":
      turn.state = change.state;
      return true;
    case "problem":
      turn.problems.push(change.problem);
      return true;
    case "done":
      turn.done = change.done;
      turn.status = change.status;
      if (!isFinished(turn.state)) turn.state = change.status;
      return true;
  }
}
