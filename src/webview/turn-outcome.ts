// How a finished turn ended, said once for the footer and once for screen readers.
import type { Turn } from "../protocol/messages";
import type { DoneSummary } from "../protocol/transcript";
import { formatDuration } from "../common/duration";
import { failingError, firstLine } from "../common/turn-failure";
import { usageDetail, usageFacts } from "../common/usage-text";
import { element, icon } from "./element";

type Ending = "completed" | "failed" | "stopped";

export interface Outcome {
  ending: Ending;
  done: DoneSummary;
  /** Why it failed, in one line, when it did. */
  reason: string | null;
}

/** Null while the turn runs. */
export function outcomeOf(turn: Turn, stopRequested: boolean): Outcome | null {
  const done = turn.done;
  if (done === null) return null;
  if (turn.status === "canceled" || stopRequested) return { ending: "stopped", done, reason: null };
  if (turn.status === "failed" || !done.success) return { ending: "failed", done, reason: failureReason(turn, done) };
  return { ending: "completed", done, reason: null };
}

const ENDING_LOOK: Record<Ending, { icon: string; words: string }> = {
  completed: { icon: "check", words: "Completed" },
  failed: { icon: "error", words: "Failed" },
  stopped: { icon: "debug-stop", words: "Stopped" },
};

export function turnFooter(outcome: Outcome): HTMLElement {
  const { done, ending } = outcome;
  const look = ENDING_LOOK[ending];
  const facts = [formatDuration(done.durationMs), toolsText(done.toolsUsed)];
  // The usage says the tokens in and out; an agent that counts only a total says it as before.
  const usage = done.usage === null ? [] : usageFacts(done.usage);
  if (usage.length === 0 && done.tokensUsed !== null) facts.push(`${done.tokensUsed.toLocaleString("en-US")} tokens`);
  if (ending === "failed" && done.exitCode !== 0) facts.push(`exit code ${done.exitCode}`);
  return element(
    "div",
    { className: `turn-footer ending-${ending}` },
    icon(look.icon),
    element("span", { className: "footer-ending", text: look.words }),
    ...facts.map((fact) => element("span", { className: "footer-fact", text: fact })),
    ...(usage.length === 0 || done.usage === null ? [] : [usageFootnote(usage, usageDetail(done.usage))]),
  );
}

/** What the live region says when a turn ends while the user watches. */
export function announcement(outcome: Outcome): string {
  switch (outcome.ending) {
    case "completed":
      return `Answer complete: ${countTools(outcome.done.toolsUsed.length)}, ${formatDuration(outcome.done.durationMs)}`;
    case "stopped":
      return "Stopped";
    case "failed":
      return `Failed: ${outcome.reason}`;
  }
}

/** The turn's figures, compact, with every figure in full in the tooltip. */
function usageFootnote(facts: readonly string[], detail: string): HTMLElement {
  return element(
    "span",
    { className: "footer-usage", attributes: { title: detail } },
    ...facts.map((fact) => element("span", { className: "footer-fact", text: fact })),
  );
}

function toolsText(tools: readonly string[]): string {
  return tools.length === 0 ? "no tools" : `${countTools(tools.length)} (${tools.join(", ")})`;
}

function countTools(n: number): string {
  return n === 1 ? "1 tool" : `${n} tools`;
}

/** The status bar and the notification name the same error (common/turn-failure.ts). */
function failureReason(turn: Turn, done: DoneSummary): string {
  const error = failingError(turn);
  return error === null ? `exit code ${done.exitCode}` : firstLine(error.message);
}
