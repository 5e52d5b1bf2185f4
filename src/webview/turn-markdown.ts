// "Copy answer": the turn as markdown, written the same way `agent-stream transcript` writes blocks.
import type { Turn } from "../protocol/messages";
import { blockToMarkdown } from "../common/transcript-markdown";
import { isProgress } from "../common/shown-blocks";

export function turnToMarkdown(turn: Turn): string {
  const blocks = turn.blocks.filter((block) => block !== undefined && !isProgress(block));
  return blocks.map(blockToMarkdown).join("\n\n") + "\n";
}
