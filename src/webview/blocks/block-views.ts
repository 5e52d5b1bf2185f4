// Which view shows which kind of block: one table. Its type lists every kind of TranscriptBlock, so a new kind
// without a view fails to compile here instead of being silently left out of the chat.
import type { TranscriptBlock } from "../../protocol/transcript";
import type { BlockContext, BlockView } from "./block-view";
import { ErrorCardView } from "./error-card";
import { PermissionCardView } from "./permission-card";
import { PlanView } from "./plan-view";
import { StatusView } from "./status-view";
import { SteerView } from "./steer-view";
import { TextView } from "./text-view";
import { ThinkingView } from "./thinking-view";
import { ToolCardView } from "./tool-card";

type BlockKind = TranscriptBlock["kind"];
type BlockOf<K extends BlockKind> = Extract<TranscriptBlock, { kind: K }>;

export type BlockViewTable = {
  readonly [K in BlockKind]: (block: BlockOf<K>, context: BlockContext) => BlockView<BlockOf<K>>;
};

export const BLOCK_VIEWS: BlockViewTable = {
  text: (block) => new TextView(block),
  // Only the newest thinking of a running turn is open: it is the one still streaming.
  thinking: (block, context) => new ThinkingView(block, context.running && context.last),
  tool: (block, context) => new ToolCardView(block, context),
  status: (_block, context) => new StatusView(context.shown),
  error: (block, context) => new ErrorCardView(block, context),
  permission: (block, context) => new PermissionCardView(block, context),
  plan: (block) => new PlanView(block),
  steer: (block) => new SteerView(block),
};

/** A block's view, with the kind it was made for: `update` may be given only a block of that kind. */
export interface ShownBlock {
  readonly kind: BlockKind;
  readonly view: BlockView;
}

export function createBlockView(block: TranscriptBlock, context: BlockContext): ShownBlock {
  // TypeScript cannot carry `block.kind` into the table's key; the table's own type pairs each kind with its view.
  const create = BLOCK_VIEWS[block.kind] as (block: TranscriptBlock, context: BlockContext) => BlockView;
  return { kind: block.kind, view: create(block, context) };
}
