// The list of suggestions under the message box (files after @, slash commands after /): ↑/↓ move the selection, Enter
// or Tab (or a click) chooses, Escape dismisses. The keyboard stays in the box: the list is the listbox it points into
// (aria-activedescendant), so a screen reader follows the selection.
import { element } from "./element";

export interface SuggestionListOptions<T> {
  /** The listbox's id; its options' ids are `${optionPrefix}${index}`. */
  id: string;
  optionPrefix: string;
  label: string;
  className: string;
  /** What one option shows (its icon and words), and the title it carries. */
  option(item: T): { title: string; content: Node[] };
  /** Shown when the list is open with nothing in it; absent: an empty list is closed. */
  emptyText?: string;
  onChoose(item: T): void;
  /** Escape: the owner closes the list (and forgets what it asked). */
  onDismiss(): void;
}

export class SuggestionList<T> {
  readonly element: HTMLElement;
  private items: readonly T[] = [];
  private selected = 0;
  private open = false;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly options: SuggestionListOptions<T>,
  ) {
    this.element = element("div", { className: options.className, attributes: { role: "listbox", id: options.id, "aria-label": options.label } });
    this.element.hidden = true;
    // A click on an entry must not take the focus from the message box first.
    this.element.addEventListener("mousedown", (event) => event.preventDefault());
  }

  /** Opens the list on `items`; the selection goes back to the first unless `keepSelection` (the same items again). */
  show(items: readonly T[], keepSelection = false): void {
    this.items = items;
    if (!keepSelection || this.selected >= items.length) this.selected = 0;
    this.open = items.length > 0 || this.options.emptyText !== undefined;
    this.render();
  }

  close(): void {
    this.items = [];
    this.open = false;
    this.render();
  }

  /** The keys the list takes while open; true when it took this one. */
  onKey(event: KeyboardEvent): boolean {
    if (!this.open) return false;
    const count = this.items.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (count === 0) return false;
        this.selected = (this.selected + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
        this.render();
        return true;
      case "Enter":
      case "Tab": {
        const item = this.items[this.selected];
        if (item === undefined || event.shiftKey) return false;
        this.options.onChoose(item);
        return true;
      }
      case "Escape":
        this.options.onDismiss();
        return true;
      default:
        return false;
    }
  }

  private render(): void {
    const { optionPrefix, emptyText } = this.options;
    this.element.hidden = !this.open;
    this.element.replaceChildren(
      ...(this.open && this.items.length === 0 && emptyText !== undefined ? [element("div", { className: "file-picker-empty", text: emptyText })] : []),
      ...this.items.map((item, index) => {
        const { title, content } = this.options.option(item);
        const attributes = { role: "option", id: `${optionPrefix}${index}`, "aria-selected": String(index === this.selected), title };
        const option = element("div", { className: "file-option", attributes }, ...content);
        option.addEventListener("click", () => this.options.onChoose(item));
        return option;
      }),
    );
    if (this.open && this.items.length > 0) {
      this.input.setAttribute("aria-activedescendant", `${optionPrefix}${this.selected}`);
      this.element.querySelector(`#${optionPrefix}${this.selected}`)?.scrollIntoView({ block: "nearest" });
    } else if (this.input.getAttribute("aria-activedescendant")?.startsWith(optionPrefix) === true) {
      // The other list under the same box may own it.
      this.input.removeAttribute("aria-activedescendant");
    }
  }
}
