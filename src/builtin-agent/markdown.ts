// Small pieces of markdown that stay correct whatever text goes into them (backticks, pipes, newlines).

export { inlineCode } from "../common/code-fence";

export function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, "\\|").replace(/\n/g, " ")).join(" | ")} |`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/** "1 file", "20,000 files": fixed to en-US so the answer does not depend on the machine's locale. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}

/** Text from a file shown as prose: characters markdown would act on are escaped; `code spans` are kept. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_[\]<>#|~]/g, "\\$&");
}
