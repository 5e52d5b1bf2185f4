// A session's title made from a prompt: what the Sessions view shows of it on one line.

/** Characters of a title made from a prompt. */
export const TITLE_CHARS = 120;

/** The prompt's first non-blank line, its runs of white space made one space, cut to `maxChars` with an ellipsis. */
export function titleFromPrompt(prompt: string, maxChars: number = TITLE_CHARS): string {
  const line = prompt.split("\n").find((text) => text.trim().length > 0) ?? "";
  const oneLine = line.replace(/\s+/g, " ").trim();
  return oneLine.length > maxChars ? `${oneLine.slice(0, maxChars - 1)}…` : oneLine;
}
