// The agent's `fs/read_text_file` and `fs/write_text_file`, confined to the workspace folders. A path is judged by one
// function (confineToWorkspace) wherever it comes from — a read, a write, a permission request — and the file is then
// opened race-free (confined-file.ts), read only as far as asked and within a bound (line-range.ts), and every request
// ends by a deadline. Both hosts use this one class: the editor passes its open documents (unsaved changes, writes
// that Undo takes back); `agent-stream ask` has none.
import * as path from "node:path";
import { exists, identityInside, isInsideAny, nodeFileSystem, openToRead, sameIdentity, writeInside, type ConfinedTarget, type FileIdentity, type FileSystemCalls } from "./confined-file";
import { DEFAULT_FILE_DEADLINE_MS, withinDeadline } from "./file-deadline";
import { linesOfDocument, readLines, type DocumentLines } from "./line-range";

export interface WorkspaceFiles {
  /** `line` is 1-based; `limit` is a number of lines. Rejects when the path is refused or unreadable. */
  read(filePath: string, line?: number | null, limit?: number | null): Promise<string>;
  /** Creates missing files and folders inside the workspace. Rejects when the path is refused. */
  write(filePath: string, content: string): Promise<void>;
}

export type ConfinedPath = { ok: true; path: string } | { ok: false; reason: string };

/** Only the part of node:fs the confinement needs, so a host can pass its own (or a test its fakes). */
export interface PathResolver {
  realpath(target: string): Promise<string>;
  lstat(target: string): Promise<unknown>;
}

/**
 * Where `requested` really is, if that is inside one of `roots` once every symlink is resolved. Only an absolute path
 * can be placed: anything else (`src/a.ts`, `~/.bashrc`, a `file:` URI) counts as outside. For a file that does not
 * exist yet, the nearest existing ancestor is resolved and the missing rest appended; a dangling symlink on the way is
 * refused (writing through it would land wherever it points).
 */
export async function confineToWorkspace(
  requested: string,
  roots: readonly string[],
  resolver: PathResolver = nodeFileSystem,
): Promise<ConfinedPath> {
  if (roots.length === 0) return { ok: false, reason: "no workspace folder is open" };
  return confineToRealRoots(requested, await realPathsOf(roots, resolver), resolver);
}

/** Of `paths`, those `confineToWorkspace` refuses, in their order: what a permission request names outside. */
export async function outsideWorkspace(paths: readonly string[], roots: readonly string[], resolver: PathResolver = nodeFileSystem): Promise<string[]> {
  const judged = await Promise.all(paths.map(async (requested) => ((await confineToWorkspace(requested, roots, resolver)).ok ? [] : [requested])));
  return judged.flat();
}

async function confineToRealRoots(requested: string, realRoots: readonly string[], resolver: PathResolver): Promise<ConfinedPath> {
  if (requested.includes("\0")) return { ok: false, reason: "the path contains a NUL character" };
  if (!isPlaceable(requested)) return { ok: false, reason: `${requested} is not an absolute path, so it cannot be placed: it counts as outside the workspace folders` };
  const real = await realPathOfMaybeMissing(path.normalize(requested), resolver);
  if (!real.ok) return real;
  if (isInsideAny(real.path, realRoots)) return real;
  return { ok: false, reason: `${requested} is outside the workspace folders` };
}

/**
 * ACP paths are absolute; a relative one would be resolved wherever the client happens to be, not where the agent
 * meant. On Windows a path rooted without a drive (`\x`) is relative to the current drive, so it is not placed either.
 */
function isPlaceable(requested: string): boolean {
  return path.isAbsolute(requested) && path.parse(requested).root.length > (process.platform === "win32" ? 1 : 0);
}

function realPathsOf(roots: readonly string[], resolver: PathResolver): Promise<string[]> {
  return Promise.all(roots.map((root) => realPathOrSelf(root, resolver)));
}

async function realPathOrSelf(target: string, resolver: PathResolver): Promise<string> {
  try {
    return await resolver.realpath(target);
  } catch {
    return path.resolve(target);
  }
}

async function realPathOfMaybeMissing(absolute: string, resolver: PathResolver): Promise<ConfinedPath> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await resolver.realpath(current);
      return { ok: true, path: missing.length === 0 ? real : path.join(real, ...missing.reverse()) };
    } catch (error) {
      if (!isMissing(error)) return { ok: false, reason: `${absolute} cannot be resolved: ${describe(error)}` };
      if (await exists(current, resolver)) return { ok: false, reason: `${current} is a symlink to a place that does not exist` };
      const parent = path.dirname(current);
      if (parent === current) return { ok: false, reason: `${absolute} cannot be resolved` };
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The editor's open documents: a read sees their unsaved changes, a write to one is an edit Undo takes back. */
export interface OpenDocuments {
  /** The document open at `realPath`, if any. */
  find(realPath: string): DocumentLines | undefined;
  /**
   * Replaces the whole text of the existing file at `realPath` by an edit and saves it. `beforeSave` runs just before
   * the save and refuses it by rejecting. Rejects when the editor did not apply or save the edit.
   */
  replace(realPath: string, content: string, beforeSave: () => Promise<void>): Promise<void>;
}

export interface WorkspaceFilesOptions {
  /** The editor's documents; without them (`agent-stream ask`) reads and writes go to the disk alone. */
  documents?: OpenDocuments;
  /** How long one read or write may take before the agent is told it failed; default DEFAULT_FILE_DEADLINE_MS. */
  deadlineMs?: number;
  /** The file system calls made: a test's own, to act between them. */
  fileSystem?: FileSystemCalls;
}

/** The agent's files on disk, and through the editor's documents where a host has them. */
export class NodeWorkspaceFiles implements WorkspaceFiles {
  /** The folders' real paths, resolved once: a folder swapped for a symlink later does not move the workspace. */
  private realRoots: Promise<string[]> | undefined;

  constructor(
    private readonly roots: readonly string[],
    private readonly options: WorkspaceFilesOptions = {},
  ) {}

  read(filePath: string, line?: number | null, limit?: number | null): Promise<string> {
    return this.withinDeadline("read", filePath, async (signal) => {
      const target = await this.confine(filePath);
      const open = this.options.documents?.find(target.path);
      if (open !== undefined) return linesOfDocument(open, { line, limit }, filePath);
      const { file, size } = await openToRead(target, this.fileSystem);
      try {
        return await readLines(file, size, { line, limit }, filePath, signal);
      } finally {
        await file.close();
      }
    });
  }

  write(filePath: string, content: string): Promise<void> {
    return this.withinDeadline("write", filePath, async (signal) => {
      const target = await this.confine(filePath);
      const documents = this.options.documents;
      const existing = documents === undefined ? undefined : await identityInside(target, this.fileSystem);
      // A new file is created here, race-free; an existing one goes through the editor, so Undo works.
      if (documents === undefined || existing === undefined) return writeInside(target, content, this.fileSystem, signal);
      await documents.replace(target.path, content, () => this.checkUnchanged(target, existing));
      await this.checkSavedInside(target);
    });
  }

  private get fileSystem(): FileSystemCalls {
    return this.options.fileSystem ?? nodeFileSystem;
  }

  private withinDeadline<T>(what: "read" | "write", filePath: string, serve: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withinDeadline(`the ${what} of ${filePath}`, this.options.deadlineMs ?? DEFAULT_FILE_DEADLINE_MS, serve);
  }

  private async confine(filePath: string): Promise<ConfinedTarget> {
    if (this.roots.length === 0) throw new Error("no workspace folder is open");
    this.realRoots ??= realPathsOf(this.roots, this.fileSystem);
    const roots = await this.realRoots;
    const confined = await confineToRealRoots(filePath, roots, this.fileSystem);
    if (!confined.ok) throw new Error(confined.reason);
    return { requested: filePath, path: confined.path, roots };
  }

  /**
   * Just before the editor saves, the path must still lead to the file it led to when the write began: the editor
   * saves by path, so a folder swapped since would carry the save outside. The edit is then left unsaved.
   */
  private async checkUnchanged(target: ConfinedTarget, before: FileIdentity): Promise<void> {
    const now = await identityInside(target, this.fileSystem);
    if (now === undefined || !sameIdentity(now, before)) throw new Error(`${target.requested} was replaced while the editor edited it; the edit is left unsaved`);
  }

  /** After the save, the path must still lead inside: a folder swapped during the save and left so took it elsewhere. */
  private async checkSavedInside(target: ConfinedTarget): Promise<void> {
    try {
      if ((await identityInside(target, this.fileSystem)) !== undefined) return;
    } catch (error) {
      throw new Error(`${target.requested} changed while the editor saved it, so the save may have gone elsewhere: ${describe(error)}`);
    }
    throw new Error(`${target.requested} is gone after the editor saved it, so the save may have gone elsewhere`);
  }
}
