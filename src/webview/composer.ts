// Where the user writes: Enter sends, Shift+Enter starts a new line, and Enter that confirms an IME
// composition (Japanese, Chinese, Korean input) never sends half a word.
import type { WebviewIntent } from "../protocol/messages";
import { button, element } from "./element";

const PLACEHOLDER = "Ask the agent… (Enter to send, Shift+Enter for a new line)";
const RESTRICTED_PLACEHOLDER = "Chat is not available here: see the notice above";

export class Composer {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private running = false;
  private restricted = false;

  constructor(
    private readonly post: (intent: WebviewIntent) => void,
    private readonly onStop: () => void,
  ) {
    this.input = element("textarea", {
      className: "composer-input",
      attributes: { rows: "3", "aria-label": "Message to the agent", placeholder: PLACEHOLDER },
    });
    this.input.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.sendButton = button({ label: "Send (Enter)", iconName: "send", className: "icon-button send", onClick: () => this.send() });
    this.stopButton = button({ label: "Stop", iconName: "debug-stop", className: "icon-button stop", onClick: () => this.stop() });
    const newSession = button({
      label: "New Session",
      caption: "New Session",
      iconName: "add",
      className: "text-button secondary",
      onClick: () => this.post({ type: "newSession" }),
    });
    const toolbar = element("div", { className: "composer-toolbar" }, newSession, element("span", { className: "spacer" }), this.stopButton, this.sendButton);
    this.element = element("div", { className: "composer", attributes: { role: "group", "aria-label": "Message composer" } }, this.input, toolbar);
    this.show();
  }

  setRunning(running: boolean): void {
    if (running === this.running) return;
    this.running = running;
    this.show();
  }

  /** Restricted Mode and the like: nothing may be sent. */
  setRestricted(restricted: boolean): void {
    if (restricted === this.restricted) return;
    this.restricted = restricted;
    this.show();
  }

  focus(): void {
    this.input.focus();
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key !== "Enter" || event.shiftKey) return;
    // keyCode 229 is what Chromium reports for keys an IME is still handling.
    if (event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    this.send();
  }

  private send(): void {
    const prompt = this.input.value.trim();
    if (prompt === "" || this.running || this.restricted) return;
    this.post({ type: "send", prompt });
    this.input.value = "";
  }

  private stop(): void {
    this.onStop();
    this.post({ type: "stop" });
  }

  private show(): void {
    this.input.disabled = this.restricted;
    this.input.placeholder = this.restricted ? RESTRICTED_PLACEHOLDER : PLACEHOLDER;
    this.sendButton.disabled = this.restricted || this.running;
    this.sendButton.hidden = this.running;
    this.stopButton.hidden = !this.running;
  }
}
