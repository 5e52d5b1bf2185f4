// @ in the composer: a list of the workspace's files and folders as you type (the host matches; open editors first),
// chosen with ↑/↓ and Enter or Tab (or a click), Escape to close. A chosen one becomes a chip above the message box,
// removable, and travels with the prompt. The list is a listbox the message box points into (aria-activedescendant),
// so a screen reader follows the selection while the keyboard stays in the box.
import type { Attachment, PickedFile, WebviewIntent } from "../protocol/messages";
import { button, element, icon } from "./element";
import { SuggestionList } from "./suggestion-list";

/** As many as the host takes in one prompt. */
const MAX_ATTACHMENTS = 20;
/**
 * Longer is not a query: the host takes no more (the contract's MAX_FILE_QUERY_CHARS, not imported: the bundle takes no
 * schema code; test/webview/file-mentions.test.ts holds the two equal).
 */
const MAX_QUERY_CHARS = 200;

/** The `@query` that ends at the caret: its start and what follows the @; null when the caret is not in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  // Back to the word's start, but no further than an @ and the longest query.
  const furthest = Math.max(0, caret - MAX_QUERY_CHARS - 1);
  let start = caret;
  while (start > furthest && !isSpace(text[start - 1])) start--;
  if (text[start] !== "@" || (start > 0 && !isSpace(text[start - 1]))) return null;
  return { start, query: text.slice(start + 1, caret) };
}

function isSpace(char: string): boolean {
  return char === " " || char === "\n" || char === "\t" || char === "\r";
}

export class FileMentions {
  private readonly suggestions: SuggestionList<PickedFile>;
  /** The chips of what is attached. */
  readonly chips: HTMLElement;
  private attachments: Attachment[] = [];
  private open = false;
  /** The latest question: only its answer is shown. */
  private requestId = 0;
  private mention: { start: number; query: string } | null = null;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (intent: WebviewIntent) => void,
  ) {
    this.suggestions = new SuggestionList(input, {
      id: "file-picker",
      optionPrefix: "file-option-",
      label: "Files and folders",
      className: "file-picker",
      option: (file) => ({
        title: file.path,
        content: [
          icon(file.kind === "folder" ? "folder" : "file"),
          element("span", { className: "file-option-path", text: file.path }),
          ...(file.open ? [element("span", { className: "file-option-open", text: "open" })] : []),
        ],
      }),
      emptyText: "No matching files",
      onChoose: (file) => this.choose(file),
      onDismiss: () => this.close(),
    });
    this.chips = element("div", { className: "attachments", attributes: { "aria-label": "Attached files" } });
    this.chips.hidden = true;
  }

  /** After each change of the box's text or caret: opens, updates or closes the list. */
  update(): void {
    const mention = this.input.selectionStart === this.input.selectionEnd ? mentionAt(this.input.value, this.input.selectionStart) : null;
    if (mention === null) {
      this.close();
      return;
    }
    if (this.open && this.mention?.query === mention.query) return;
    this.mention = mention;
    this.open = true;
    this.requestId++;
    this.post({ type: "findFiles", requestId: this.requestId, query: mention.query });
  }

  /** The host's answer: shown only if it answers the latest question and the list is still open. */
  found(requestId: number, files: readonly PickedFile[]): void {
    if (!this.open || requestId !== this.requestId) return;
    this.suggestions.show([...files]);
    this.input.setAttribute("aria-expanded", "true");
  }

  /** The list under the @; hidden when closed. */
  get list(): HTMLElement {
    return this.suggestions.element;
  }

  /** The keys the list takes while open; true when it took this one. */
  onKey(event: KeyboardEvent): boolean {
    if (!this.open) return false;
    if (this.suggestions.onKey(event)) return true;
    // Before the host's first answer nothing is shown yet, and Escape still closes what was asked.
    if (event.key !== "Escape") return false;
    this.close();
    return true;
  }

  /** An attachment from the host ("Add Selection to Chat"): a chip like a picked file's. */
  add(attachment: Attachment): void {
    const same = (attached: Attachment) => attached.path === attachment.path && attached.kind === attachment.kind && sameLines(attached, attachment);
    if (this.attachments.some(same) || this.attachments.length >= MAX_ATTACHMENTS) return;
    this.attachments.push(attachment);
    this.renderChips();
  }

  /** What the prompt carries; the chips are cleared once it is sent. */
  take(): Attachment[] {
    const taken = this.attachments;
    this.attachments = [];
    this.renderChips();
    return taken;
  }

  private choose(file: PickedFile): void {
    const mention = this.mention;
    if (mention !== null) {
      // The typed @query gives way to the chip.
      const caret = mention.start + 1 + mention.query.length;
      this.input.setRangeText("", mention.start, caret, "start");
      this.input.dispatchEvent(new Event("input"));
    }
    if (!this.attachments.some((attached) => attached.path === file.path) && this.attachments.length < MAX_ATTACHMENTS) {
      this.attachments.push({ path: file.path, kind: file.kind });
      this.renderChips();
    }
    this.close();
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    this.mention = null;
    this.requestId++;
    this.suggestions.close();
    this.input.setAttribute("aria-expanded", "false");
  }

  private renderChips(): void {
    this.chips.hidden = this.attachments.length === 0;
    this.chips.replaceChildren(
      ...this.attachments.map((attached) => {
        const name = chipName(attached);
        const remove = button({
          label: `Remove ${name}`,
          iconName: "close",
          className: "icon-button chip-remove",
          onClick: () => {
            this.attachments = this.attachments.filter((other) => other !== attached);
            this.renderChips();
            this.input.focus();
          },
        });
        return element("span", { className: "attachment-chip", attributes: { title: name } }, icon(CHIP_ICONS[attached.kind]), element("span", { className: "chip-name", text: name }), remove);
      }),
    );
  }
}

const CHIP_ICONS: Record<Attachment["kind"], string> = { file: "file", folder: "folder", selection: "list-selection" };

/** `src/a.ts`, `src/db/`, a selection as `src/a.ts:3–9`. */
function chipName(attachment: Attachment): string {
  if (attachment.kind === "folder") return `${attachment.path}/`;
  if (attachment.lines === undefined) return attachment.path;
  const { start, end } = attachment.lines;
  return `${attachment.path}:${start === end ? start : `${start}–${end}`}`;
}

function sameLines(a: Attachment, b: Attachment): boolean {
  return a.lines?.start === b.lines?.start && a.lines?.end === b.lines?.end;
}
