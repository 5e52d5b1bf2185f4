// A tool call: what ran, on what, how it went; for agents that say more (ACP), its kind, the places it works on,
// the files it changes and what it printed. The full parameters are text in a <pre>, built when first opened;
// output and diffs are text too, folded and bounded.
import type { ToolCard, ToolStatus } from "../../protocol/transcript";
import { formatDuration } from "../../common/duration";
import { toolAbout } from "../../common/tool-summary";
import { element, icon, screenReaderText } from "../element";
import type { BlockContext, BlockView } from "./block-view";
import { DiffList } from "./diff-list";
import { countLines, FoldedText } from "./folded-text";
import { pathLinks } from "../path-links";

const STATUS_LOOK: Record<ToolStatus, { icon: string; words: string }> = {
  running: { icon: "loading codicon-modifier-spin", words: "running" },
  succeeded: { icon: "check", words: "succeeded" },
  failed: { icon: "error", words: "failed" },
  abandoned: { icon: "circle-slash", words: "abandoned: it never finished" },
};

/** ACP's tool kinds; an agent may send one we do not know, shown as "other". */
const KIND_LOOK: Readonly<Record<string, { icon: string; words: string }>> = {
  read: { icon: "eye", words: "read" },
  edit: { icon: "edit", words: "edit" },
  delete: { icon: "trash", words: "delete" },
  move: { icon: "arrow-right", words: "move" },
  search: { icon: "search", words: "search" },
  execute: { icon: "terminal", words: "run a command" },
  think: { icon: "lightbulb", words: "think" },
  fetch: { icon: "globe", words: "fetch" },
  switch_mode: { icon: "arrow-swap", words: "switch mode" },
  other: { icon: "tools", words: "other" },
};

/** The icon and words for a tool's kind, or null when the agent named none. */
export function toolKindLook(kind: string | null): { icon: string; words: string } | null {
  if (kind === null) return null;
  return Object.hasOwn(KIND_LOOK, kind) ? KIND_LOOK[kind]! : KIND_LOOK["other"]!;
}

export class ToolCardView implements BlockView<ToolCard> {
  readonly element: HTMLElement;
  private card: ToolCard;
  private readonly details: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly parameters: HTMLPreElement;
  private readonly locations: HTMLElement;
  private readonly diffs: HTMLElement;
  private readonly diffList: DiffList;
  /** Made when the tool has output: a card without any has only its own <summary>. */
  private output: FoldedText | null = null;
  private readonly errorText: HTMLPreElement;

  constructor(card: ToolCard, context: BlockContext) {
    this.card = card;
    this.summary = element("summary");
    this.parameters = element("pre", { className: "tool-parameters" });
    this.details = element("details", {}, this.summary, this.parameters);
    this.details.addEventListener("toggle", () => this.showParameters());
    this.locations = element("div", { className: "tool-locations" });
    const { turnId, blockIndex, post } = context;
    this.diffList = new DiffList((diffIndex) => post({ type: "openDiff", turnId, blockIndex, diffIndex }));
    this.diffs = element("div", { className: "tool-diffs" }, this.diffList.element);
    this.diffs.hidden = true;
    this.errorText = element("pre", { className: "tool-error" });
    this.element = element("div", { className: "tool-card", attributes: { role: "group" } }, this.details, this.locations, this.diffs, this.errorText);
    this.show();
  }

  update(card: ToolCard): void {
    this.card = card;
    this.show();
    this.showParameters();
  }

  private show(): void {
    const { tool, status, durationMs, error, title } = this.card;
    const look = STATUS_LOOK[status];
    const kind = toolKindLook(this.card.toolKind);
    this.element.className = `tool-card tool-${status}`;
    this.element.setAttribute("aria-label", `${title ?? tool}: ${look.words}`);
    const about = toolAbout(this.card);
    this.summary.replaceChildren(
      icon("chevron-right", "chevron"),
      element("span", { className: "tool-status" }, icon(look.icon), screenReaderText(look.words)),
      ...(kind === null ? [] : [element("span", { className: "tool-kind", attributes: { title: kind.words } }, icon(kind.icon), screenReaderText(`(${kind.words})`))]),
      element("span", { className: "tool-name", text: tool }),
      element("span", { className: "tool-summary", text: about, attributes: { title: about } }),
      element("span", { className: "tool-duration", text: durationText(status, durationMs) }),
    );
    this.showLocations();
    this.showDiffs();
    this.showOutput();
    this.errorText.textContent = error ?? "";
    this.errorText.hidden = error === null || error === "";
  }

  private showLocations(): void {
    const { locations } = this.card;
    this.locations.hidden = locations.length === 0;
    this.locations.replaceChildren(
      ...locations.map((place) => {
        const where = place.line === null ? place.path : `${place.path}:${place.line}`;
        return element("span", { className: "tool-location", attributes: { title: where } }, icon("location"), element("span", { text: where }));
      }),
    );
    // A place in a workspace file opens at its line, as paths in answers do.
    pathLinks.markCandidates(this.locations);
  }

  /** What the tool printed or returned, folded: text only, bounded. */
  private showOutput(): void {
    const { output } = this.card;
    if (output === null) {
      this.output?.element.remove();
      this.output = null;
      return;
    }
    if (this.output === null) {
      this.output = new FoldedText("tool-output");
      this.errorText.before(this.output.element);
    }
    this.output.show(`Output (${countLines(output)})`, output);
  }

  /** A file the update left as it was keeps its item: its counts are not made again, its open preview stays open. */
  private showDiffs(): void {
    const { diffs } = this.card;
    this.diffs.hidden = diffs.length === 0;
    this.diffList.update(diffs);
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
