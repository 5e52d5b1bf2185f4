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
const QUOTED = /"([^"]+)"|'([^']+)'|`([^`]+)`|“([^”]+)”/;

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

/** The first word that looks like a file path: it has a folder separator or a file extension. */
function pathIn(text: string): string | null {
  for (const word of text.split(/\s+/)) {
    const candidate = word.replace(/^[("'`“]+/, "").replace(/[)"'`”,;:!?]+$/, "").replace(/\.+$/, "");
    if (candidate.includes("://")) continue;
    if (/^[\w@.\-/]+$/.test(candidate) && (candidate.includes("/") || /[A-Za-z_-][\w-]*\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(candidate))) {
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
  return term
    .replace(/\s+(?:in|across|within|throughout)\s+(?:the|this|my)\s+(?:workspace|project|repo(?:sitory)?|code(?:base)?|files?)\s*[?.!]*$/i, "")
    .replace(/\s+(?:is|are)?\s*(?:used|defined|called|mentioned|declared)\s*[?.!]*$/i, "")
    .replace(/[?.!]+$/, "")
    .trim();
}
