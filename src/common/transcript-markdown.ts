// A finished transcript as markdown a person reads: the answer, thinking quoted, tools as one-line entries.
import type { Transcript, TranscriptBlock } from "../protocol/transcript";
import { formatDuration } from "./duration";
import { answeredByWords } from "./permission-answer";
import { summarizeParameters } from "./tool-summary";

export function transcriptToMarkdown(transcript: Transcript): string {
  const out: string[] = [];
  out.push(`# Agent Stream transcript`, "");
  out.push(`- session: ${transcript.sessionId ?? "(none)"}`, `- dialect: ${transcript.dialect}`, `- status: ${transcript.status}`, "");
  for (const block of transcript.blocks) out.push(blockToMarkdown(block), "");
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
      const summary = summarizeParameters(block.parameters);
      const mark = { running: "…", succeeded: "✓", failed: "✗", abandoned: "⊘" }[block.status];
      const timing = block.durationMs !== null ? ` (${formatDuration(block.durationMs)})` : "";
      const error = block.error ? ` — ${block.error}` : "";
      return `${mark} **${block.tool}**${summary ? ` \`${summary.replace(/`/g, "'")}\`` : ""} ${block.status}${timing}${error}`;
    }
    case "status":
      return `_${block.status}${block.message ? `: ${block.message}` : ""}_`;
    case "error":
      return `> **Error ${block.code}**${block.recoverable ? " (recoverable)" : ""}: ${block.message.replace(/\n/g, "\n> ")}`;
    case "permission": {
      const chosen = block.options.find((option) => option.id === block.optionId);
      const answer = block.decision === null ? "waiting" : `${block.decision}${chosen ? ` (${chosen.name})` : ""}${answeredByWords(block)}`;
      return `🔐 **Permission:** ${block.title} — ${answer}`;
    }
    case "plan":
      return ["**Plan:**", ...block.entries.map((e) => `- [${e.status === "completed" ? "x" : " "}] ${e.content}${e.status === "in_progress" ? " _(in progress)_" : ""}`)].join("\n");
  }
}

/** Where a text the session kept only the start of stops: the chat says the same under the block. */
export function truncationNote(truncatedChars: number): string {
  return `… ${truncatedChars.toLocaleString("en-US")} more ${truncatedChars === 1 ? "character" : "characters"} not shown`;
}

function cutNote(truncatedChars: number | undefined): string {
  return truncatedChars === undefined || truncatedChars === 0 ? "" : `\n\n_${truncationNote(truncatedChars)}_`;
}
