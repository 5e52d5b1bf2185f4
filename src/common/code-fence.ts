// A fenced code block that holds any text: the fence is longer than every run of backticks inside, so the text (a
// selection, a file an agent wrote) cannot close the block early or add to the page around it.

/** `text` in a fence with `language` as its info string; one trailing newline of the text is dropped. */
export function fenced(text: string, language: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}
