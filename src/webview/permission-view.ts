// An agent's request to act, and how it was answered. Shown as text: the agent's title and its options in its words.
import type { PermissionBlock } from "../protocol/transcript";
import { element, icon } from "./element";

const DECISION_WORDS = { allowed: "Allowed", rejected: "Rejected", cancelled: "Cancelled" } as const;

export function permissionElement(block: PermissionBlock): HTMLElement {
  const chosen = block.options.find((option) => option.id === block.optionId);
  const by = block.answeredBy === "setting" ? " by your setting" : block.answeredBy === "user" ? " by you" : "";
  const answer =
    block.decision === null
      ? "Waiting for an answer"
      : `${DECISION_WORDS[block.decision]}${chosen ? ` (${chosen.name})` : ""}${by}`;
  return element(
    "section",
    { className: `permission permission-${block.decision ?? "waiting"}`, attributes: { "aria-label": `Permission: ${block.title}` } },
    element("div", { className: "permission-title" }, icon("shield"), element("span", { text: block.title })),
    element("div", { className: "permission-options", text: block.options.map((option) => option.name).join(" · ") }),
    element("div", { className: "permission-answer", text: answer }),
  );
}
