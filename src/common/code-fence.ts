// Code in markdown that holds any text: the fence is longer than every run of backticks inside, so the text (a
// selection, a file an agent wrote, a path or a title) cannot close the block or span early or add to the page around
// it. Both helpers take time linear in the text, whatever it holds: they write what an agent sent.

/** `text` in a fence with `language` as its info string; one trailing newline of the text is dropped. */
export function fenced(text: string, language: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text.endsWith("\n") ? text.slice(0, -1) : text}\n${fence}`;
}

/**
 * `text` as inline code, on one line: a fence longer than any backtick run inside (padded with a space where CommonMark
 * needs one), and every run of blanks that holds a line break shown as one space, since a blank line would end the
 * paragraph.
 */
export function inlineCode(text: string): string {
  // Each match is a whole run of blanks, so each character is looked at a bounded number of times.
  const oneLine = text.replace(/\s+/g, (blanks) => (blanks.includes("\n") || blanks.includes("\r") ? " " : blanks));
  const longestRun = longestBacktickRun(oneLine);
  const fence = "`".repeat(longestRun + 1);
  const pad = longestRun > 0 || oneLine.startsWith(" ") || oneLine.endsWith(" ") ? " " : "";
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** One pass over the text: no array of every run, which a text of many runs made too long to spread into Math.max. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
