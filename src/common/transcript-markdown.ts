// A finished transcript as markdown a person reads: the answer, thinking quoted, tools as one-line entries with what
// they printed and each file a tool changed as its folded diff, so a run read back (or a turn copied) says what it did
// to the workspace. An agent's text inside a fence is always longer-fenced (code-fence.ts): it stays text.
import type { DoneSummary, ToolDiff, Transcript, TranscriptBlock } from "../protocol/transcript";
import { bounded } from "./bounded-text";
import { formatDuration } from "./duration";
import { fenced, inlineCode } from "./code-fence";
import { diffLines, diffPreview } from "./line-diff";
import { answeredByWords } from "./permission-answer";
import { toolAbout } from "./tool-summary";
import { usageLine } from "./usage-text";
import { shownAs } from "./shown-blocks";
import { steerHeading } from "./steer-words";

/** Where one turn of a transcript ended (a stream may hold several): how many blocks came before, and its `done`. */
export interface TurnEnd {
  blocks: number;
  done: DoneSummary;
}

/** `turnEnds`: each turn's end, in order; by default the transcript is one turn. */
export function transcriptToMarkdown(transcript: Transcript, turnEnds: readonly TurnEnd[] = [{ blocks: transcript.blocks.length, done: transcript.done }]): string {
  const out: string[] = [];
  out.push(`# Agent Stream transcript`, "");
  out.push(`- session: ${transcript.sessionId ?? "(none)"}`, `- dialect: ${transcript.dialect}`, `- status: ${transcript.status}`, "");
  const showBlocks = (blocks: readonly TranscriptBlock[]) => {
    for (const shown of shownToMarkdown(blocks)) out.push(shown, "");
  };
  let shown = 0;
  for (const end of turnEnds) {
    showBlocks(transcript.blocks.slice(shown, end.blocks));
    shown = Math.max(shown, end.blocks);
    // Each turn's usage under its answer, in the words of the chat's footer and `ask`.
    const usage = end.done.usage === null ? null : usageLine(end.done.usage);
    if (usage !== null) out.push(`_${usage}_`, "");
  }
  showBlocks(transcript.blocks.slice(shown));
  const d = transcript.done;
  out.push("---", "");
  const facts = [
    d.success ? "succeeded" : "failed",
    `exit code ${d.exitCode}`,
    formatDuration(d.durationMs),
    d.toolsUsed.length ? `tools: ${d.toolsUsed.join(", ")}` : "no tools",
    ...(d.tokensUsed !== null ? [`${d.tokensUsed} tokens`] : []),
    ...(d.synthesized ? ["done synthesized by Agent Stream"] : []),
  ];
  out.push(`**Done:** ${facts.join(" · ")}`);
  if (transcript.problems.length > 0) {
    out.push("", `**Problems (${transcript.problems.length}):**`, "");
    for (const p of transcript.problems) out.push(`- ${p.line !== null ? `line ${p.line}` : "stream"}: ${p.code} ${p.message}`);
  }
  return out.join("\n") + "\n";
}

/** One turn's blocks as the chat shows them once it is over (shown-blocks.ts): each shown one's markdown, in order. */
export function shownToMarkdown(blocks: readonly (TranscriptBlock | undefined)[]): string[] {
  return blocks.flatMap((block, index) => {
    const shown = shownAs(blocks, index);
    switch (shown.as) {
      case "itself":
        return block === undefined ? [] : [blockToMarkdown(block)];
      case "nothing":
        return [];
      case "user message":
        return [`> **You:** ${quoted(shown.text)}`];
      case "notice":
        return [`> ℹ️ ${quoted(shown.text)}`];
    }
  });
}

export function blockToMarkdown(block: TranscriptBlock): string {
  switch (block.kind) {
    case "text":
      return block.text + cutNote(block.truncatedChars);
    case "thinking":
      return (block.text + cutNote(block.truncatedChars))
        .split("\n")
        .map((line, i) => (i === 0 ? `> 💭 ${line}` : `> ${line}`))
        .join("\n");
    case "tool": {
      const summary = toolAbout(block);
      const mark = { running: "…", succeeded: "✓", failed: "✗", abandoned: "⊘" }[block.status];
      const timing = block.durationMs !== null ? ` (${formatDuration(block.durationMs)})` : "";
      const error = block.error ? ` — ${block.error}` : "";
      const entry = `${mark} **${block.tool}**${summary ? ` ${inlineCode(summary)}` : ""} ${block.status}${timing}${error}`;
      const output = block.output === null || block.output === "" ? [] : [outputToMarkdown(block.output)];
      // Only a tool that succeeded made its change; any other showed what it proposed (a rejected write, say).
      return [entry, ...output, ...block.diffs.map((diff) => diffToMarkdown(diff, block.status === "succeeded"))].join("\n\n");
    }
    case "status":
      return `_${block.status}${block.message ? `: ${block.message}` : ""}_`;
    case "error":
      return `> **Error ${block.code}**${block.recoverable ? " (recoverable)" : ""}: ${block.message.replace(/\n/g, "\n> ")}`;
    case "permission": {
      const chosen = block.options.find((option) => option.id === block.optionId);
      const answer = block.decision === null ? "waiting" : `${block.decision}${chosen ? ` (${chosen.name})` : ""}${answeredByWords(block)}`;
      const outside = block.outsideWorkspace.length === 0 ? "" : ` · ⚠ outside the workspace: ${block.outsideWorkspace.map(inlineCode).join(", ")}`;
      return `🔐 **Permission:** ${block.title} — ${answer}${outside}`;
    }
    case "steer":
      return `> **${steerHeading(block)}:** ${quoted(block.text)}`;
    case "plan":
      return ["**Plan:**", ...block.entries.map((e) => `- [${e.status === "completed" ? "x" : " "}] ${e.content}${e.status === "in_progress" ? " _(in progress)_" : ""}`)].join("\n");
  }
}

/** Text inside a block quote: each of its lines stays in the quote. */
function quoted(text: string): string {
  return text.replace(/\n/g, "\n> ");
}

/** Characters of one file's folded diff shown; past them a note says how many more there were. */
export const MAX_DIFF_CHARS = 20_000;

/** Characters of a tool's output shown, as the chat's fold shows; past them a note says how many more there were. */
export const MAX_OUTPUT_CHARS = 20_000;

/** What a tool printed, as text in a fence of its own: a fence inside the output cannot close it. */
function outputToMarkdown(output: string): string {
  const shown = bounded(output, MAX_OUTPUT_CHARS);
  return ["Output:", "", fenced(shown.text, "text")].join("\n") + cutNote(shown.cutChars);
}

/** One changed file: its path and counts, then the changed lines with a little context, in a `diff` fence. */
function diffToMarkdown(diff: ToolDiff, applied: boolean): string {
  const lines = diffLines(diff.oldText, diff.newText);
  const counts = diff.oldText === null ? `new file, +${lines.added}` : `+${lines.added} −${lines.removed}`;
  const what = [counts, ...(diff.excerpt === true ? ["the replaced part only"] : []), ...(applied ? [] : ["proposed"])].join(", ");
  const preview = diffPreview(lines, MAX_DIFF_CHARS);
  return [`${inlineCode(diff.path)} (${what})`, "", fenced(preview.text, "diff")].join("\n") + cutNote(preview.cutChars);
}

/** Where a text the session kept only the start of stops: the chat says the same under the block. */
export function truncationNote(truncatedChars: number): string {
  return `… ${truncatedChars.toLocaleString("en-US")} more ${truncatedChars === 1 ? "character" : "characters"} not shown`;
}

function cutNote(truncatedChars: number | undefined): string {
  return truncatedChars === undefined || truncatedChars === 0 ? "" : `\n\n_${truncationNote(truncatedChars)}_`;
}
