// Which of a turn's blocks a reader sees once it is over. A status (what the agent is doing, its echo of a message it
// took, a result's token count) is progress: the chat shows the newest as the turn's status line while it runs and
// draws none of them, and every export of a turn leaves them out the same way. So each thing shows once: a message
// sent into the running turn as the user sent it (not again as the agent's echo), the usage in the footer's words.
import type { StatusBlock, TranscriptBlock } from "../protocol/transcript";

export function isProgress(block: TranscriptBlock): block is StatusBlock {
  return block.kind === "status";
}
