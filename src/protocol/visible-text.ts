// Text from a CLI's stream (the model's words, tool names, stderr, problem messages that quote a bad line) is
// untrusted: printed raw, an escape sequence could write the clipboard (OSC 52), retitle the window, clear the
// screen or hide text, and a bidi override could reorder what the reader sees. These make such characters visible.

// C0 except \t and \n, DEL, C1, the bidi controls, and the line/paragraph separators some terminals and editors
// break lines at. (U+2028–U+202E is one range: the two separators, then the five embeddings and overrides.)
const TERMINAL_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** The same, and \n: one log entry is one line. */
const LOG_UNSAFE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw among those (it already escapes C0). */
const JSON_UNSAFE = /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const JSON_UNSAFE_ANY = /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\r`, `\n`, `\x1b`, `\u202e`: the way a reader of JavaScript or JSON would write the character. */
function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** For a terminal: every control character but newline and tab shown escaped, so it neither acts nor hides. */
export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, visible);
}

/** For a log: like escapeForTerminal, and newlines too, so one message can never become two log lines. */
export function escapeForLog(text: string): string {
  return text.replace(LOG_UNSAFE, visible);
}

/** Each line of a multi-line text (a CLI's stderr) as its own log line, escaped; a CRLF ends a line like LF. */
export function logLines(text: string): string[] {
  return text.split(/\r?\n/).map(escapeForLog);
}

/**
 * JSON text (from JSON.stringify) with C1, DEL, bidi and U+2028/2029 written as `\uXXXX`: the same value when
 * parsed, and nothing a terminal acts on when printed. Those characters can only occur inside JSON strings, where
 * `\uXXXX` means the same thing. One test first: `run --json` passes every event through here.
 */
export function escapeJson(json: string): string {
  if (!JSON_UNSAFE_ANY.test(json)) return json;
  return json.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
