// One line that says what a tool call is about: its file, command or pattern.
const SUMMARY_KEYS = ["file_path", "path", "filePath", "command", "cmd", "pattern", "query", "url", "notebook_path", "description"];
const MAX_SUMMARY_CHARS = 80;

export function summarizeParameters(parameters: Record<string, unknown> | null): string {
  if (parameters === null) return "";
  const key = SUMMARY_KEYS.find((k) => typeof parameters[k] === "string" && parameters[k] !== "");
  const value = key !== undefined ? parameters[key] : Object.values(parameters).find((v) => typeof v === "string" && v !== "");
  if (typeof value !== "string") return "";
  const oneLine = value.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_SUMMARY_CHARS ? oneLine.slice(0, MAX_SUMMARY_CHARS - 1) + "…" : oneLine;
}
