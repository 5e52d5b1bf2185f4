// "Copy answer": the turn as markdown, written the same way `agent-stream transcript` writes blocks.
import type { Turn } from "../protocol/messages";
import { shownToMarkdown } from "../common/transcript-markdown";

export function turnToMarkdown(turn: Turn): string {
  return shownToMarkdown(turn.blocks).join("\n\n") + "\n";
}
