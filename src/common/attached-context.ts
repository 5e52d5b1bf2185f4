// What was attached to a prompt, as text: the summary the chat shows under the prompt, and the references an agent
// that takes no typed parts reads with its own tools (Claude Code, pi, Codex, the built-in agent…: Claude Code does not
// expand `@path` in a stream-json message, so it too reads the file when it needs it).
// Images are not text: each transport sends or refuses them (see prompt-parts.ts).
import type { Attachment, PromptContext } from "../protocol/messages";
import { isImage, type PromptPart } from "../protocol/prompt-parts";
import { fenced } from "./code-fence";

/**
 * Files and folders picked with @ by path, for the agent to read (every agent can), and a selection with its file,
 * lines and text; an image by its name in the summary only. Null when nothing was attached.
 */
export function attachedContext(parts: readonly PromptPart[]): PromptContext | null {
  if (parts.length === 0) return null;
  const summary: string[] = [];
  const named: string[] = [];
  const selections: string[] = [];
  for (const part of parts) {
    if (isImage(part)) {
      summary.push(`image ${part.name}`);
      continue;
    }
    if (part.kind !== "selection") {
      summary.push(nameOf(part));
      named.push(`- @${nameOf(part)}`);
      continue;
    }
    const where = `${part.path}${linesOf(part)}`;
    summary.push(`selection ${where}`);
    selections.push(`Selected text (${where}):`, fenced(part.text ?? "", part.language ?? ""));
  }
  const text = [
    ...(named.length === 0 ? [] : ["Files and folders the user attached (read them as needed):", ...named]),
    ...selections,
  ];
  return { summary: summary.join(" · "), text: text.join("\n") };
}

/** The prompt as an agent that takes only text receives it: the user's words, then what they attached. */
export function promptWithParts(prompt: string, parts: readonly PromptPart[]): string {
  const text = attachedContext(parts)?.text ?? "";
  return text === "" ? prompt : `${prompt}\n\n${text}`;
}

/** A folder ends with a slash, so that the agent (and Claude's `@` resolution) knows it for one. */
export function nameOf(attachment: Attachment): string {
  return attachment.kind === "folder" ? `${attachment.path}/` : attachment.path;
}

export function linesOf(attachment: Attachment): string {
  if (attachment.lines === undefined) return "";
  const { start, end } = attachment.lines;
  return start === end ? `:${start}` : `:${start}–${end}`;
}
