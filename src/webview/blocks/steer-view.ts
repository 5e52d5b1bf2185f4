// A message the user sent into the running turn: shown in the answer where it arrived, in the prompt's own look (as is
// a later prompt a replayed recording holds, "You"). One the agent never took says so once its run has ended.
import type { SteerBlock } from "../../protocol/transcript";
import { steerHeading } from "../../common/steer-words";
import { element, icon } from "../element";
import type { BlockView } from "./block-view";

export class SteerView implements BlockView<SteerBlock> {
  readonly element: HTMLElement;
  private readonly who: HTMLElement;
  private readonly text: HTMLElement;

  /** `who`: a fixed heading, for a message that is not a steered one (a replayed recording's later prompt). */
  constructor(
    block: SteerBlock,
    private readonly fixedWho?: string,
  ) {
    const who = fixedWho ?? steerHeading(block);
    this.who = element("span", { text: who });
    this.text = element("div", { className: "prompt-text", text: block.text });
    this.element = element(
      "div",
      { className: "steered-message", attributes: { role: "group", "aria-label": who } },
      element("div", { className: "turn-role" }, icon("account"), this.who),
      this.text,
    );
  }

  update(block: SteerBlock): void {
    this.text.textContent = block.text;
    const who = this.fixedWho ?? steerHeading(block);
    this.who.textContent = who;
    this.element.setAttribute("aria-label", who);
  }
}
