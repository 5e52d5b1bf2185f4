// Prints a live session for a person at a terminal: the answer as it streams, tools and errors on their own lines.
import { StringDecoder } from "node:string_decoder";
import type { SessionChange } from "../protocol/messages";
import { guideFor } from "../protocol/error-guides";
import { toolAbout } from "../common/tool-summary";
import type { TranscriptBlock } from "../protocol/transcript";
import { formatDuration } from "../common/duration";
import { answeredByWords } from "../common/permission-answer";
import { escapeForLog, escapeForTerminal } from "../protocol/visible-text";
import { usageLine } from "../common/usage-text";

export interface PrinterStreams {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  color: boolean;
}

const TOOL_OUTPUT_LINES = 5;

function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}

/** The first lines of a text, indented, with a count of the rest. */
function indentedHead(text: string, lines: number): string {
  const all = text.replace(/\n$/, "").split("\n");
  const shown = all.slice(0, lines).map((l) => `  ${l}`);
  if (all.length > lines) shown.push(`  … ${all.length - lines} more lines`);
  return shown.join("\n");
}

export function createLivePrinter(streams: PrinterStreams): (change: SessionChange) => void {
  // Every text printed is the stream's (or wraps it), so it is escaped here; only our own colour codes stay raw.
  const paint = (code: string, text: string) => {
    const shown = escapeForTerminal(text);
    return streams.color ? `\u001b[${code}m${shown}\u001b[0m` : shown;
  };
  let atLineStart = true;
  let lastKind: TranscriptBlock["kind"] | null = null;
  const write = (text: string) => {
    if (text.length === 0) return;
    streams.out.write(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => write((atLineStart ? "" : "\n") + text + "\n");

  const printBlock = (block: TranscriptBlock) => {
    switch (block.kind) {
      case "text":
        if (lastKind !== null && lastKind !== "text") write(atLineStart ? "" : "\n");
        write(escapeForTerminal(block.text));
        return;
      case "thinking":
        write((atLineStart ? "" : "\n") + paint("2", `💭 ${block.text}`));
        return;
      case "tool": {
        const summary = toolAbout(block);
        line(paint("36", `▶ ${block.tool}${summary ? ` ${summary}` : ""}`));
        if (block.status !== "running") printToolEnd(block);
        return;
      }
      case "status":
        line(paint("2", `· ${block.status}${block.message ? `: ${block.message}` : ""}`));
        return;
      case "error":
        // A refusal reads as the card words it; every other error keeps its code, which scripts may match.
        line(paint("31", block.cause?.kind === "refused" ? `✗ ${guideFor(block).title}. ${block.message}` : `✗ ${block.code}: ${block.message}`));
        return;
      case "permission":
        // On one line each, whatever the agent's texts hold: none can pass for an answer or a warning of ours.
        line(paint("35", escapeForLog(`? ${block.title} — ${block.options.map((option) => option.name).join(" / ")}`)));
        if (block.outsideWorkspace.length > 0) line(paint("33", escapeForLog(`  ⚠ outside the workspace: ${block.outsideWorkspace.join(", ")}`)));
        if (block.decision !== null) printAnswer(block);
        return;
      case "plan":
        printPlan(block);
        return;
      case "steer":
        line(paint("1", escapeForLog(`you: ${block.text}`)));
        return;
    }
  };
  const printAnswer = (block: Extract<TranscriptBlock, { kind: "permission" }>) => {
    const option = block.options.find((candidate) => candidate.id === block.optionId);
    line(paint(block.decision === "allowed" ? "32" : "33", escapeForLog(`  → ${block.decision}${option ? ` (${option.name})` : ""}${answeredByWords(block)}`)));
  };
  const printPlan = (block: Extract<TranscriptBlock, { kind: "plan" }>) => {
    const marks = { pending: "☐", in_progress: "◐", completed: "☑" } as const;
    line(paint("34", ["plan:", ...block.entries.map((entry) => `  ${marks[entry.status]} ${entry.content}`)].join("\n")));
  };
  /** A tool's output and file changes, briefly: the card in the panel has them whole. */
  const printToolResult = (block: Extract<TranscriptBlock, { kind: "tool" }>) => {
    if (block.output !== null && block.output !== "") line(paint("2", indentedHead(block.output, TOOL_OUTPUT_LINES)));
    for (const diff of block.diffs) line(paint("2", `  ${diff.oldText === null ? "new" : "changed"} ${diff.path} (+${lineCount(diff.newText)} lines)`));
  };
  const printToolEnd = (block: Extract<TranscriptBlock, { kind: "tool" }>) => {
    printToolResult(block);
    const timing = block.durationMs !== null ? ` (${formatDuration(block.durationMs)})` : "";
    if (block.status === "succeeded") line(paint("32", `✓ ${block.tool}${timing}`));
    else if (block.status === "failed") line(paint("31", `✗ ${block.tool}${timing}${block.error ? `: ${block.error}` : ""}`));
    else line(paint("33", `⊘ ${block.tool} ${block.status}`));
  };

  return (change) => {
    switch (change.kind) {
      case "block-added":
        printBlock(change.block);
        lastKind = change.block.kind;
        return;
      case "text-appended":
        write(lastKind === "thinking" ? paint("2", change.text) : escapeForTerminal(change.text));
        return;
      case "block-updated":
        // A running card changes often (an ACP agent's updates): it is printed when it ends.
        if (change.block.kind === "tool" && change.block.status !== "running") printToolEnd(change.block);
        if (change.block.kind === "permission" && change.block.decision !== null) printAnswer(change.block);
        if (change.block.kind === "plan") printPlan(change.block);
        return;
      case "problem": {
        const where = change.problem.line !== null ? `line ${change.problem.line}` : "stream";
        // One line per problem, as `check` prints them.
        streams.err.write(paint("33", `${where}: ${change.problem.code} ${escapeForLog(change.problem.message)}`) + "\n");
        return;
      }
      case "done": {
        const d = change.done;
        const facts = [change.status, `exit ${d.exitCode}`, formatDuration(d.durationMs)];
        if (d.toolsUsed.length) facts.push(`tools: ${d.toolsUsed.join(", ")}`);
        if (d.tokensUsed !== null) facts.push(`${d.tokensUsed} tokens`);
        line(paint(change.status === "completed" ? "32" : "31", `■ ${facts.join(" · ")}`));
        // A line of its own after the one scripts read: the chat's usage meter, in the same words.
        const usage = d.usage === null ? null : usageLine(d.usage);
        if (usage !== null) line(paint("2", `  usage: ${escapeForTerminal(usage)}`));
        return;
      }
      case "state":
        return;
    }
  };
}

/**
 * The CLI's own stderr, passed on to ours for the reader: its lines kept, any other control character shown escaped
 * (a CLI prints what its model said there too). A character split between chunks is decoded, and escaped, whole.
 */
export function createStderrPassthrough(err: PrinterStreams["err"]): (chunk: Buffer) => void {
  const decoder = new StringDecoder("utf8");
  return (chunk) => {
    const text = decoder.write(chunk);
    if (text !== "") err.write(escapeForTerminal(text));
  };
}
