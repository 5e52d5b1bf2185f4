// `/` at the start of the message box completes the slash commands the session's agent takes (ACP's
// `available_commands_update`, Claude Code's init line), with their descriptions: ↑/↓, Enter or Tab (or a click) puts
// `/name ` in the box, Escape closes the list. The keyboard stays in the box; the list is its listbox.
import { element, icon } from "./element";
import { SuggestionList } from "./suggestion-list";

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
  private readonly suggestions: SuggestionList<SlashCommand>;
  private commands: SlashCommand[] = [];
  private shown: SlashCommand[] = [];

  constructor(private readonly input: HTMLTextAreaElement) {
    this.suggestions = new SuggestionList(input, {
      id: "command-picker",
      optionPrefix: "command-option-",
      label: "Slash commands",
      className: "file-picker command-picker",
      option: (command) => ({
        title: command.description,
        content: [
          icon("symbol-event"),
          element("span", { className: "command-name", text: `/${command.name}` }),
          element("span", { className: "file-option-path command-description", text: command.description }),
        ],
      }),
      onChoose: (command) => this.choose(command),
      onDismiss: () => this.close(),
    });
  }

  get list(): HTMLElement {
    return this.suggestions.element;
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
    this.shown = shown;
    this.suggestions.show(shown, same);
  }

  /** The keys the list takes while open; true when it took this one. */
  onKey(event: KeyboardEvent): boolean {
    return this.suggestions.onKey(event);
  }

  private choose(command: SlashCommand): void {
    const end = this.input.selectionStart;
    this.input.setRangeText(`/${command.name} `, 0, end, "end");
    this.input.dispatchEvent(new Event("input"));
    this.close();
  }

  private close(): void {
    this.shown = [];
    this.suggestions.close();
  }
}
