// The files a tool changes: each with `+N −M`, a folded preview of the changed lines (text only, bounded), and
// "Open Diff" for the editor's own diff view. Shown on the tool card and on a permission request for an edit.
// A tool may change hundreds of files: the list shows the first MAX_FILES_SHOWN and counts the rest, works out each
// file's counts once, in slices of the main thread (webview/sliced-work.ts), and its preview only when opened.
import { diffLines, diffPreview } from "../../common/line-diff";
import type { ToolDiff } from "../../protocol/transcript";
import { button, element, icon, screenReaderText } from "../element";
import { slicedWork } from "../sliced-work";
import { FoldedText, MAX_SHOWN_CHARS } from "./folded-text";

/** Files one list shows; a note counts the rest. */
export const MAX_FILES_SHOWN = 100;

/** `openDiff` null: no Open Diff button (nothing to open it from). */
export function diffList(diffs: readonly ToolDiff[], openDiff: ((diffIndex: number) => void) | null): HTMLElement {
  const list = new DiffList(openDiff);
  list.update(diffs);
  return list.element;
}

/** A list that follows a card's changes: a file the change left as it was keeps its item, its counts and its fold. */
export class DiffList {
  readonly element: HTMLUListElement;
  private items: DiffItem[] = [];
  private readonly more: HTMLLIElement;

  constructor(private readonly openDiff: ((diffIndex: number) => void) | null) {
    this.more = element("li", { className: "diff-more" });
    this.element = element("ul", { className: "diff-list", attributes: { "aria-label": "Changed files" } }, this.more);
  }

  update(diffs: readonly ToolDiff[]): void {
    const shown = diffs.slice(0, MAX_FILES_SHOWN);
    shown.forEach((diff, index) => {
      const item = this.items[index];
      if (item !== undefined && item.shows(diff)) return;
      const next = new DiffItem(diff, index, this.openDiff);
      if (item === undefined) this.more.before(next.element);
      else item.replaceWith(next);
      this.items[index] = next;
    });
    for (const gone of this.items.splice(shown.length)) gone.remove();
    const hidden = diffs.length - shown.length;
    this.more.textContent = hidden > 0 ? `… and ${hidden.toLocaleString("en-US")} more changed ${hidden === 1 ? "file" : "files"}, not shown` : "";
    this.more.hidden = hidden === 0;
  }
}

class DiffItem {
  readonly element: HTMLLIElement;
  /** Set once the item left the list: its counts, if not made yet, never will be. */
  private gone = false;

  constructor(
    private readonly diff: ToolDiff,
    index: number,
    openDiff: ((diffIndex: number) => void) | null,
  ) {
    const counts = element("span", { className: "diff-counts" });
    const header = element("div", { className: "diff-header" }, pathLabel(diff.path, icon(diff.oldText === null ? "new-file" : "diff")), counts);
    if (openDiff !== null) {
      header.append(button({ label: `Open Diff of ${diff.path}`, caption: "Open Diff", iconName: "diff", className: "text-button secondary diff-open", onClick: () => openDiff(index) }));
    }
    const preview = new FoldedText("diff-preview");
    preview.showWhenOpened(previewLabel(diff), () => diffPreview(diffLines(diff.oldText, diff.newText), MAX_SHOWN_CHARS));
    this.element = element("li", { className: "diff-file" }, header, preview.element);
    slicedWork.add(() => {
      if (!this.gone) showCounts(counts, diffLines(diff.oldText, diff.newText));
    });
  }

  /** Whether this item shows exactly that file change. */
  shows(diff: ToolDiff): boolean {
    return diff.path === this.diff.path && diff.oldText === this.diff.oldText && diff.newText === this.diff.newText && diff.excerpt === this.diff.excerpt;
  }

  replaceWith(next: DiffItem): void {
    this.gone = true;
    this.element.replaceWith(next.element);
  }

  remove(): void {
    this.gone = true;
    this.element.remove();
  }
}

/** An excerpt is the part the agent replaced, not the file: its counts are the edit's, its context only what it sent. */
function previewLabel(diff: ToolDiff): string {
  if (diff.oldText === null) return "New file";
  return diff.excerpt === true ? "Changes (the replaced part only)" : "Changes";
}

function showCounts(counts: HTMLElement, lines: { added: number; removed: number }): void {
  counts.replaceChildren(
    element("span", { className: "diff-added", text: `+${lines.added}`, attributes: { "aria-hidden": "true" } }),
    element("span", { className: "diff-removed", text: `−${lines.removed}`, attributes: { "aria-hidden": "true" } }),
    screenReaderText(`${lines.added} ${lines.added === 1 ? "line" : "lines"} added, ${lines.removed} removed`),
  );
}

/**
 * The path, its folder cut first when the chat is narrow: agents name files by absolute path, and the file's own name
 * is what the user needs to see. The whole path is the element's text and its tooltip.
 */
function pathLabel(path: string, kind: HTMLElement): HTMLElement {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  // The icon travels with the name: in a narrow chat the counts and Open Diff wrap, never the icon alone.
  return element(
    "span",
    { className: "diff-path", attributes: { title: path } },
    kind,
    element("span", { className: "diff-folder", text: path.slice(0, cut) }),
    element("span", { className: "diff-name", text: path.slice(cut) }),
  );
}
