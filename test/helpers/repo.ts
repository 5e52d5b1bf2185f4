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
