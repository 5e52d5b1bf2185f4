// What a search could not cover, said plainly under its results: files it could not read or skipped, and limits hit.
import { countOf, inlineCode } from "../markdown";
import type { FileListing } from "../tools/list-files";
import type { SearchResults } from "../tools/search-text";

const UNREADABLE_SHOWN = 10;

export function searchNotes(listing: FileListing, results: SearchResults): string[] {
  const notes: string[] = [];
  if (results.unreadable.length > 0) {
    notes.push(`${countOf(results.unreadable.length, "file")} could not be read:`, "");
    for (const { error } of results.unreadable.slice(0, UNREADABLE_SHOWN)) notes.push(`- ${error}`);
    if (results.unreadable.length > UNREADABLE_SHOWN) notes.push(`- …and ${results.unreadable.length - UNREADABLE_SHOWN} more`);
    notes.push("");
  }
  const skipped: string[] = [];
  if (results.skippedBinary > 0) skipped.push(`${countOf(results.skippedBinary, "binary file")}`);
  if (results.skippedLarge.length > 0) skipped.push(`${countOf(results.skippedLarge.length, "file")} over 1 MB (${results.skippedLarge.slice(0, 3).map(inlineCode).join(", ")}${results.skippedLarge.length > 3 ? ", …" : ""})`);
  if (skipped.length > 0) notes.push(`Skipped: ${skipped.join("; ")}.`, "");
  if (results.budgetExhausted) notes.push("I stopped after 64 MB of text, so files late in the listing were not searched.", "");
  if (listing.truncated) notes.push(`The workspace has more than ${countOf(listing.files.length, "file")}; I searched only those I listed.`, "");
  return notes;
}
