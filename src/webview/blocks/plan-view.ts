// The agent's plan: its entries in order, each with its status. An update replaces the whole plan in place.
import type { PlanBlock } from "../../protocol/transcript";
import { element, icon, screenReaderText } from "../element";
import type { BlockView } from "./block-view";

const STATUS_ICONS = { pending: "circle-large-outline", in_progress: "loading", completed: "pass-filled" } as const;
const STATUS_WORDS = { pending: "to do", in_progress: "in progress", completed: "done" } as const;

export class PlanView implements BlockView<PlanBlock> {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;

  constructor(block: PlanBlock) {
    this.list = element("ol", { className: "plan-entries" });
    this.element = element("section", { className: "plan", attributes: { "aria-label": "Plan" } }, element("div", { className: "plan-title" }, icon("checklist"), element("span", { text: "Plan" })), this.list);
    this.update(block);
  }

  update(block: PlanBlock): void {
    this.list.replaceChildren(
      ...block.entries.map((entry) =>
        element(
          "li",
          { className: `plan-entry plan-${entry.status} plan-priority-${entry.priority}` },
          icon(STATUS_ICONS[entry.status], entry.status === "in_progress" ? "codicon-modifier-spin" : ""),
          screenReaderText(`${STATUS_WORDS[entry.status]}, ${entry.priority} priority: `),
          element("span", { className: "plan-content", text: entry.content }),
        ),
      ),
    );
  }
}
