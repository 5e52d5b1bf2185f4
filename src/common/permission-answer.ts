// Who answered a permission request, in the words every view uses: the chat's card, the markdown transcript and the
// terminal.
import type { PermissionBlock } from "../protocol/transcript";

const ANSWERED_BY = {
  user: "by you",
  setting: "by your setting",
  remembered: "by your earlier “always”",
} as const satisfies Record<NonNullable<PermissionBlock["answeredBy"]>, string>;

/** " by you", " by your setting", " by your earlier “always”", or "" (nobody answered: waiting or cancelled). */
export function answeredByWords(block: Pick<PermissionBlock, "answeredBy" | "decision">): string {
  return block.answeredBy === null || block.decision === "cancelled" ? "" : ` ${ANSWERED_BY[block.answeredBy]}`;
}
