// The header's pickers: the session's mode, model and the agent's other config options, as native selects (keyboard,
// mouse and screen readers as the platform gives them). A mode in which the agent approves its own actions is shown in
// warning colours and says so. The host says what is offered and chosen; a pick is sent as an intent and the picker
// shows the host's next word, so a choice the agent refuses goes back.
import type { AgentControls, WebviewIntent } from "../protocol/messages";
import { element, icon } from "./element";

type Setting = NonNullable<AgentControls["model"]>;
type Choice = Setting["offered"][number] & { approvesItself?: boolean };

export class AgentControlsView {
  readonly element: HTMLElement;
  private readonly pickers: HTMLElement;
  private readonly note: HTMLElement;

  constructor(private readonly post: (intent: WebviewIntent) => void) {
    this.pickers = element("div", { className: "agent-control-pickers" });
    this.note = element("div", { className: "agent-controls-note", attributes: { role: "status" } });
    this.element = element("div", { className: "agent-controls", attributes: { role: "group", "aria-label": "Agent settings" } }, this.pickers, this.note);
    this.element.hidden = true;
  }

  /** The pickers as the host says; hidden when the agent offers nothing to pick. */
  show(controls: AgentControls): void {
    const pickers: HTMLElement[] = [];
    // What the agent says it is in, unless the user's choice has not reached it yet.
    const showsChoice = controls.applying || controls.appliesAt === "next-turn";
    const picker = (label: string, iconName: string, setting: Setting & { offered: Choice[] }, intent: (value: string) => WebviewIntent) =>
      this.picker(label, iconName, setting, showsChoice && setting.chosenId !== null ? setting.chosenId : setting.currentId, intent);
    if (controls.mode !== null) pickers.push(picker("Mode", "shield", controls.mode, (value) => ({ type: "chooseSetting", setting: "mode", value })));
    if (controls.model !== null) pickers.push(picker("Model", "sparkle", controls.model, (value) => ({ type: "chooseSetting", setting: "model", value })));
    for (const option of controls.options) {
      pickers.push(picker(option.name, "settings", option, (value) => ({ type: "chooseSetting", setting: "option", optionId: option.optionId, value })));
    }
    this.pickers.replaceChildren(...pickers);
    this.note.textContent = noteOf(controls);
    this.note.hidden = this.note.textContent === "";
    this.note.classList.toggle("refused", controls.refusal !== null);
    this.element.hidden = pickers.length === 0;
  }

  /** Another session is shown: its own pickers come with its state, if it has any. */
  clear(): void {
    this.pickers.replaceChildren();
    this.note.textContent = "";
    this.element.hidden = true;
  }

  /**
   * One setting: a select of what is offered, or its value as text when the agent lists nothing to choose from (as
   * Claude's model, which takes any name at the next turn).
   */
  private picker(label: string, iconName: string, setting: Setting & { offered: Choice[] }, shown: string, intent: (value: string) => WebviewIntent): HTMLElement {
    const offered: Choice[] = setting.offered.some((choice) => choice.id === shown) ? setting.offered : [...setting.offered, { id: shown, name: shown, description: null }];
    const container = element("span", { className: "agent-control" }, icon(iconName));
    if (setting.offered.length === 0) {
      container.append(element("span", { className: "agent-control-value", text: shown, attributes: { title: `${label}: ${shown}` } }));
      return container;
    }
    const select = element("select", { className: "agent-control-select", attributes: { "aria-label": label } });
    for (const choice of offered) {
      const option = element("option", { text: choice.approvesItself === true ? `${choice.name} (skips approvals)` : choice.name });
      option.value = choice.id;
      if (choice.description !== null) option.title = choice.description;
      select.append(option);
    }
    select.value = shown;
    const current = offered.find((choice) => choice.id === shown);
    const approvesItself = current?.approvesItself === true;
    select.classList.toggle("approves-itself", approvesItself);
    select.title = approvesItself
      ? `${label}: ${current?.name ?? shown}. The agent approves its own edits and commands in this mode: you are not asked first.`
      : `${label}: ${current?.name ?? shown}${current?.description ? `. ${current.description}` : ""}`;
    select.addEventListener("change", () => this.post(intent(select.value)));
    container.append(select);
    return container;
  }
}

/** Why the last choice did not hold, or that a choice waits for the next message. */
function noteOf(controls: AgentControls): string {
  if (controls.refusal !== null) return controls.refusal;
  if (controls.appliesAt === "now") return "";
  const settings = [controls.mode, controls.model, ...controls.options];
  const waiting = settings.some((setting) => setting !== null && setting.chosenId !== null && setting.chosenId !== setting.currentId);
  return waiting ? "Applies from the next message." : "";
}
