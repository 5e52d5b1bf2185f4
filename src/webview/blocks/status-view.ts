// A status the agent reported. Progress ("Reading the code", a token count) has no element of its own: the turn's
// status line shows the newest one while the turn runs (turn-view.ts). What shown-blocks.ts says a reader needs stays
// in the answer: a user's message only the agent's echo holds, in the look of a steered one, or a notice.
import type { TranscriptBlock } from "../../protocol/transcript";
import type { ShownAs } from "../../common/shown-blocks";
import { element, icon } from "../element";
import type { BlockView } from "./block-view";
import { SteerView } from "./steer-view";

export type StatusBlock = Extract<TranscriptBlock, { kind: "status" }>;

export class StatusView implements BlockView<StatusBlock> {
  readonly element: HTMLElement | null;

  constructor(shown: ShownAs) {
    switch (shown.as) {
      case "user message":
        this.element = new SteerView({ kind: "steer", text: shown.text }, "You").element;
        break;
      case "notice":
        this.element = element("div", { className: "status-notice", attributes: { role: "note" } }, icon("info"), element("span", { text: shown.text }));
        break;
      default:
        this.element = null;
    }
  }

  update(_block: StatusBlock): void {
    // A status is never changed: the agent reports a new one.
  }
}
