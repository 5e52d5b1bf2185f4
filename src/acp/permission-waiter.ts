// The chat's side of permission requests: each request the agent asks waits here until the user clicks one of its
// options on the card (or dismisses it); the card is matched to its request by what it shows. Nothing here ever
// answers on its own: an abort (Stop, New Session, the agent gone) settles the wait as `cancelled`.
import type { PermissionBlock } from "../protocol/transcript";
import type { AcpPermissionRequest } from "../dialects/acp/acp-events";
import type { PermissionChoice } from "./permission-desk";

interface Waiting {
  request: AcpPermissionRequest;
  settle(choice: PermissionChoice): void;
}

export class PermissionWaiter {
  private readonly waiting: Waiting[] = [];

  constructor(private readonly onChange: (waiting: number) => void = () => {}) {}

  get count(): number {
    return this.waiting.length;
  }

  /** A `DecidePermission`: resolves with the user's choice, or `cancelled` when `signal` aborts first. */
  readonly decide = (request: AcpPermissionRequest, signal: AbortSignal): Promise<PermissionChoice> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve("cancelled");
      const entry: Waiting = {
        request,
        settle: (choice) => {
          const index = this.waiting.indexOf(entry);
          if (index === -1) return;
          this.waiting.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          this.onChange(this.waiting.length);
          resolve(choice);
        },
      };
      const onAbort = () => entry.settle("cancelled");
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(entry);
      this.onChange(this.waiting.length);
    });

  /**
   * The user's answer on a card: `optionId` one of the request's options, or null for a dismissed card. False when no
   * waiting request matches the card (answered already, or not ours).
   */
  answer(card: PermissionBlock, optionId: string | null): boolean {
    const entry = this.waiting.find((w) => matches(w.request, card));
    if (entry === undefined) return false;
    if (optionId !== null && !entry.request.options.some((option) => option.id === optionId)) return false;
    entry.settle(optionId === null ? "cancelled" : { optionId });
    return true;
  }
}

/** The card shows the request's tool, title and options: the oldest waiting request that shows the same is its. */
function matches(request: AcpPermissionRequest, card: PermissionBlock): boolean {
  if (card.toolId !== null && card.toolId !== request.toolCallId) return false;
  if (card.title !== request.title) return false;
  return card.options.length === request.options.length && card.options.every((option, i) => option.id === request.options[i]?.id);
}
