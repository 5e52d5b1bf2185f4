// ListFiles: every file of the workspace a person would call theirs — .gitignore honoured, .git and
// node_modules skipped, symlinked folders not followed, and bounded so a huge tree cannot stall the answer.
import type { Dirent } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { IgnoreRules, IgnoreStack } from "../gitignore";
import { readFile } from "./read-file";
import { failed, succeeded, type ToolResult } from "./tool-result";

export interface ListedFile {
  /** Relative to the workspace root, with `/` separators. */
  path: string;
  size: number;
}

export interface FileListing {
  /** Sorted by path. */
  files: ListedFile[];
  /** The file limit was reached; more files exist. */
  truncated: boolean;
  /** Some folders were deeper than the depth limit and were not listed. */
  depthLimited: boolean;
  /** Files and folders left out because a .gitignore says so. */
  ignoredEntries: number;
  /** Folders that could not be read, with why. */
  unreadableFolders: { path: string; error: string }[];
}

export interface ListFilesOptions {
  maxFiles?: number;
  maxDepth?: number;
  signal?: AbortSignal;
}

export const LIST_FILES_LIMITS = { maxFiles: 20_000, maxDepth: 32 } as const;

/** Never listed, whatever .gitignore says: version control internals and installed dependencies. */
const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

interface PendingFolder {
  path: string;
  depth: number;
  ignores: IgnoreStack;
}

export async function listFiles(root: string, options: ListFilesOptions = {}): Promise<ToolResult<FileListing>> {
  const maxFiles = options.maxFiles ?? LIST_FILES_LIMITS.maxFiles;
  const maxDepth = options.maxDepth ?? LIST_FILES_LIMITS.maxDepth;
  const listing: FileListing = { files: [], truncated: false, depthLimited: false, ignoredEntries: 0, unreadableFolders: [] };
  const rootIgnores = IgnoreStack.empty.with("", await readIgnoreRules(root, ".git/info/exclude"));
  // Breadth first, so that when the limit is hit the files near the top of the tree are the ones listed.
  const queue: PendingFolder[] = [{ path: "", depth: 0, ignores: rootIgnores }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (options.signal?.aborted) return failed("interrupted");
    const folder = next;
    const entries = await readFolder(path.join(root, folder.path));
    if (!entries.ok) {
      if (folder.path === "") return failed(`cannot list the workspace: ${entries.error}`);
      listing.unreadableFolders.push({ path: folder.path, error: entries.error });
      continue;
    }
    const ignores = folder.ignores.with(folder.path, await readIgnoreRules(root, folder.path === "" ? ".gitignore" : `${folder.path}/.gitignore`));
    for (const entry of entries.value) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const relative = folder.path === "" ? entry.name : `${folder.path}/${entry.name}`;
      const kind = await kindOf(path.join(root, relative), entry);
      if (kind === "other") continue;
      if (ignores.ignores(relative, kind === "folder")) {
        listing.ignoredEntries++;
        continue;
      }
      if (kind === "folder") {
        if (folder.depth + 1 > maxDepth) listing.depthLimited = true;
        else queue.push({ path: relative, depth: folder.depth + 1, ignores });
        continue;
      }
      if (listing.files.length >= maxFiles) {
        listing.truncated = true;
        break;
      }
      listing.files.push({ path: relative, size: await sizeOf(path.join(root, relative)) });
    }
    if (listing.truncated) break;
  }
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return succeeded(listing);
}

async function readFolder(folder: string): Promise<ToolResult<Dirent[]>> {
  try {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    return succeeded(entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
  } catch (error) {
    return failed(errorCode(error));
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

async function sizeOf(absolute: string): Promise<number> {
  try {
    return (await fs.stat(absolute)).size;
  } catch {
    return 0;
  }
}

/**
 * Read as ReadFile reads any file: a regular file inside the workspace (links resolved), at most 1 MB. Anything else
 * — a FIFO that would wait forever, a link to /dev/zero or out of the workspace — has no rules.
 */
async function readIgnoreRules(root: string, relative: string): Promise<IgnoreRules> {
  const file = await readFile(root, relative);
  return IgnoreRules.parse(file.ok && !file.value.binary ? file.value.text : "");
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : String(error);
}
