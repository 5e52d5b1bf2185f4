// "Copy answer": the turn as markdown, written the same way `agent-stream transcript` writes blocks.
import type { Turn } from "../protocol/messages";
import { blockToMarkdown } from "../common/transcript-markdown";

export function turnToMarkdown(turn: Turn): string {
  // Status lines are progress, not part of the answer.
  const blocks = turn.blocks.filter((block) => block !== undefined && block.kind !== "status");
  return blocks.map(blockToMarkdown).join("\n\n") + "\n";
}
