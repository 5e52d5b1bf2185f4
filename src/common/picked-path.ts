// How the @ picker writes a workspace path, so a file attached another way (dropped from the explorer, open in a tab)
// reads, and compares, as the picker's own entry.
import * as path from "node:path";

/** One folder: relative to it, with `/`, as the user reads it; several (or a path outside the one): absolute. */
export function pathAsPicked(file: string, roots: readonly string[]): string {
  if (roots.length !== 1) return file;
  const relative = path.relative(roots[0], file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join("/");
}
