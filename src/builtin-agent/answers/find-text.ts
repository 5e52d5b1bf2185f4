// "Find <text>": every line of the workspace that contains the text, case-insensitively, as file:line.
import { countOf, inlineCode } from "../markdown";
import type { AnswerContext } from "./answer-context";
import { searchNotes } from "./search-notes";

const MATCHES_SHOWN = 50;
/**
 * The longest text looked for: longer, it is no search term but something pasted with the question (a selection), and
 * V8 refuses a regular expression of some 32,000 characters.
 */
const MAX_FIND_CHARS = 1000;

export async function answerFindText(context: AnswerContext, text: string): Promise<string> {
  if (text.length > MAX_FIND_CHARS) {
    return `I look for texts of up to ${countOf(MAX_FIND_CHARS, "character")}, and this one has ${text.length.toLocaleString("en-US")}. Ask me to find a shorter part of it.\n`;
  }
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
