// "Open Diff" on a tool card: VS Code's diff editor, the file before ↔ after the agent's change, from the texts the
// agent reported (read-only documents of our own scheme; nothing on disk is touched).
import * as path from "node:path";
import * as vscode from "vscode";
import type { ToolDiff } from "../protocol/transcript";

const SCHEME = "agent-stream-diff";
/** Texts of the diffs opened so far in this window, by id; the newest few are kept. */
const KEPT_DIFFS = 50;

export class DiffViewer implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private nextId = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.query) ?? "",
    });
  }

  async open(diff: ToolDiff): Promise<void> {
    const name = path.basename(diff.path);
    const before = this.keep(name, diff.oldText ?? "");
    const after = this.keep(name, diff.newText);
    const title = `${name} (${diff.oldText === null ? "new file" : "before ↔ after"}, proposed by the agent)`;
    await vscode.commands.executeCommand("vscode.diff", before, after, title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  private keep(name: string, text: string): vscode.Uri {
    const id = String(this.nextId++);
    this.texts.set(id, text);
    for (const old of this.texts.keys()) {
      if (this.texts.size <= KEPT_DIFFS * 2) break;
      this.texts.delete(old);
    }
    return vscode.Uri.from({ scheme: SCHEME, path: `/${name}`, query: id });
  }
}
