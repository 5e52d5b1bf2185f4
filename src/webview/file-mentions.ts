// @ in the composer: a list of the workspace's files and folders as you type (the host matches; open editors first),
// chosen with ↑/↓ and Enter or Tab (or a click), Escape to close. A chosen one becomes a chip above the message box,
// removable, and travels with the prompt. The list is a listbox the message box points into (aria-activedescendant),
// so a screen reader follows the selection while the keyboard stays in the box.
import type { Attachment, PickedFile, WebviewIntent } from "../protocol/messages";
import { button, element, icon } from "./element";

/** As many as the host takes in one prompt. */
const MAX_ATTACHMENTS = 20;
/** Longer is not a query (the host takes no more). */
const MAX_QUERY_CHARS = 200;

/** The `@query` that ends at the caret: its start and what follows the @; null when the caret is not in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  let start = caret;
  while (start > 0 && !isSpace(text[start - 1]) && caret - start <= MAX_QUERY_CHARS) start--;
  if (text[start] !== "@" || caret - start > MAX_QUERY_CHARS) return null;
  return { start, query: text.slice(start + 1, caret) };
}

function isSpace(char: string): boolean {
  return char === " " || char === "\n" || char === "\t" || char === "\r";
}

export class FileMentions {
  /** The list under the @; hidden when closed. */
  readonly list: HTMLElement;
  /** The chips of what is attached. */
  readonly chips: HTMLElement;
  private attachments: Attachment[] = [];
  private files: PickedFile[] = [];
  private selected = 0;
  private open = false;
  /** The latest question: only its answer is shown. */
  private requestId = 0;
  private mention: { start: number; query: string } | null = null;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (intent: WebviewIntent) => void,
  ) {
    this.list = element("div", { className: "file-picker", attributes: { role: "listbox", id: "file-picker", "aria-label": "Files and folders" } });
    this.list.hidden = true;
    // A click on an entry must not take the focus from the message box first.
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
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
    this.files = [...files];
    this.selected = 0;
    this.render();
  }

  /** The keys the list takes while open; true when it took this one. */
  onKey(event: KeyboardEvent): boolean {
    if (!this.open) return false;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (this.files.length === 0) return false;
        this.selected = (this.selected + (event.key === "ArrowDown" ? 1 : this.files.length - 1)) % this.files.length;
        this.render();
        return true;
      case "Enter":
      case "Tab":
        if (this.files.length === 0 || event.shiftKey) return false;
        this.choose(this.files[this.selected]);
        return true;
      case "Escape":
        this.close();
        return true;
      default:
        return false;
    }
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
    this.files = [];
    this.requestId++;
    this.render();
  }

  private render(): void {
    this.list.hidden = !this.open;
    this.list.replaceChildren(
      ...(this.open && this.files.length === 0 ? [element("div", { className: "file-picker-empty", text: "No matching files" })] : []),
      ...this.files.map((file, index) => {
        const option = element(
          "div",
          { className: "file-option", attributes: { role: "option", id: `file-option-${index}`, "aria-selected": String(index === this.selected), title: file.path } },
          icon(file.kind === "folder" ? "folder" : "file"),
          element("span", { className: "file-option-path", text: file.path }),
          ...(file.open ? [element("span", { className: "file-option-open", text: "open" })] : []),
        );
        option.addEventListener("click", () => this.choose(file));
        return option;
      }),
    );
    if (this.open && this.files.length > 0) {
      this.input.setAttribute("aria-activedescendant", `file-option-${this.selected}`);
      this.list.querySelector(`#file-option-${this.selected}`)?.scrollIntoView({ block: "nearest" });
    } else this.input.removeAttribute("aria-activedescendant");
    this.input.setAttribute("aria-expanded", String(this.open));
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
