// Who wrote a message steered into a running turn, and whether the agent took it, in the words the chat and the
// markdown transcript both use.
import type { SteerBlock } from "../protocol/transcript";

const UNTAKEN = {
  "sent next": "not taken; sent as the next message",
  queued: "not taken; put back in the queue",
} as const satisfies Record<NonNullable<SteerBlock["untaken"]>, string>;

/** "You, while the agent worked", and what became of the message when the agent never took it. */
export function steerHeading(block: Pick<SteerBlock, "untaken">): string {
  const who = "You, while the agent worked";
  return block.untaken === undefined ? who : `${who} — ${UNTAKEN[block.untaken]}`;
}
