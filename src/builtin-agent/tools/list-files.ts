// ListFiles: every file of the workspace a person would call theirs — .gitignore honoured, .git and
// node_modules skipped, symlinked folders not followed, and bounded so a huge tree cannot stall the answer.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { walkWorkspace } from "../../workspace/workspace-tree";
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

export async function listFiles(root: string, options: ListFilesOptions = {}): Promise<ToolResult<FileListing>> {
  const walked = await walkWorkspace(root, {
    maxEntries: options.maxFiles ?? LIST_FILES_LIMITS.maxFiles,
    maxDepth: options.maxDepth ?? LIST_FILES_LIMITS.maxDepth,
    signal: options.signal,
    readIgnoreFile: (relative) => readIgnoreFile(root, relative),
  });
  if (!walked.ok) return failed(walked.error);
  const { entries, ...facts } = walked.tree;
  const files: ListedFile[] = [];
  for (const entry of entries) files.push({ path: entry.path, size: await sizeOf(path.join(root, entry.path)) });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return succeeded({ files, ...facts });
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
async function readIgnoreFile(root: string, relative: string): Promise<string> {
  const file = await readFile(root, relative);
  return file.ok && !file.value.binary ? file.value.text : "";
}
