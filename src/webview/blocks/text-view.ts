// The agent's answer: markdown that grows as it streams.
import type { TextBlock } from "../../protocol/transcript";
import type { BlockView } from "./block-view";
import { MarkdownBlock } from "./markdown-block";

export class TextView extends MarkdownBlock implements BlockView<TextBlock> {
  constructor(block: TextBlock) {
    super("answer-text", block);
  }
}
