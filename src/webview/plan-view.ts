// The agent's plan: its entries in order, each with its status. An update replaces the whole plan in place.
import type { PlanBlock } from "../protocol/transcript";
import { element, icon, screenReaderText } from "./element";

const STATUS_ICONS = { pending: "circle-large-outline", in_progress: "loading", completed: "pass-filled" } as const;
const STATUS_WORDS = { pending: "to do", in_progress: "in progress", completed: "done" } as const;

export function planElement(block: PlanBlock): HTMLElement {
  const entries = block.entries.map((entry) =>
    element(
      "li",
      { className: `plan-entry plan-${entry.status} plan-priority-${entry.priority}` },
      icon(STATUS_ICONS[entry.status], entry.status === "in_progress" ? "codicon-modifier-spin" : ""),
      screenReaderText(`${STATUS_WORDS[entry.status]}, ${entry.priority} priority: `),
      element("span", { className: "plan-content", text: entry.content }),
    ),
  );
  return element("section", { className: "plan", attributes: { "aria-label": "Plan" } }, element("div", { className: "plan-title", text: "Plan" }), element("ol", {}, ...entries));
}
