// "Add Selection to Chat" (the editor's context menu, Ctrl+Alt+K / Cmd+Alt+K, the composer's button): the selection,
// with its file and lines, becomes a chip in the active session's composer and goes with the next prompt.
import * as vscode from "vscode";
import { MAX_ATTACHED_SELECTION_CHARS, type Attachment } from "../../protocol/messages";
import type { AgentStreamCommand, CommandContext } from "./command";

export const addSelectionToChat: AgentStreamCommand = {
  id: "agentStream.addSelectionToChat",
  run: (context) => addSelection(context),
};

async function addSelection({ chat, revealChat }: CommandContext): Promise<void> {
  // Taken first: once the chat opens in an editor tab, there is no active text editor any more. From the chat's own
  // button the active editor may be the chat: then the visible editor that has a selection.
  const attachment = selectionAttachment();
  if (attachment === undefined) {
    void vscode.window.showInformationMessage("Agent Stream: select some text in an editor first, then add it to the chat.");
    return;
  }
  await revealChat();
  chat.offerAttachment(attachment);
}

function selectionAttachment(): Attachment | undefined {
  const candidates = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors];
  const editor = candidates.find((each) => each !== undefined && !each.selection.isEmpty);
  if (editor === undefined) return undefined;
  const { document, selection } = editor;
  const text = document.getText(selection);
  const cut = text.length > MAX_ATTACHED_SELECTION_CHARS;
  return {
    kind: "selection",
    path: document.isUntitled ? document.uri.path : vscode.workspace.asRelativePath(document.uri, false),
    lines: { start: selection.start.line + 1, end: selection.end.line + 1 },
    text: cut ? text.slice(0, MAX_ATTACHED_SELECTION_CHARS) : text,
    language: document.languageId.slice(0, 64),
  };
}
