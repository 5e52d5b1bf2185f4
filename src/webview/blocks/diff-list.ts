// The files a tool changes: each with `+N −M`, a folded preview of the changed lines (text only, bounded), and
// "Open Diff" for the editor's own diff view. Shown on the tool card and on a permission request for an edit.
import { diffLines, diffPreview } from "../../common/line-diff";
import type { ToolDiff } from "../../protocol/transcript";
import { button, element, icon, screenReaderText } from "../element";
import { FoldedText, MAX_SHOWN_CHARS } from "./folded-text";

/** `openDiff` null: no Open Diff button (nothing to open it from). */
export function diffList(diffs: readonly ToolDiff[], openDiff: ((diffIndex: number) => void) | null): HTMLElement {
  return element("ul", { className: "diff-list", attributes: { "aria-label": "Changed files" } }, ...diffs.map((diff, index) => diffItem(diff, index, openDiff)));
}

/**
 * The path, its folder cut first when the chat is narrow: agents name files by absolute path, and the file's own name
 * is what the user needs to see. The whole path is the element's text and its tooltip.
 */
function pathLabel(path: string): HTMLElement {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  return element(
    "span",
    { className: "diff-path", attributes: { title: path } },
    element("span", { className: "diff-folder", text: path.slice(0, cut) }),
    element("span", { className: "diff-name", text: path.slice(cut) }),
  );
}

function diffItem(diff: ToolDiff, index: number, openDiff: ((diffIndex: number) => void) | null): HTMLElement {
  const lines = diffLines(diff.oldText, diff.newText);
  const counts = element(
    "span",
    { className: "diff-counts" },
    element("span", { className: "diff-added", text: `+${lines.added}`, attributes: { "aria-hidden": "true" } }),
    element("span", { className: "diff-removed", text: `−${lines.removed}`, attributes: { "aria-hidden": "true" } }),
    screenReaderText(`${lines.added} ${lines.added === 1 ? "line" : "lines"} added, ${lines.removed} removed`),
  );
  const header = element(
    "div",
    { className: "diff-header" },
    icon(diff.oldText === null ? "new-file" : "diff"),
    pathLabel(diff.path),
    counts,
  );
  if (openDiff !== null) {
    header.append(button({ label: `Open Diff of ${diff.path}`, caption: "Open Diff", iconName: "diff", className: "text-button secondary diff-open", onClick: () => openDiff(index) }));
  }
  const preview = new FoldedText("diff-preview");
  const { text, cutChars } = diffPreview(lines, MAX_SHOWN_CHARS);
  preview.show(diff.oldText === null ? "New file" : "Changes", text, cutChars);
  return element("li", { className: "diff-file" }, header, preview.element);
}
