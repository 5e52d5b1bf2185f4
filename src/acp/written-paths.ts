// Paths as an agent's answer writes them (`src/auth.ts`, `/home/me/app/src/auth.ts`), placed in the workspace: the
// chat makes a path a link only when it names a regular file inside a workspace folder once every symlink is resolved
// (the same confinement an agent's file requests get), and opens nothing else. Lives beside that confinement.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { confineToWorkspace } from "./workspace-files";

/** Where `written` is, as a workspace file: absolute, or relative to one of `roots` (the first that has it). */
export async function workspaceFileOf(written: string, roots: readonly string[]): Promise<string | undefined> {
  if (written.includes("\0") || roots.length === 0) return undefined;
  const candidates = path.isAbsolute(written) ? [written] : roots.map((root) => path.resolve(root, written));
  for (const candidate of candidates) {
    const confined = await confineToWorkspace(candidate, roots);
    if (!confined.ok) continue;
    const stat = await fs.stat(confined.path).catch(() => undefined);
    if (stat?.isFile() === true) return confined.path;
  }
  return undefined;
}

/** Of `paths`, those that are workspace files, in their order. */
export async function workspaceFilesAmong(paths: readonly string[], roots: readonly string[]): Promise<string[]> {
  const placed = await Promise.all(paths.map(async (written) => ((await workspaceFileOf(written, roots)) === undefined ? [] : [written])));
  return placed.flat();
}
