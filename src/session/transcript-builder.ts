// The ordered transcript: coalesces deltas into blocks, pairs tool calls into cards,
// and tells listeners exactly what changed so a view can repaint only that.
import type { ProtocolError } from "../protocol/events";
import type { TranscriptChange } from "../protocol/messages";
import type { TextBlock, ThinkingBlock, ToolCard, TranscriptBlock } from "../protocol/transcript";

interface RunningTool {
  readonly index: number;
  readonly toolId: string | null;
  readonly tool: string;
  readonly startedAt: number | null;
}

export interface ToolCompletion {
  tool: string;
  toolId: string | null;
  success: boolean;
  durationMs: number | null;
  error: string | null;
  /** The completing event's timestamp: used for a duration when the CLI gives none. */
  timestamp: number | null;
}

export class TranscriptBuilder {
  private readonly blocks: TranscriptBlock[] = [];
  private readonly running: RunningTool[] = [];
  private readonly toolNames = new Set<string>();
  private readonly growing = new GrowingText();

  constructor(private readonly listener?: (change: TranscriptChange) => void) {}

  get snapshot(): readonly TranscriptBlock[] {
    this.growing.settle();
    return this.blocks;
  }

  /** Distinct tool names in order of first use. */
  get toolsUsed(): string[] {
    return [...this.toolNames];
  }

  get runningTools(): readonly { tool: string; toolId: string | null }[] {
    return this.running;
  }

  appendText(kind: "text" | "thinking", text: string): void {
    if (text.length === 0) return;
    const index = this.blocks.length - 1;
    const last = this.blocks[index];
    if (last !== undefined && last.kind === kind && this.growing.isFor(last)) {
      this.growing.append(text);
      this.listener?.({ kind: "text-appended", index, text });
      return;
    }
    const block: TextBlock | ThinkingBlock = { kind, text };
    this.add(block);
    this.growing.follow(block);
  }

  startTool(tool: string, toolId: string | null, parameters: Record<string, unknown> | null, timestamp: number | null): void {
    this.toolNames.add(tool);
    const index = this.add({ kind: "tool", tool, toolId, parameters, status: "running", durationMs: null, error: null });
    this.running.push({ index, toolId, tool, startedAt: timestamp });
  }

  /** Completes the matching card; returns false when no card was running for it (a card is made anyway). */
  completeTool(completion: ToolCompletion): boolean {
    const position = this.findRunning(completion.tool, completion.toolId);
    const status = completion.success ? "succeeded" : "failed";
    if (position === -1) {
      this.toolNames.add(completion.tool);
      this.add({
        kind: "tool",
        tool: completion.tool,
        toolId: completion.toolId,
        parameters: null,
        status,
        durationMs: completion.durationMs,
        error: completion.error,
      });
      return false;
    }
    const [running] = this.running.splice(position, 1);
    const card = this.blocks[running.index] as ToolCard;
    card.status = status;
    card.error = completion.error;
    card.durationMs = completion.durationMs ?? elapsed(running.startedAt, completion.timestamp);
    this.listener?.({ kind: "block-updated", index: running.index, block: { ...card } });
    return true;
  }

  /** Tools still running when the session ends never completed. */
  abandonRunningTools(): void {
    for (const running of this.running.splice(0)) {
      const card = this.blocks[running.index] as ToolCard;
      card.status = "abandoned";
      this.listener?.({ kind: "block-updated", index: running.index, block: { ...card } });
    }
  }

  addStatus(status: string, message: string | null): void {
    this.add({ kind: "status", status, message });
  }

  addError(error: ProtocolError): void {
    this.add({ kind: "error", code: error.code, message: error.message, recoverable: error.recoverable });
  }

  private add(block: TranscriptBlock): number {
    this.growing.settle();
    const index = this.blocks.push(block) - 1;
    // Listeners get a copy: the stored block keeps growing, what they were told must not.
    this.listener?.({ kind: "block-added", index, block: { ...block } });
    return index;
  }

  /** By toolId when the event has one; otherwise the oldest running call of that name without an id. */
  private findRunning(tool: string, toolId: string | null): number {
    if (toolId !== null) return this.running.findIndex((r) => r.toolId === toolId);
    return this.running.findIndex((r) => r.toolId === null && r.tool === tool);
  }
}

function elapsed(from: number | null, to: number | null): number | null {
  if (from === null || to === null || to < from) return null;
  return to - from;
}

const PIECES_PER_JOIN = 256;

/**
 * The text of the block that is still growing. A fast model sends many small deltas; `+=` would keep each
 * one alive as a rope node, which the garbage collector then copies again and again. Joining them in
 * batches lets the pieces die young and keeps a few flat strings instead.
 */
class GrowingText {
  private block: TextBlock | ThinkingBlock | undefined;
  private joined: string[] = [];
  private pieces: string[] = [];

  isFor(block: TranscriptBlock): boolean {
    return block === this.block;
  }

  follow(block: TextBlock | ThinkingBlock): void {
    this.block = block;
    this.joined = [block.text];
    this.pieces = [];
  }

  append(text: string): void {
    this.pieces.push(text);
    if (this.pieces.length < PIECES_PER_JOIN) return;
    this.joined.push(this.pieces.join(""));
    this.pieces = [];
  }

  /** Writes the text gathered so far into the block, so readers see all of it. */
  settle(): void {
    if (this.block === undefined || (this.pieces.length === 0 && this.joined.length === 1)) return;
    this.block.text = this.joined.join("") + this.pieces.join("");
    this.joined = [this.block.text];
    this.pieces = [];
  }
}
