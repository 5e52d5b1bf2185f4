// The messages waiting for the running turn, above the message box: each can be moved up or down, edited (its text
// goes back into the box), removed, or sent now (the turn stops in band and it goes next). After a turn that did not
// complete they wait for the user's word: a failed turn never sends them unasked.
import type { HostMessage, WebviewIntent } from "../protocol/messages";
import { button, element, icon } from "./element";

type Queue = Extract<HostMessage, { type: "queue" }>;

export class QueueView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly heldNotice: HTMLElement;

  constructor(
    private readonly post: (intent: WebviewIntent) => void,
    /** Edit: the queued text goes back into the message box. */
    private readonly edit: (text: string) => void,
  ) {
    this.list = element("ol", { className: "queue-list", attributes: { "aria-label": "Queued messages" } });
    const resume = button({ label: "Send queued messages", caption: "Send queued", iconName: "play", className: "text-button secondary", onClick: () => this.post({ type: "resumeQueue" }) });
    this.heldNotice = element(
      "div",
      { className: "queue-held", attributes: { role: "status" } },
      icon("debug-pause"),
      element("span", { text: "The last turn did not complete: the queued messages wait for you." }),
      resume,
    );
    this.heldNotice.hidden = true;
    this.element = element("div", { className: "queue", attributes: { role: "group", "aria-label": "Queue" } }, this.heldNotice, this.list);
    this.element.hidden = true;
  }

  show(queue: Pick<Queue, "items" | "held">): void {
    this.element.hidden = queue.items.length === 0;
    this.heldNotice.hidden = !queue.held;
    this.list.replaceChildren(
      ...queue.items.map((item, index) => {
        const act = (action: "remove" | "up" | "down" | "sendNow") => this.post({ type: "queued", action, id: item.id });
        const up = button({ label: "Move up", iconName: "arrow-up", className: "icon-button", onClick: () => act("up") });
        up.disabled = index === 0;
        const down = button({ label: "Move down", iconName: "arrow-down", className: "icon-button", onClick: () => act("down") });
        down.disabled = index === queue.items.length - 1;
        const actions = element(
          "span",
          { className: "queue-actions" },
          ...(index === 0 ? [button({ label: "Send now (into the running turn, or stops it)", iconName: "send", className: "icon-button", onClick: () => act("sendNow") })] : []),
          up,
          down,
          button({
            label: "Edit",
            iconName: "edit",
            className: "icon-button",
            onClick: () => {
              this.edit(item.prompt);
              act("remove");
            },
          }),
          button({ label: "Remove", iconName: "close", className: "icon-button", onClick: () => act("remove") }),
        );
        return element(
          "li",
          { className: "queued", attributes: { title: item.prompt } },
          icon("clock"),
          element("span", { className: "queued-text", text: item.prompt }),
          ...(item.summary === null ? [] : [element("span", { className: "queued-context", text: `with ${item.summary}` })]),
          actions,
        );
      }),
    );
  }
}
