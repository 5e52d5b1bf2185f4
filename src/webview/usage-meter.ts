// The session's usage in the chat's header: its turns' tokens and cost added up, and the context as the agent last
// said it. The footer's figures, seen without hovering; in full in its tooltip and for screen readers.
import { usageDetail, usageFacts } from "../common/usage-text";
import type { TurnUsage } from "../protocol/usage";
import { element, icon, screenReaderText } from "./element";

export class UsageMeter {
  readonly element: HTMLElement;
  private readonly figures: HTMLElement;
  private readonly spoken: HTMLElement;
  /** What is shown, so a paint that changes nothing touches no DOM. */
  private shown = "";

  constructor() {
    this.figures = element("span", { className: "usage-meter-figures", attributes: { "aria-hidden": "true" } });
    this.spoken = screenReaderText("");
    this.element = element("span", { className: "usage-meter" }, icon("dashboard"), this.figures, this.spoken);
    this.element.hidden = true;
  }

  /** Null: no turn of the session said any figure, and the meter is not shown. */
  show(total: TurnUsage | null): void {
    const facts = total === null ? [] : usageFacts(total);
    const compact = facts.join(" · ");
    if (compact === this.shown) return;
    this.shown = compact;
    this.element.hidden = facts.length === 0;
    // One unbreakable piece per figure, its dot ending it: a narrow header wraps between figures, never inside one.
    const pieces = facts.map((fact, index) => element("span", { className: "usage-meter-fact", text: index < facts.length - 1 ? `${fact} ·` : fact }));
    this.figures.replaceChildren(...pieces.flatMap((piece, index) => (index === 0 ? [piece] : [" ", piece])));
    const detail = total === null ? "" : `Session usage: ${usageDetail(total)}`;
    this.element.title = detail;
    this.spoken.textContent = detail;
  }
}
