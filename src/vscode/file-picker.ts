// The @ picker's files: the workspace folders walked once by the rules ListFiles uses (src/workspace/), kept, and
// walked again after files were created or deleted; each query is a fuzzy match over what is kept, open editors first.
import * as path from "node:path";
import * as vscode from "vscode";
import { NodeWorkspaceFiles } from "../acp/workspace-files";
import type { PickedFile } from "../protocol/messages";
import { escapeForLog } from "../protocol/visible-text";
import { FuzzyIndex } from "../workspace/fuzzy-match";
import { pathAsPicked } from "../common/picked-path";
import { walkWorkspace, type TreeEntry } from "../workspace/workspace-tree";

/** A workspace past this many files and folders is offered its first ones (breadth first: the top of the tree). */
const MAX_ENTRIES = 100_000;
const MAX_DEPTH = 32;
/** How many matches one answer holds. */
const MAX_PICKED = 50;
/** A .gitignore larger than this has no rules for the picker (as for the built-in agent). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

export class WorkspaceFilePicker implements vscode.Disposable {
  private entries: Promise<FuzzyIndex> | undefined;
  private stale = false;
  private readonly watcher: vscode.FileSystemWatcher;

  constructor(private readonly log: vscode.LogOutputChannel) {
    // Only creations and deletions change the list; a changed file's content does not.
    this.watcher = vscode.workspace.createFileSystemWatcher("**/*", false, true, false);
    this.watcher.onDidCreate(() => (this.stale = true));
    this.watcher.onDidDelete(() => (this.stale = true));
  }

  async find(query: string): Promise<PickedFile[]> {
    if (this.entries === undefined || this.stale) {
      this.stale = false;
      const walking = this.walk().then((entries) => new FuzzyIndex(entries));
      // Until the new walk is done, the last one answers (typing is never held up by a walk).
      if (this.entries === undefined) this.entries = walking;
      else void walking.then((entries) => (this.entries = Promise.resolve(entries)));
    }
    return (await this.entries).pick(openFiles(), query, MAX_PICKED);
  }

  dispose(): void {
    this.watcher.dispose();
  }

  private async walk(): Promise<TreeEntry[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const roots = folders.map((folder) => folder.uri.fsPath);
    const files = new NodeWorkspaceFiles(roots);
    const all: TreeEntry[] = [];
    for (const root of roots) {
      const walked = await walkWorkspace(root, {
        maxEntries: MAX_ENTRIES - all.length,
        maxDepth: MAX_DEPTH,
        folders: true,
        readIgnoreFile: async (relative) => {
          const text = await files.read(path.join(root, relative)).catch(() => "");
          return text.length > MAX_IGNORE_FILE_BYTES ? "" : text;
        },
      });
      if (!walked.ok) {
        this.log.warn(escapeForLog(`the @ picker could not list ${root}: ${walked.error}`));
        continue;
      }
      if (walked.tree.truncated) this.log.info(`the @ picker lists the first ${MAX_ENTRIES.toLocaleString("en-US")} files and folders of the workspace`);
      // One folder: paths as the user reads them; several: absolute, so that a path names one file.
      for (const entry of walked.tree.entries) all.push(roots.length === 1 ? entry : { ...entry, path: path.join(root, entry.path) });
    }
    return all;
  }
}

/** The files open in editor tabs, as the picker's entries name them. */
function openFiles(): Set<string> {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const open = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== "file") continue;
      open.add(pathAsPicked(tab.input.uri.fsPath, roots));
    }
  }
  return open;
}
