// Where the user writes: Enter sends, Shift+Enter starts a new line, and Enter that confirms an IME
// composition (Japanese, Chinese, Korean input) never sends half a word. While a turn runs Enter queues the message
// and Ctrl+Enter (Cmd+Enter on a Mac) sends it now, into the running turn where the agent takes one. ↑ and ↓ in an empty box bring back the
// session's earlier prompts; what is typed and not sent is kept per session, across reloads.
import type { WebviewIntent } from "../protocol/messages";
import type { Attachment, PickedFile } from "../protocol/messages";
import { button, element } from "./element";
import type { PromptImage } from "../protocol/prompt-parts";
import { FileMentions } from "./file-mentions";
import { ImageAttachments } from "./image-attachments";
import { takeExplorerDrops } from "./explorer-drops";
import { QueueView } from "./queue-view";
import { SlashCommands, type SlashCommand } from "./slash-commands";

/** Where a session's unsent text is kept (the webview's state). */
export interface DraftStore {
  loadDraft(sessionId: string): string;
  saveDraft(sessionId: string, text: string): void;
}

/** The earlier prompt shown in the box, walked to with ↑/↓: its place among the prompts, and its text as shown. */
interface Recalled {
  index: number;
  text: string;
}

const PLACEHOLDER = "Ask the agent… (Enter to send, Shift+Enter for a new line, @ to attach a file)";
/** VS Code binds neither in a webview, and both reach the page; Alt+Enter is the editor's "select all matches". */
const SEND_NOW_KEY = navigator.platform.startsWith("Mac") ? "Cmd+Enter" : "Ctrl+Enter";
const QUEUE_PLACEHOLDER = `Queue a follow-up… (Enter: it is sent when this turn ends; ${SEND_NOW_KEY}: send it now, into this turn; Escape stops the turn)`;
const RESTRICTED_PLACEHOLDER = "Chat is not available here: see the notice above";

export class Composer {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private running = false;
  private restricted = false;
  /** The session whose draft the box holds: null before the host's first snapshot. */
  private sessionId: string | null = null;
  private recalled: Recalled | null = null;
  private readonly mentions: FileMentions;
  private readonly images: ImageAttachments;
  /** What was last sent, given back to the box if the host refuses it (its agent takes no images). */
  private lastSent: { prompt: string; attachments: Attachment[]; images: PromptImage[] } | null = null;
  /** Why something was not attached or sent, until the next prompt goes. */
  private readonly notice: HTMLElement;
  private readonly commands: SlashCommands;
  private readonly queue: QueueView;

  constructor(
    private readonly post: (intent: WebviewIntent) => void,
    private readonly onStop: () => void,
    /** The session's prompts, oldest first. */
    private readonly prompts: () => readonly string[],
    private readonly drafts: DraftStore,
  ) {
    this.input = element("textarea", {
      className: "composer-input",
      attributes: { rows: "3", "aria-label": "Message to the agent", placeholder: PLACEHOLDER, "aria-autocomplete": "list", "aria-controls": "file-picker" },
    });
    this.mentions = new FileMentions(this.input, post);
    this.notice = element("div", { className: "composer-notice", attributes: { role: "alert" } });
    this.notice.hidden = true;
    this.images = new ImageAttachments(this.input, (reason) => this.say(reason));
    takeExplorerDrops(this.input, post, (reason) => this.say(reason));
    this.commands = new SlashCommands(this.input);
    this.queue = new QueueView(post, (text) => {
      // The text to edit goes into the box, after what is there.
      this.input.value = this.input.value.trim() === "" ? text : `${this.input.value}\n${text}`;
      this.keepDraft();
      this.input.focus();
    });
    const completions = () => {
      this.mentions.update();
      this.commands.update();
    };
    this.input.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.input.addEventListener("input", () => {
      this.keepDraft();
      completions();
    });
    // The caret moved without typing (arrows, a click): in or out of an @mention or a /command.
    this.input.addEventListener("keyup", (event) => {
      if (event.key === "ArrowLeft" || event.key === "ArrowRight" || event.key === "Home" || event.key === "End") completions();
    });
    this.input.addEventListener("click", completions);
    this.input.addEventListener("blur", completions);
    this.sendButton = button({ label: "Send (Enter)", iconName: "send", className: "icon-button send", onClick: () => this.send() });
    this.stopButton = button({ label: "Stop", iconName: "debug-stop", className: "icon-button stop", onClick: () => this.stop() });
    const newSession = button({
      label: "New Session",
      caption: "New Session",
      iconName: "add",
      className: "text-button secondary",
      onClick: () => this.post({ type: "newSession" }),
    });
    const addSelection = button({
      label: "Add Selection to Chat",
      iconName: "list-selection",
      className: "icon-button",
      onClick: () => this.post({ type: "addSelection" }),
    });
    const toolbar = element(
      "div",
      { className: "composer-toolbar" },
      newSession,
      element("span", { className: "spacer" }),
      addSelection,
      this.stopButton,
      this.sendButton,
    );
    this.element = element(
      "div",
      { className: "composer", attributes: { role: "group", "aria-label": "Message composer" } },
      this.queue.element,
      this.mentions.list,
      this.commands.list,
      this.mentions.chips,
      this.images.chips,
      this.notice,
      this.input,
      toolbar,
    );
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

  /** The page shows this session now: the box holds its draft (the one being typed stays where it was typed). */
  showSession(sessionId: string): void {
    if (sessionId === this.sessionId) return;
    this.sessionId = sessionId;
    // Another session's agent may take other commands: it says which when the page joins it.
    this.commands.setCommands([]);
    this.recalled = null;
    this.input.value = this.drafts.loadDraft(sessionId);
  }

  /** "Add Selection to Chat": a chip for the next prompt. */
  attach(attachment: Attachment): void {
    this.mentions.add(attachment);
  }

  /**
   * The host did not send the last prompt (its agent takes no images): the reason is shown, and the prompt, its chips
   * and its images are back in the box unless something new was typed meanwhile.
   */
  refused(reason: string): void {
    this.say(reason);
    const sent = this.lastSent;
    this.lastSent = null;
    if (sent === null) return;
    if (this.input.value.trim() === "") this.input.value = sent.prompt;
    for (const attachment of sent.attachments) this.mentions.add(attachment);
    this.images.restore(sent.images);
    this.keepDraft();
  }

  /** The host's answer to a drop from the explorer: chips for the workspace files and folders, and what was refused. */
  filesDropped(attachments: readonly Attachment[], refused: readonly string[]): void {
    for (const attachment of attachments) this.mentions.add(attachment);
    if (refused.length > 0) this.say(`${refused.map(shownUri).join(", ")}: not a file or folder in the workspace, not attached.`);
  }

  /** The messages waiting for the running turn. */
  showQueue(queue: Parameters<QueueView["show"]>[0]): void {
    this.queue.show(queue);
  }

  /** The slash commands the session's agent takes, completed after `/`. */
  setCommands(commands: readonly SlashCommand[]): void {
    this.commands.setCommands(commands);
  }

  /** The host's answer to the @ list's question. */
  filesFound(requestId: number, files: readonly PickedFile[]): void {
    this.mentions.found(requestId, files);
  }

  /** Escape anywhere but on a card: stops the running turn. Whether it did. */
  stopFromKeyboard(): boolean {
    if (!this.running) return false;
    this.stop();
    return true;
  }

  private onKeyDown(event: KeyboardEvent): void {
    // keyCode 229 is what Chromium reports for keys an IME is still handling.
    if (event.isComposing || event.keyCode === 229) return;
    // The @ list, while open, has the arrows, Enter, Tab and Escape.
    if (this.mentions.onKey(event) || this.commands.onKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (this.recall(event.key === "ArrowUp" ? -1 : 1)) event.preventDefault();
      return;
    }
    if (event.key !== "Enter" || event.shiftKey) return;
    event.preventDefault();
    this.send(this.running && (event.ctrlKey || event.metaKey) ? "sendNow" : "send");
  }

  /**
   * Walks the session's earlier prompts: only from an empty box, or from a recalled prompt left as it was (once the
   * user edits it, the arrows move the caret again). Past the newest, the box is empty again.
   */
  private recall(step: -1 | 1): boolean {
    const recalled = this.recalled !== null && this.recalled.text === this.input.value ? this.recalled : null;
    if (recalled === null && this.input.value !== "") return false;
    // ↓ from an empty box has nowhere to go.
    if (recalled === null && step === 1) return false;
    const prompts = this.prompts();
    const index = (recalled?.index ?? prompts.length) + step;
    // Above the oldest the box keeps it (the key is used up, the caret does not jump).
    if (index < 0) return recalled !== null;
    if (index >= prompts.length) {
      this.recalled = null;
      this.input.value = "";
    } else {
      this.recalled = { index, text: prompts[index] };
      this.input.value = prompts[index];
      this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    }
    this.keepDraft();
    return true;
  }

  private keepDraft(): void {
    if (this.sessionId !== null) this.drafts.saveDraft(this.sessionId, this.input.value);
  }

  /** `send` while a turn runs: the host queues it for the turn's end; `sendNow`: for the running turn itself. */
  private send(how: "send" | "sendNow" = "send"): void {
    const prompt = this.input.value.trim();
    if (prompt === "" || this.restricted) return;
    const attachments = this.mentions.take();
    const images = this.images.take();
    this.lastSent = { prompt, attachments, images };
    this.say(null);
    this.post({ type: how, prompt, ...(attachments.length === 0 ? {} : { attachments }), ...(images.length === 0 ? {} : { images }) });
    this.input.value = "";
    this.recalled = null;
    this.keepDraft();
  }

  private say(reason: string | null): void {
    this.notice.hidden = reason === null;
    this.notice.textContent = reason ?? "";
  }

  private stop(): void {
    this.onStop();
    this.post({ type: "stop" });
  }

  private show(): void {
    this.input.disabled = this.restricted;
    this.input.placeholder = this.restricted ? RESTRICTED_PLACEHOLDER : this.running ? QUEUE_PLACEHOLDER : PLACEHOLDER;
    this.sendButton.disabled = this.restricted;
    this.sendButton.setAttribute("aria-label", this.running ? "Queue (Enter)" : "Send (Enter)");
    this.sendButton.title = this.running ? "Queue (Enter)" : "Send (Enter)";
    // Screen readers say the key that sends into the running turn (the placeholder says it too).
    if (this.running) this.input.setAttribute("aria-keyshortcuts", SEND_NOW_KEY.replace("Cmd", "Meta").replace("Ctrl", "Control"));
    else this.input.removeAttribute("aria-keyshortcuts");
    this.stopButton.hidden = !this.running;
  }
}

/** A refused URI as the user knows it: its path when it has one. */
function shownUri(uri: string): string {
  try {
    const url = new URL(uri);
    return url.protocol === "file:" ? decodeURIComponent(url.pathname) : uri;
  } catch {
    return uri;
  }
}
