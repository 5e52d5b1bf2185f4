// Which of a turn's blocks a reader sees, and as what: one rule for the chat's turn, Copy answer and every markdown
// export, so each thing shows once and nothing the user or the agent said is lost. A status is progress (what the agent
// is doing, a result's token count): the chat shows the newest as the turn's status line while it runs, and a finished
// turn shows none of it (the usage is the footer's). Two kinds of status say more than progress:
// - the agent's echo of a message the user wrote: a message sent into the running turn already shows as its `steer`
//   block, so its echo shows nothing; an echo that repeats no steer (a CLI's own recording of several prompts in one
//   run, replayed) is the only place those words are, so it shows as the user's message;
// - a notice that explains the answer after the fact (a new conversation, an answer cut short, calls refused).
import type { StatusBlock, TranscriptBlock } from "../protocol/transcript";

export type ShownAs =
  | { as: "itself" }
  | { as: "nothing" }
  | { as: "user message"; text: string }
  | { as: "notice"; text: string };

/** A CLI's echo of a user message it took (claude-adapter.ts, pi-adapter.ts). */
export const ECHO_STATUS = "prompt";

/** Statuses a reader of the finished turn needs: they explain what the answer did or did not do. */
const NOTICES: ReadonlySet<string> = new Set([
  "new session",
  "truncated",
  "refused",
  "mode",
  "compacted",
  "compaction-failed",
  "warning",
  "requests forgotten",
]);

/** What a reader sees of `blocks[index]`; `blocks` are one turn's, in order (a steer comes before its echo). */
export function shownAs(blocks: readonly (TranscriptBlock | undefined)[], index: number): ShownAs {
  const block = blocks[index];
  if (block?.kind !== "status") return { as: "itself" };
  if (block.status === ECHO_STATUS) return echoShownAs(blocks, index);
  if (NOTICES.has(block.status)) return { as: "notice", text: block.message || block.status };
  return { as: "nothing" };
}

/**
 * Each echo answers the oldest steer it has not answered yet, in order. The echo may carry more than the steer's
 * words (the editor context sent with them, conversation.ts promptWithContext), so it need only start with them.
 */
function echoShownAs(blocks: readonly (TranscriptBlock | undefined)[], index: number): ShownAs {
  const unanswered: string[] = [];
  for (let i = 0; i <= index; i++) {
    const block = blocks[i];
    if (block?.kind === "steer") unanswered.push(block.text.trim());
    if (!isEcho(block)) continue;
    const words = block.message?.trim() ?? "";
    const answers = unanswered.length > 0 && words.startsWith(unanswered[0]);
    if (answers) unanswered.shift();
    if (i === index) return answers || words === "" ? { as: "nothing" } : { as: "user message", text: words };
  }
  return { as: "nothing" };
}

function isEcho(block: TranscriptBlock | undefined): block is StatusBlock {
  return block?.kind === "status" && block.status === ECHO_STATUS;
}
