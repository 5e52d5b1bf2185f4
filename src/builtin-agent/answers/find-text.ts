// "Find <text>": every line of the workspace that contains the text, case-insensitively, as file:line.
import { countOf, inlineCode } from "../markdown";
import type { AnswerContext } from "./answer-context";
import { searchNotes } from "./search-notes";

const MATCHES_SHOWN = 50;

export async function answerFindText(context: AnswerContext, text: string): Promise<string> {
  await context.think(`Looking for ${JSON.stringify(text)}: I'll list the workspace's files, then search each one for it, ignoring case.`);
  const listed = await context.tools.listFiles();
  if (!listed.ok) return `I couldn't list the files of this workspace: ${listed.error}.\n`;
  const pattern = new RegExp(escapeRegExp(text), "i");
  const searched = await context.tools.searchText(listed.value.files, pattern, text);
  if (!searched.ok) return `I couldn't search the workspace: ${searched.error}.\n`;
  const results = searched.value;
  const out = [`## Matches for ${inlineCode(text)}`, ""];
  if (results.totalMatches === 0) {
    out.push(`No line in the ${countOf(results.filesSearched, "file")} I searched contains ${inlineCode(text)} (ignoring case).`, "");
  } else {
    const files = new Set(results.matches.map((m) => m.path)).size;
    const across = results.totalMatches > results.matches.length ? "" : ` across ${countOf(files, "file")}`;
    out.push(`${countOf(results.totalMatches, "match", "matches")}${across} (${countOf(results.filesSearched, "file")} searched):`, "");
    for (const match of results.matches.slice(0, MATCHES_SHOWN)) out.push(`- ${inlineCode(`${match.path}:${match.line}`)} — ${inlineCode(match.text)}`);
    if (results.totalMatches > MATCHES_SHOWN) out.push(`- …and ${(results.totalMatches - MATCHES_SHOWN).toLocaleString("en-US")} more`);
    out.push("");
  }
  out.push(...searchNotes(listed.value, results));
  return out.join("\n").trimEnd() + "\n";
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
