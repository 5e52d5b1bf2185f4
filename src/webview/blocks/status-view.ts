// A status the agent reported ("Reading the code"). It has no element of its own: the turn's status line shows the
// newest one while the turn runs (turn-view.ts).
import type { TranscriptBlock } from "../../protocol/transcript";
import type { BlockView } from "./block-view";

export type StatusBlock = Extract<TranscriptBlock, { kind: "status" }>;

export class StatusView implements BlockView<StatusBlock> {
  readonly element = null;

  update(_block: StatusBlock): void {
    // Nothing to show here: the turn reads its status blocks from its copy of the turn.
  }
}
