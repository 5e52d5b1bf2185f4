// One line that says what a tool call is about: the agent's own title, or its file, command or pattern.
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

/**
 * What the chat's tool card and a markdown transcript say a call is about: the agent's own title says it better than a
 * guess from the parameters; a title that only repeats the tool's name says nothing more.
 */
export function toolAbout(card: { tool: string; title: string | null; parameters: Record<string, unknown> | null }): string {
  if (card.title === null) return summarizeParameters(card.parameters);
  return card.title === card.tool ? "" : card.title;
}
