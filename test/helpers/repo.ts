import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root, found from wherever the compiled test runs (out/test/...). */
export const repoRoot: string = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("package.json not found above " + __dirname);
    dir = parent;
  }
  return dir;
})();

/** Absolute path of a fake CLI script under test/fake-clis/. */
export function fakeCli(name: string): string {
  return path.join(repoRoot, "test", "fake-clis", name);
}

/**
 * Recordings of real CLIs that no dialect reads yet (issue 15). Some of their lines are meant to look like another
 * dialect's (Qwen Code's stream is Claude-shaped; Codex's top-level `{"type":"error","message"}` is shaped like
 * Locus's flat error), and telling them apart is the job of their own dialects: until those land, the checks that a
 * dialect "claims no line of the other dialects' fixtures" skip these folders. Remove a folder once its dialect exists.
 */
const RECORDINGS_AWAITING_A_DIALECT: readonly string[] = [];

export function awaitsItsDialect(fixture: string): boolean {
  const folder = path.relative(path.join(repoRoot, "test", "fixtures"), fixture).split(path.sep)[0] ?? "";
  return RECORDINGS_AWAITING_A_DIALECT.includes(folder);
}
