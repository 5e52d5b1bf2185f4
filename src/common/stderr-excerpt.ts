// The last lines of an agent's stderr, as an error card shows them: what explains a failure the agent's own error
// does not. Bounded in lines and characters (a note says when some were left out), colours dropped, and every other
// control character shown escaped, so that stderr can neither act on a terminal nor hide text.
import { escapeForTerminal } from "../protocol/visible-text";

export const STDERR_EXCERPT_LINES = 20;
export const STDERR_EXCERPT_CHARS = 4096;
const LEFT_OUT = "[… earlier lines of stderr left out]";
/** Between an error's own words and the excerpt that explains them. */
const HEADING = "\nLast lines of stderr:\n";

/** An error's message followed by the excerpt of stderr that explains it ("" adds nothing). */
export function withStderrExcerpt(message: string, excerpt: string): string {
  return excerpt === "" ? message : `${message}${HEADING}${excerpt}`;
}

/** An error's own words, without the excerpt withStderrExcerpt added: for a log that shows the whole stderr itself. */
export function withoutStderrExcerpt(message: string): string {
  const at = message.indexOf(HEADING);
  return at === -1 ? message : message.slice(0, at);
}

/** The excerpt of `stderr` (the tail a process kept); "" when it holds nothing but blanks. */
export function stderrExcerpt(stderr: string): string {
  const text = stderr.trimEnd();
  if (text.trim() === "") return "";
  let kept = text.slice(-STDERR_EXCERPT_CHARS);
  let cut = kept.length < text.length;
  // A line cut at its start reads as a different line: it goes, unless it is the only one.
  const firstBreak = kept.indexOf("\n");
  if (cut && firstBreak !== -1 && text[text.length - kept.length - 1] !== "\n") kept = kept.slice(firstBreak + 1);
  let lines = kept.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  lines = lines.slice(lines.findIndex((line) => line.trim() !== ""));
  if (lines.length > STDERR_EXCERPT_LINES) {
    lines = lines.slice(-STDERR_EXCERPT_LINES);
    cut = true;
  }
  const shown = lines.map((line) => escapeForTerminal(withoutColours(line))).join("\n");
  return cut ? `${LEFT_OUT}\n${shown}` : shown;
}

/** Select Graphic Rendition sequences (`ESC [ 31 m`), which only colour text: dropped, where other escapes show. */
function withoutColours(line: string): string {
  if (!line.includes("\x1b[")) return line;
  let out = "";
  let at = 0;
  for (let start = line.indexOf("\x1b[", at); start !== -1; start = line.indexOf("\x1b[", at)) {
    let end = start + 2;
    while (end < line.length && isParameter(line.charCodeAt(end))) end++;
    if (line[end] !== "m") {
      out += line.slice(at, start + 2);
      at = start + 2;
      continue;
    }
    out += line.slice(at, start);
    at = end + 1;
  }
  return out + line.slice(at);
}

/** A digit or `;`. */
function isParameter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x3b;
}
