// What of a session's turns its file keeps. Live state never reaches storage: a permission request still waiting is
// kept as cancelled, as the agent is answered when the window goes. And a file has a size bound, kept as transcripts
// keep theirs: the first part whole, then a text cut short with its cut counted, and a note counting what was left out.
import { bounded } from "../common/bounded-text";
import type { Turn } from "../protocol/messages";
import type { PermissionBlock, StatusBlock, TranscriptBlock } from "../protocol/transcript";

export const SESSION_FILE_LIMITS = {
  /**
   * Characters of the turns' blocks one session's file keeps: two transcripts at their own bound
   * (`TRANSCRIPT_LIMITS.sessionChars`), so a session of ordinary turns is never cut. Prompts are kept whole.
   */
  chars: 32 * 1024 * 1024,
} as const;

/**
 * Bytes a session's file may take, kept to `maxChars` characters of blocks: room for each character as a JSON escape
 * (up to 6 bytes, but most are 1), for prompts and fields. A larger file is not written, nor read: this store did not
 * write it, and reading it could cost the extension host gigabytes.
 */
export function maxFileBytes(maxChars: number): number {
  return 4 * maxChars + 16 * 1024 * 1024;
}

/** A turn as storage keeps it: each request still waiting answered `cancelled` (nobody answers it after a reload). */
export function withRequestsCancelled(turn: Turn): Turn {
  if (!turn.blocks.some(isWaiting)) return turn;
  return { ...turn, blocks: turn.blocks.map((block) => (isWaiting(block) ? { ...block, decision: "cancelled", optionId: null, answeredBy: null } : block)) };
}

/**
 * The turns as a session's file keeps them, at most `maxChars` characters of blocks: blocks in order while they fit;
 * the first that does not is cut short if it is text or thinking (its `truncatedChars` counts the cut), and every block
 * after it is left out, each turn that lost some ending in one status block that counts them. Prompts stay, so the
 * conversation still reads in order. The turns given are not changed.
 */
export function keptTurns(turns: readonly Turn[], maxChars: number): Turn[] {
  let left = maxChars;
  return turns.map((whole) => {
    const turn = withRequestsCancelled(whole);
    const blocks: TranscriptBlock[] = [];
    let cut = false;
    let omitted = 0;
    for (const block of turn.blocks) {
      const chars = charsIn(block);
      if (chars <= left) {
        blocks.push(block);
        left -= chars;
        continue;
      }
      if (left > 0 && (block.kind === "text" || block.kind === "thinking")) {
        // The block's other strings (its kind) count as well as its text.
        const kept = bounded(block.text, Math.max(0, left - (chars - block.text.length)));
        blocks.push({ ...block, text: kept.text, truncatedChars: (block.truncatedChars ?? 0) + kept.cutChars });
        cut = true;
      } else {
        omitted++;
      }
      // The first part only: a smaller block further on is not kept in place of one left out before it.
      left = 0;
    }
    if (omitted > 0) return { ...turn, blocks: [...blocks, notSaved(omitted, maxChars)] };
    return cut ? { ...turn, blocks } : turn;
  });
}

function isWaiting(block: TranscriptBlock): block is PermissionBlock {
  return block.kind === "permission" && block.decision === null;
}

function notSaved(omitted: number, maxChars: number): StatusBlock {
  const limit = `${Math.round(maxChars / (1024 * 1024)).toLocaleString("en-US")} MiB`;
  const blocks = `${omitted.toLocaleString("en-US")} more ${omitted === 1 ? "block" : "blocks"} of this turn ${omitted === 1 ? "was" : "were"} not saved`;
  return { kind: "status", status: "session full", message: `This session keeps about ${limit} of text; ${blocks}.` };
}

/** The characters of every string in a value (a turn or a block: no deeper than its schema), keys left out. */
export function charsIn(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null) return 0;
  let chars = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) chars += charsIn(item);
  return chars;
}
