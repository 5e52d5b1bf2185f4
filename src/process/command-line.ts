// Renders a command and its arguments for logs. Only for reading: the process is never started through a shell.

export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteForDisplay).join(" ");
}

/** POSIX shell quoting, so a reader can copy the line into a terminal and get the same argv. */
function quoteForDisplay(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return "'" + word.replace(/'/g, "'\\''") + "'";
}
