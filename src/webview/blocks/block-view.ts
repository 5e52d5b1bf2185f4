// What every view of a transcript block does, whatever its kind: one contract the turn drives, so the turn needs no
// `switch` over block kinds (the table in block-views.ts says which view shows which kind).
import type { WebviewIntent } from "../../protocol/messages";
import type { ToolCard, TranscriptBlock } from "../../protocol/transcript";
import type { ShownAs } from "../../common/shown-blocks";

export interface BlockView<B extends TranscriptBlock = TranscriptBlock> {
  /** The view's element in the turn; null for a block shown elsewhere (a status shows in the turn's status line). */
  readonly element: HTMLElement | null;
  /** The block changed (a tool finished, a request was answered, a plan was replaced): shows it in the same place. */
  update(block: B): void;
  /** Text that arrived for this block (text and thinking only). */
  grow?(text: string): void;
  /** The session kept only the start of this text: says how much more there was (0: none). */
  showCut?(droppedChars: number): void;
  /** Something follows the block or the turn ended: it will not grow again. */
  settle?(): void;
  /** The element was just put in the page (an element not in the page cannot take focus). */
  placed?(): void;
}

/** What a view knows of the turn it is in. */
export interface BlockContext {
  readonly turnId: number;
  readonly blockIndex: number;
  /** The turn is still running: its newest thinking is open, a request waiting for an answer takes focus. */
  readonly running: boolean;
  /** This is the turn's newest block. */
  readonly last: boolean;
  /** What a reader sees of it (shown-blocks.ts): a status shows only when it says more than progress. */
  readonly shown: ShownAs;
  /** A recorded stream shown as it was: nothing ran here, so its error cards offer no actions. */
  readonly replay: boolean;
  post(intent: WebviewIntent): void;
  /** The tool card with this id in the same turn, and its index (a permission request shows what its tool will do). */
  toolCard(toolId: string): { card: ToolCard; index: number } | null;
  /** Says something in the chat's polite live region. */
  announce(words: string): void;
}
