// A message the user sent into the running turn: shown in the answer where it arrived, in the prompt's own look (as is
// a later prompt a replayed recording holds, "You").
import type { SteerBlock } from "../../protocol/transcript";
import { element, icon } from "../element";
import type { BlockView } from "./block-view";

export class SteerView implements BlockView<SteerBlock> {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;

  constructor(block: SteerBlock, who = "You, while the agent worked") {
    this.text = element("div", { className: "prompt-text", text: block.text });
    this.element = element(
      "div",
      { className: "steered-message", attributes: { role: "group", "aria-label": who } },
      element("div", { className: "turn-role" }, icon("account"), element("span", { text: who })),
      this.text,
    );
  }

  update(block: SteerBlock): void {
    this.text.textContent = block.text;
  }
}
