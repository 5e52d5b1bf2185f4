// An ACP agent's file access, served from the editor: reads see unsaved changes of open documents, writes go through
// a WorkspaceEdit that is saved, so Undo works. Both are confined to the workspace folders (symlinks resolved);
// anything else is refused to the agent and said in the log.
import * as vscode from "vscode";
import { confineToWorkspace, selectLines, type WorkspaceFiles } from "../acp/workspace-files";

export class EditorFiles implements WorkspaceFiles {
  constructor(
    private readonly roots: readonly string[],
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async read(filePath: string, line?: number | null, limit?: number | null): Promise<string> {
    const uri = await this.confine(filePath, "read");
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const text = open?.getText() ?? new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return selectLines(text, line, limit);
  }

  async write(filePath: string, content: string): Promise<void> {
    const uri = await this.confine(filePath, "write");
    const document = await openIfExists(uri);
    const edit = new vscode.WorkspaceEdit();
    if (document === undefined) {
      // A new file is created with its text: created empty and then edited, its first save now and then failed while
      // VS Code was still taking in the new file (the agent was told the write failed; the text reached the disk later).
      edit.createFile(uri, { contents: new TextEncoder().encode(content) });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor did not create ${uri.fsPath}`);
      return;
    }
    edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor did not apply the edit to ${uri.fsPath}`);
    if (!(await document.save())) throw new Error(`the editor did not save ${uri.fsPath}`);
  }

  private async confine(filePath: string, what: "read" | "write"): Promise<vscode.Uri> {
    const confined = await confineToWorkspace(filePath, this.roots);
    if (confined.ok) return vscode.Uri.file(confined.path);
    this.log.warn(`refused an agent's ${what} of ${JSON.stringify(filePath)}: ${confined.reason}`);
    throw new Error(confined.reason);
  }
}

async function openIfExists(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined;
  }
  return vscode.workspace.openTextDocument(uri);
}
