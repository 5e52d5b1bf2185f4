// An ACP agent's file access, served from the editor: reads see unsaved changes of open documents, and a write to an
// existing file goes through a WorkspaceEdit that is saved, so Undo works. Everything else (files not open, new files)
// goes through the same race-free, bounded code as `agent-stream ask`, confined to the workspace folders; anything
// refused is said to the agent and in the log.
import * as vscode from "vscode";
import { NodeWorkspaceFiles, type OpenDocuments, type WorkspaceFiles } from "../acp/workspace-files";
import { escapeForLog } from "../protocol/visible-text";

export class EditorFiles implements WorkspaceFiles {
  private readonly files: NodeWorkspaceFiles;

  constructor(
    roots: readonly string[],
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.files = new NodeWorkspaceFiles(roots, { documents: editorDocuments });
  }

  read(filePath: string, line?: number | null, limit?: number | null): Promise<string> {
    return this.logged("read", filePath, () => this.files.read(filePath, line, limit));
  }

  write(filePath: string, content: string): Promise<void> {
    return this.logged("write", filePath, () => this.files.write(filePath, content));
  }

  private async logged<T>(what: "read" | "write", filePath: string, serve: () => Promise<T>): Promise<T> {
    try {
      return await serve();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn(escapeForLog(`refused an agent's ${what} of ${JSON.stringify(filePath)}: ${reason}`));
      throw error;
    }
  }
}

const editorDocuments: OpenDocuments = {
  find(realPath) {
    const uri = vscode.Uri.file(realPath).toString();
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri);
    if (document === undefined) return undefined;
    return { lineCount: document.lineCount, lineAt: (index) => document.lineAt(index).text, eol: document.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n" };
  },

  async replace(realPath, content, beforeSave) {
    const uri = vscode.Uri.file(realPath);
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor did not apply the edit to ${realPath}`);
    // The editor saves by path: the last check that the path still leads to the same file inside comes right before.
    await beforeSave();
    if (!(await document.save())) throw new Error(`the editor did not save ${realPath}`);
  },
};
