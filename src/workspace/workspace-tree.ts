// The files and folders of a workspace a person would call theirs: .gitignore honoured (and .git/info/exclude), .git
// and node_modules skipped, folders behind symlinks not followed (no cycles), breadth first and bounded, so that a
// huge tree cannot stall whoever asks and the entries near the top are the ones kept. Used by the built-in agent's
// ListFiles and by the chat's @ file picker.
import type { Dirent } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { IgnoreRules, IgnoreStack } from "./gitignore";

export interface TreeEntry {
  /** Relative to the root, with `/` separators. */
  path: string;
  kind: "file" | "folder";
}

export interface WorkspaceTree {
  /** Breadth first, each folder's entries by name. */
  entries: TreeEntry[];
  /** The entry limit was reached; more exist. */
  truncated: boolean;
  /** Some folders were deeper than the depth limit and were not listed. */
  depthLimited: boolean;
  /** Files and folders left out because a .gitignore says so. */
  ignoredEntries: number;
  /** Folders that could not be read, with why. */
  unreadableFolders: { path: string; error: string }[];
}

export interface WalkOptions {
  /** How many entries are kept: files, and folders when `folders` is set. */
  maxEntries: number;
  maxDepth: number;
  /** Whether folders are entries too (the picker offers them; ListFiles lists files). */
  folders?: boolean;
  signal?: AbortSignal;
  /**
   * A .gitignore's text by its path relative to the root, "" when there is none or it cannot be read safely: the
   * caller reads it as it reads any workspace file (confined, bounded; never a FIFO that would wait for ever).
   */
  readIgnoreFile(relative: string): Promise<string>;
}

export type WalkResult = { ok: true; tree: WorkspaceTree } | { ok: false; error: string };

/** Never listed, whatever .gitignore says: version control internals and installed dependencies. */
const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

interface PendingFolder {
  path: string;
  depth: number;
  ignores: IgnoreStack;
}

export async function walkWorkspace(root: string, options: WalkOptions): Promise<WalkResult> {
  const tree: WorkspaceTree = { entries: [], truncated: false, depthLimited: false, ignoredEntries: 0, unreadableFolders: [] };
  const rulesOf = async (relative: string) => IgnoreRules.parse(await options.readIgnoreFile(relative));
  const rootIgnores = IgnoreStack.empty.with("", await rulesOf(".git/info/exclude"));
  const queue: PendingFolder[] = [{ path: "", depth: 0, ignores: rootIgnores }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (options.signal?.aborted === true) return { ok: false, error: "interrupted" };
    const folder = next;
    const entries = await readFolder(path.join(root, folder.path));
    if (!entries.ok) {
      if (folder.path === "") return { ok: false, error: `cannot list the workspace: ${entries.error}` };
      tree.unreadableFolders.push({ path: folder.path, error: entries.error });
      continue;
    }
    const ignores = folder.ignores.with(folder.path, await rulesOf(folder.path === "" ? ".gitignore" : `${folder.path}/.gitignore`));
    for (const entry of entries.value) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const relative = folder.path === "" ? entry.name : `${folder.path}/${entry.name}`;
      const kind = await kindOf(path.join(root, relative), entry);
      if (kind === "other") continue;
      if (ignores.ignores(relative, kind === "folder")) {
        tree.ignoredEntries++;
        continue;
      }
      if (kind === "folder") {
        if (folder.depth + 1 > options.maxDepth) {
          tree.depthLimited = true;
          continue;
        }
        queue.push({ path: relative, depth: folder.depth + 1, ignores });
        if (options.folders !== true) continue;
      }
      if (tree.entries.length >= options.maxEntries) {
        tree.truncated = true;
        break;
      }
      tree.entries.push({ path: relative, kind });
    }
    if (tree.truncated) break;
  }
  return { ok: true, tree };
}

async function readFolder(folder: string): Promise<{ ok: true; value: Dirent[] } | { ok: false; error: string }> {
  try {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    return { ok: true, value: entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  } catch (error) {
    return { ok: false, error: errorCode(error) };
  }
}

/** A symlink counts as what it points to, except that folders behind symlinks are not followed (no cycles). */
async function kindOf(absolute: string, entry: Dirent): Promise<"file" | "folder" | "other"> {
  if (entry.isDirectory()) return "folder";
  if (entry.isFile()) return "file";
  if (!entry.isSymbolicLink()) return "other";
  try {
    return (await fs.stat(absolute)).isDirectory() ? "other" : "file";
  } catch {
    // A dangling link is still an entry of the tree; reading it will say what is wrong.
    return "file";
  }
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : String(error);
}
