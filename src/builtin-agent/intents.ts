// What the user asked for, from the words of the prompt: a handful of rules tried in a fixed order, so the same
// prompt always means the same thing.

export type Intent =
  | { kind: "summary" }
  | { kind: "find"; text: string }
  | { kind: "explain"; path: string }
  | { kind: "todos" }
  | { kind: "unknown" };

const FIND_WORDS = /\b(?:find|search(?:\s+for)?|grep|look\s+for|where\s+(?:is|are|do|does)|occurrences?\s+of|usages?\s+of|mentions?\s+of)\b/i;
const TODO_WORDS = /\b(?:todos?|fixmes?)\b/i;
const EXPLAIN_WORDS = /\b(?:explain|outline|describe|summar(?:y|i[sz]e)|what(?:'s|\s+is|\s+does)|show|tell\s+me\s+about|walk\s+me\s+through)\b/i;
const SUMMARY_WORDS =
  /\b(?:summar(?:y|i[sz]e)|overview|workspace|project|repo(?:sitory)?|codebase|languages?|how\s+(?:do\s+i\s+|to\s+)?(?:build|test)|build|scripts?)\b/i;
/** A curly quote's text holds no opening quote either: from each of a run of “, the search stops at the next one. */
const QUOTED = /"([^"]+)"|'([^']+)'|`([^`]+)`|“([^“”]+)”/;

export function intentOf(prompt: string): Intent {
  const text = prompt.trim();
  const find = FIND_WORDS.exec(text);
  const quoted = quotedText(text);
  if (find && quoted !== null) return { kind: "find", text: quoted };
  if (TODO_WORDS.test(text)) return { kind: "todos" };
  const path = pathIn(text);
  if (path !== null && EXPLAIN_WORDS.test(text)) return { kind: "explain", path };
  if (find) {
    const term = termAfter(text.slice(find.index + find[0].length));
    if (term !== "") return { kind: "find", text: term };
  }
  if (SUMMARY_WORDS.test(text)) return { kind: "summary" };
  if (path !== null) return { kind: "explain", path };
  return { kind: "unknown" };
}

function quotedText(text: string): string | null {
  const match = QUOTED.exec(text);
  if (match === null) return null;
  return match.slice(1).find((group) => group !== undefined) ?? null;
}

/**
 * A name before a file extension, such as `cart.ts` or `v2.py`: a letter, `_` or `-`, then only digits up to the dot
 * (the last such character of the name will do), so that no run of name characters is tried from each of them.
 */
const NAME_AND_EXTENSION = /[A-Za-z_-]\d*\.[A-Za-z][A-Za-z0-9]{0,9}$/;

/** The first word that looks like a file path: it has a folder separator or a file extension. */
function pathIn(text: string): string | null {
  for (const word of text.split(/\s+/)) {
    const candidate = withoutTrailing(withoutTrailing(word.replace(/^[("'`“]+/, ""), ")\"'`”,;:!?"), ".");
    if (candidate.includes("://")) continue;
    if (/^[\w@.\-/]+$/.test(candidate) && (candidate.includes("/") || NAME_AND_EXTENSION.test(candidate))) {
      return candidate;
    }
  }
  return null;
}

/** "for the text foo bar in this workspace?" → "foo bar". */
function termAfter(rest: string): string {
  let term = rest.trim();
  const filler = /^(?:for|all|the|text|string|word|occurrences?\s+of|usages?\s+of|mentions?\s+of)\b\s*/i;
  while (filler.test(term)) term = term.replace(filler, "");
  // Each phrase is tried only from the start of a run of blanks (the lookbehinds), not again from each blank of it.
  const withoutPhrases = term
    .replace(/(?<!\s)\s+(?:in|across|within|throughout)\s+(?:the|this|my)\s+(?:workspace|project|repo(?:sitory)?|code(?:base)?|files?)\s*[?.!]*$/i, "")
    .replace(/(?<!\s)\s+(?:(?:is|are)\s*)?(?:used|defined|called|mentioned|declared)\s*[?.!]*$/i, "");
  return withoutTrailing(withoutPhrases, "?.!").trim();
}

/** `text` without any of `characters` at its end: a loop, where /[…]+$/ would try a long run again from each one. */
function withoutTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1])) end--;
  return text.slice(0, end);
}
