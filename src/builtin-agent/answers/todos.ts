// "List the TODOs": every TODO and FIXME comment in the workspace, with file and line.
import { countOf, escapeMarkdown, inlineCode } from "../markdown";
import type { AnswerContext } from "./answer-context";
import { searchNotes } from "./search-notes";

/**
 * The marker opens a comment (`// TODO`, `# FIXME:`, ` * TODO`, `<!-- TODO`), so code that merely mentions it is not
 * counted. A run of `/`, `#` or `;` is tried from its first character only (the lookbehinds): a line of them is not
 * searched again from each one.
 */
const MARKER = /(?:(?<!\/)\/\/+|(?<!#)#+|\/\*+|^\s*\*+|<!--|--|(?<!;);+)\s*@?(TODO|FIXME)\b/;
const SHOWN = 200;

export async function answerTodos(context: AnswerContext): Promise<string> {
  await context.think("I'll list the workspace's files and search them for TODO and FIXME markers.");
  const listed = await context.tools.listFiles();
  if (!listed.ok) return `I couldn't list the files of this workspace: ${listed.error}.\n`;
  const searched = await context.tools.searchText(listed.value.files, MARKER, "TODO|FIXME (in a comment)");
  if (!searched.ok) return `I couldn't search the workspace: ${searched.error}.\n`;
  const results = searched.value;
  const out = ["## TODO and FIXME comments", ""];
  if (results.totalMatches === 0) {
    out.push(`There are none in the ${countOf(results.filesSearched, "file")} I searched.`, "");
  } else {
    const kinds = results.matches.map((m) => MARKER.exec(m.text)?.[1] ?? "TODO");
    const todo = kinds.filter((k) => k === "TODO").length;
    const files = new Set(results.matches.map((m) => m.path)).size;
    const counted = results.totalMatches > results.matches.length ? ` (counting the first ${results.matches.length.toLocaleString("en-US")})` : "";
    out.push(`${countOf(results.totalMatches, "marker")}: ${countOf(todo, "TODO")} and ${countOf(kinds.length - todo, "FIXME")} in ${countOf(files, "file")}${counted}.`, "");
    results.matches.slice(0, SHOWN).forEach((match, i) => {
      out.push(`- ${inlineCode(`${match.path}:${match.line}`)} — **${kinds[i]}** ${noteOf(match.text) || "(no text)"}`);
    });
    if (results.totalMatches > SHOWN) out.push(`- …and ${(results.totalMatches - SHOWN).toLocaleString("en-US")} more`);
    out.push("");
  }
  out.push(...searchNotes(listed.value, results));
  return out.join("\n").trimEnd() + "\n";
}

/** The note after the marker, without an "(owner):" prefix or a comment closer, as plain text. */
function noteOf(line: string): string {
  const marker = MARKER.exec(line);
  const after = marker ? line.slice(marker.index + marker[0].length) : line;
  // Blanks are trimmed, not matched on both sides of the closer: a run of them is then never tried from each one.
  const text = after
    .replace(/^(\([^)]*\))?\s*(?:[:\-–—]\s*)?/, "")
    .trimEnd()
    .replace(/(?:\*\/|-->|#\})$/, "")
    .trim();
  return escapeMarkdown(text);
}
