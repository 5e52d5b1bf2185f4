// `/` at the start of the message box completes the slash commands the session's agent takes (ACP's
// `available_commands_update`, Claude Code's init line), with their descriptions: ↑/↓, Enter or Tab (or a click) puts
// `/name ` in the box, Escape closes the list. The keyboard stays in the box; the list is its listbox.
import { element, icon } from "./element";

export interface SlashCommand {
  name: string;
  description: string;
}

/** As many as fit a glance; typing narrows them. */
const MAX_SHOWN = 50;

/** The `/word` the box starts with while the caret is in it, or null. */
export function commandAt(text: string, caret: number): string | null {
  if (!text.startsWith("/") || caret < 1) return null;
  for (let index = 1; index < caret; index++) {
    const char = text[index];
    if (char === " " || char === "\n" || char === "\t") return null;
  }
  return text.slice(1, caret);
}

/** The commands for what was typed: names that start with it first, then names that contain it, each by name. */
export function matchingCommands(commands: readonly SlashCommand[], typed: string): SlashCommand[] {
  const query = typed.toLowerCase();
  const starts = commands.filter((command) => command.name.toLowerCase().startsWith(query));
  const contains = commands.filter((command) => !command.name.toLowerCase().startsWith(query) && command.name.toLowerCase().includes(query));
  const byName = (a: SlashCommand, b: SlashCommand) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, MAX_SHOWN);
}

export class SlashCommands {
  readonly list: HTMLElement;
  private commands: SlashCommand[] = [];
  private shown: SlashCommand[] = [];
  private selected = 0;

  constructor(private readonly input: HTMLTextAreaElement) {
    this.list = element("div", { className: "file-picker command-picker", attributes: { role: "listbox", id: "command-picker", "aria-label": "Slash commands" } });
    this.list.hidden = true;
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
  }

  /** What the session's agent takes now (none until it says). */
  setCommands(commands: readonly SlashCommand[]): void {
    this.commands = commands.map((command) => ({ ...command }));
    this.update();
  }

  /** After each change of the box's text or caret. */
  update(): void {
    const typed = this.input.selectionStart === this.input.selectionEnd ? commandAt(this.input.value, this.input.selectionStart) : null;
    const shown = typed === null ? [] : matchingCommands(this.commands, typed);
    const same = shown.length === this.shown.length && shown.every((command, index) => command.name === this.shown[index]?.name);
    if (!same) this.selected = 0;
    this.shown = shown;
    this.render();
  }

  /** The keys the list takes while open; true when it took this one. */
  onKey(event: KeyboardEvent): boolean {
    if (this.shown.length === 0) return false;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        this.selected = (this.selected + (event.key === "ArrowDown" ? 1 : this.shown.length - 1)) % this.shown.length;
        this.render();
        return true;
      case "Enter":
      case "Tab":
        if (event.shiftKey) return false;
        this.choose(this.shown[this.selected]);
        return true;
      case "Escape":
        this.shown = [];
        this.render();
        return true;
      default:
        return false;
    }
  }

  private choose(command: SlashCommand): void {
    const end = this.input.selectionStart;
    this.input.setRangeText(`/${command.name} `, 0, end, "end");
    this.input.dispatchEvent(new Event("input"));
    this.shown = [];
    this.render();
  }

  private render(): void {
    const open = this.shown.length > 0;
    this.list.hidden = !open;
    this.list.replaceChildren(
      ...this.shown.map((command, index) => {
        const option = element(
          "div",
          { className: "file-option", attributes: { role: "option", id: `command-option-${index}`, "aria-selected": String(index === this.selected), title: command.description } },
          icon("symbol-event"),
          element("span", { className: "command-name", text: `/${command.name}` }),
          element("span", { className: "file-option-path command-description", text: command.description }),
        );
        option.addEventListener("click", () => this.choose(command));
        return option;
      }),
    );
    if (open) {
      this.input.setAttribute("aria-activedescendant", `command-option-${this.selected}`);
      this.list.querySelector(`#command-option-${this.selected}`)?.scrollIntoView({ block: "nearest" });
    } else if (this.input.getAttribute("aria-activedescendant")?.startsWith("command-option-") === true) {
      this.input.removeAttribute("aria-activedescendant");
    }
  }
}
