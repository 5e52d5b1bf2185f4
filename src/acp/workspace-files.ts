// The agent's `fs/read_text_file` and `fs/write_text_file`, confined to the workspace folders. The confinement is
// one function every implementation calls (plain Node here; VS Code's documents and WorkspaceEdit in the editor),
// so a path is judged the same way wherever the files are read from.
import { promises as fs } from "node:fs";
import * as path from "node:path";

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

const nodeResolver: PathResolver = { realpath: (target) => fs.realpath(target), lstat: (target) => fs.lstat(target) };

/**
 * Where `requested` really is, if that is inside one of `roots` once every symlink is resolved. Only an absolute path
 * can be placed: anything else (`src/a.ts`, `~/.bashrc`, a `file:` URI) counts as outside. For a file that does not
 * exist yet, the nearest existing ancestor is resolved and the missing rest appended; a dangling symlink on the way is
 * refused (writing through it would land wherever it points).
 */
export async function confineToWorkspace(
  requested: string,
  roots: readonly string[],
  resolver: PathResolver = nodeResolver,
): Promise<ConfinedPath> {
  if (roots.length === 0) return { ok: false, reason: "no workspace folder is open" };
  if (requested.includes("\0")) return { ok: false, reason: "the path contains a NUL character" };
  if (!isPlaceable(requested)) return { ok: false, reason: `${requested} is not an absolute path, so it cannot be placed: it counts as outside the workspace folders` };
  const real = await realPathOfMaybeMissing(path.normalize(requested), resolver);
  if (!real.ok) return real;
  for (const root of roots) {
    const realRoot = await realPathOrSelf(root, resolver);
    if (isInside(real.path, realRoot)) return real;
  }
  return { ok: false, reason: `${requested} is outside the workspace folders` };
}

/** Of `paths`, those `confineToWorkspace` refuses, in their order: what a permission request names outside. */
export async function outsideWorkspace(paths: readonly string[], roots: readonly string[], resolver: PathResolver = nodeResolver): Promise<string[]> {
  const judged = await Promise.all(paths.map(async (requested) => ((await confineToWorkspace(requested, roots, resolver)).ok ? [] : [requested])));
  return judged.flat();
}

/**
 * ACP paths are absolute; a relative one would be resolved wherever the client happens to be, not where the agent
 * meant. On Windows a path rooted without a drive (`\x`) is relative to the current drive, so it is not placed either.
 */
function isPlaceable(requested: string): boolean {
  return path.isAbsolute(requested) && path.parse(requested).root.length > (process.platform === "win32" ? 1 : 0);
}

function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
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

/** lstat sees the link itself: true for a dangling symlink, whose realpath fails as if it were missing. */
async function exists(target: string, resolver: PathResolver): Promise<boolean> {
  try {
    await resolver.lstat(target);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The requested lines of a text: from `line` (1-based), at most `limit` of them. */
export function selectLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join("\n");
}

/** Plain files on disk, for `agent-stream ask` and the tests; the editor has its own with unsaved changes and Undo. */
export class NodeWorkspaceFiles implements WorkspaceFiles {
  constructor(private readonly roots: readonly string[]) {}

  async read(filePath: string, line?: number | null, limit?: number | null): Promise<string> {
    const target = await this.confine(filePath);
    return selectLines(await fs.readFile(target, "utf8"), line, limit);
  }

  async write(filePath: string, content: string): Promise<void> {
    const target = await this.confine(filePath);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content, "utf8");
  }

  private async confine(filePath: string): Promise<string> {
    const confined = await confineToWorkspace(filePath, this.roots);
    if (!confined.ok) throw new Error(confined.reason);
    return confined.path;
  }
}
