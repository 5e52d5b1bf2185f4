// The session's usage in the chat's header: its turns' tokens and cost added up, and the context as the agent last
// said it. Compact where it is seen, in full in its tooltip and for screen readers.
import { meterFacts, usageDetail } from "../common/usage-text";
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
    const facts = total === null ? [] : meterFacts(total);
    const compact = facts.join(" · ");
    if (compact === this.shown) return;
    this.shown = compact;
    this.element.hidden = facts.length === 0;
    this.figures.textContent = compact;
    const detail = total === null ? "" : `Session usage: ${usageDetail(total)}`;
    this.element.title = detail;
    this.spoken.textContent = detail;
  }
}
