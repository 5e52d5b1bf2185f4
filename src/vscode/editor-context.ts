// Gathers what "Ask about Workspace" may send: the workspace folder, the active file, and the selection.
import * as vscode from "vscode";
import type { EditorSnapshot } from "../panel/prompt-context";

export function snapshotEditor(): EditorSnapshot {
  const editor = vscode.window.activeTextEditor;
  const folder = (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? vscode.workspace.workspaceFolders?.[0];
  const document = editor?.document;
  const selection = editor?.selection;
  return {
    workspaceFolder: folder === undefined ? null : { name: folder.name, path: folder.uri.fsPath },
    activeFile:
      document === undefined
        ? null
        : { path: document.isUntitled ? document.uri.path : vscode.workspace.asRelativePath(document.uri, false), languageId: document.languageId },
    selection:
      document === undefined || selection === undefined || selection.isEmpty
        ? null
        : { startLine: selection.start.line + 1, endLine: selection.end.line + 1, text: document.getText(selection) },
  };
}
