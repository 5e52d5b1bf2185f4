// Code in markdown that holds any text: the fence is longer than every run of backticks inside, so the text (a
// selection, a file an agent wrote, a path or a title) cannot close the block or span early or add to the page around
// it.

/** `text` in a fence with `language` as its info string; one trailing newline of the text is dropped. */
export function fenced(text: string, language: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}

/**
 * `text` as inline code, on one line: a fence longer than any backtick run inside (padded with a space where CommonMark
 * needs one), and every line break shown as a space, since a blank line would end the paragraph.
 */
export function inlineCode(text: string): string {
  const oneLine = text.replace(/\s*[\r\n]\s*/g, " ");
  const longestRun = Math.max(0, ...Array.from(oneLine.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longestRun + 1);
  const pad = longestRun > 0 || oneLine.startsWith(" ") || oneLine.endsWith(" ") ? " " : "";
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}
