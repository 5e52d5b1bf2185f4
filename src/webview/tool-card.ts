// A tool call: what ran, on what, how it went. The full parameters are text in a <pre>, built when first opened.
import type { ToolCard, ToolStatus } from "../protocol/transcript";
import { formatDuration } from "../common/duration";
import { summarizeParameters } from "../common/tool-summary";
import { element, icon, screenReaderText } from "./element";

const STATUS_LOOK: Record<ToolStatus, { icon: string; words: string }> = {
  running: { icon: "loading codicon-modifier-spin", words: "running" },
  succeeded: { icon: "check", words: "succeeded" },
  failed: { icon: "error", words: "failed" },
  abandoned: { icon: "circle-slash", words: "abandoned: it never finished" },
};

export class ToolCardView {
  readonly element: HTMLElement;
  private card: ToolCard;
  private readonly details: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly parameters: HTMLPreElement;
  private readonly errorText: HTMLPreElement;

  constructor(card: ToolCard) {
    this.card = card;
    this.summary = element("summary");
    this.parameters = element("pre", { className: "tool-parameters" });
    this.details = element("details", {}, this.summary, this.parameters);
    this.details.addEventListener("toggle", () => this.showParameters());
    this.errorText = element("pre", { className: "tool-error" });
    this.element = element("div", { className: "tool-card", attributes: { role: "group" } }, this.details, this.errorText);
    this.show();
  }

  update(card: ToolCard): void {
    this.card = card;
    this.show();
    this.showParameters();
  }

  private show(): void {
    const { tool, status, durationMs, error, parameters } = this.card;
    const look = STATUS_LOOK[status];
    this.element.className = `tool-card tool-${status}`;
    this.element.setAttribute("aria-label", `${tool}: ${look.words}`);
    const about = summarizeParameters(parameters);
    this.summary.replaceChildren(
      icon("chevron-right", "chevron"),
      element("span", { className: "tool-status" }, icon(look.icon), screenReaderText(look.words)),
      element("span", { className: "tool-name", text: tool }),
      element("span", { className: "tool-summary", text: about, attributes: { title: about } }),
      element("span", { className: "tool-duration", text: durationText(status, durationMs) }),
    );
    this.errorText.textContent = error ?? "";
    this.errorText.hidden = error === null || error === "";
  }

  /** Large parameters (a whole file being written) are turned to text only when someone looks. */
  private showParameters(): void {
    if (!this.details.open) return;
    const { parameters } = this.card;
    this.parameters.textContent = parameters === null ? "(no parameters)" : JSON.stringify(parameters, null, 2);
  }
}

function durationText(status: ToolStatus, durationMs: number | null): string {
  if (status === "abandoned") return "abandoned";
  return durationMs === null ? "" : formatDuration(durationMs);
}
