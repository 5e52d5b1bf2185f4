// What "Ask about Workspace" tells the agent besides the prompt: the workspace folder, the active file and the
// selection, each only if the user's settings say so. Plain data in, text out; the editor glue gathers the data.
import { fenced } from "../common/code-fence";
import type { PromptContext } from "../protocol/messages";

export interface EditorSnapshot {
  workspaceFolder: { name: string; path: string } | null;
  /** `path` is relative to the workspace folder when the file is inside it. */
  activeFile: { path: string; languageId: string } | null;
  /** Lines are 1-based and inclusive; null when nothing is selected. */
  selection: { startLine: number; endLine: number; text: string } | null;
}

export interface ContextChoice {
  workspaceFolder: boolean;
  activeFile: boolean;
  selection: boolean;
}

/**
 * The prompt travels as one command-line argument, and Linux refuses a single argument over 128 KiB (E2BIG):
 * a selection longer than this is cut, and the agent is told it was.
 */
export const MAX_SELECTION_CHARS = 32 * 1024;

export function buildPromptContext(editor: EditorSnapshot, choice: ContextChoice): PromptContext | null {
  const summary: string[] = [];
  const lines: string[] = [];
  if (choice.workspaceFolder && editor.workspaceFolder !== null) {
    summary.push(`workspace ${editor.workspaceFolder.name}`);
    lines.push(`- Workspace folder: ${editor.workspaceFolder.path}`);
  }
  if (choice.activeFile && editor.activeFile !== null) {
    summary.push(editor.activeFile.path);
    lines.push(`- Active file: ${editor.activeFile.path} (${editor.activeFile.languageId})`);
  }
  const selection = choice.selection ? editor.selection : null;
  if (selection !== null && selection.text.trim() !== "") {
    const range = selection.startLine === selection.endLine ? `line ${selection.startLine}` : `lines ${selection.startLine}–${selection.endLine}`;
    const where = editor.activeFile === null ? range : `${editor.activeFile.path}, ${range}`;
    summary.push(`selection (${range})`);
    const cut = selection.text.length > MAX_SELECTION_CHARS;
    const text = cut ? selection.text.slice(0, MAX_SELECTION_CHARS) : selection.text;
    lines.push(`- Selected text (${where}${cut ? `, first ${MAX_SELECTION_CHARS.toLocaleString("en-US")} characters` : ""}):`);
    lines.push(fenced(text, editor.activeFile?.languageId ?? ""));
  }
  if (lines.length === 0) return null;
  return { summary: summary.join(" · "), text: ["Context from the editor:", ...lines].join("\n") };
}
