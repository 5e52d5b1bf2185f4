// A session's row in the Sessions view and entry in the store's index, worked out from the session itself.
import { diffLines } from "../common/line-diff";
import type { Turn } from "../protocol/messages";
import type { ToolDiff } from "../protocol/transcript";
import type { SessionStatus, SessionSummary, StoredSession } from "../protocol/sessions";

/**
 * A session's state from its last turn: while it runs, running (waiting while a permission request of it waits for
 * the user); then how that turn ended. A turn saved while it ran (no end yet) was stopped by the reload.
 */
export function statusOfLastTurn(last: Turn | undefined, running: boolean): SessionStatus {
  if (last === undefined) return "new";
  if (running) return last.blocks.some((block) => block.kind === "permission" && block.decision === null) ? "waiting" : "running";
  switch (last.status) {
    case "completed":
      return "completed";
    case "failed":
      return "failed";
    default:
      return "stopped";
  }
}

/** The status of a stored session that nothing runs (the window was reloaded): how its last turn ended. */
export function statusOf(session: StoredSession): SessionStatus {
  return statusOfLastTurn(session.turns.at(-1), false);
}

export function summaryOf(session: StoredSession, status: SessionStatus): SessionSummary {
  return {
    id: session.id,
    title: session.title,
    agent: { profile: session.agent.profile, displayName: session.agent.displayName },
    status,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    turnCount: session.turns.length,
    changes: changesIn(session.turns),
    source: session.source,
    agentConversationId: session.agentSession?.conversationId ?? null,
  };
}

/**
 * Our sessions and the CLIs' own in one list, newest first. A CLI's session that one of ours already is (the same id:
 * opened from the list) or runs (its agent conversation: every session we run with Claude Code is also in Claude's
 * store) is listed once, as ours.
 */
export function listedSessions(ours: readonly SessionSummary[], theirs: readonly SessionSummary[]): SessionSummary[] {
  const known = new Set(ours.flatMap((summary) => [summary.id, ...(typeof summary.agentConversationId === "string" ? [summary.agentConversationId] : [])]));
  return [...ours, ...theirs.filter((summary) => !known.has(summary.id))].sort((a, b) => b.updatedAt - a.updatedAt);
}

/**
 * Lines added and removed by the edits the turns' tool calls reported (each edit counted as the tool card counts it),
 * or null when no call reported one: an agent that does not say what it changed has not changed nothing.
 */
export function changesIn(turns: readonly Turn[]): SessionSummary["changes"] {
  let added = 0;
  let removed = 0;
  let reported = false;
  for (const turn of turns) {
    for (const block of turn.blocks) {
      if (block.kind !== "tool") continue;
      for (const diff of block.diffs) {
        const lines = lineCounts(diff);
        added += lines.added;
        removed += lines.removed;
        reported = true;
      }
    }
  }
  return reported ? { added, removed } : null;
}

/**
 * A diff's counts, worked out once: a running session's summary is made at each save, and a thousand edits of
 * 200-line files take 60–400 ms to count. A diff is never changed in place (an update replaces it), so its object is
 * its key.
 */
const countedDiffs = new WeakMap<ToolDiff, { added: number; removed: number }>();

function lineCounts(diff: ToolDiff): { added: number; removed: number } {
  let counts = countedDiffs.get(diff);
  if (counts === undefined) {
    const lines = diffLines(diff.oldText, diff.newText);
    counts = { added: lines.added, removed: lines.removed };
    countedDiffs.set(diff, counts);
  }
  return counts;
}

/** What a search matches a session against: its prompts, in order, on one line, whitespace runs made one space. */
export function searchableText(prompts: readonly string[], maxChars: number): string {
  let text = "";
  for (const prompt of prompts) {
    if (text !== "") text += " · ";
    let space = false;
    for (let i = 0; i < prompt.length && text.length < maxChars; i++) {
      const char = prompt[i]!;
      const blank = char === " " || char === "\n" || char === "\r" || char === "\t";
      if (blank && !space && text !== "") text += " ";
      else if (!blank) text += char;
      space = blank;
    }
    if (text.length >= maxChars) break;
  }
  return text.slice(0, maxChars);
}
