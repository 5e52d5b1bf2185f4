// The @ picker on a 50,000-file workspace (issue 25: "bounded and fast … results as you type"): the walk it does
// once (ListFiles' rules: .gitignore read in every folder, symlinks checked) against Node's own recursive readdir of
// the same tree, and one keystroke's fuzzy match over every entry against a plain substring filter, in the same run.
// Run: npx tsc -p . && node out/bench/file-picker.bench.js
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FuzzyIndex } from "../src/workspace/fuzzy-match";
import { walkWorkspace, type TreeEntry } from "../src/workspace/workspace-tree";

const FOLDERS = 500;
const FILES_PER_FOLDER = 100;
const QUERIES = ["i", "idx", "p42modidx", "packages/p23/src/module-123/index-7.ts", "zzzz"];

async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "picker-bench-"));
  try {
    for (let folder = 0; folder < FOLDERS; folder++) {
      const dir = path.join(root, "packages", `p${folder % 50}`, "src", `module-${folder}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let file = 0; file < FILES_PER_FOLDER; file++) fs.writeFileSync(path.join(dir, `index-${file}.ts`), "");
    }
    fs.writeFileSync(path.join(root, ".gitignore"), "dist/\n*.log\n");
    const read = (relative: string) => fs.promises.readFile(path.join(root, relative), "utf8").catch(() => "");
    const baselineWalk = await timed(() => fs.promises.readdir(root, { recursive: true }));
    const walk = await timed(() => walkWorkspace(root, { maxEntries: 100_000, maxDepth: 32, folders: true, readIgnoreFile: read }));
    if (!walk.value.ok) throw new Error(walk.value.error);
    const entries: TreeEntry[] = walk.value.tree.entries;
    const index = await timed(() => new FuzzyIndex(entries));
    console.log(`index (each path lower-cased once): ${index.ms.toFixed(0)} ms`);
    console.log(`workspace: ${entries.length.toLocaleString("en-US")} files and folders`);
    console.log(`walk once: ${walk.ms.toFixed(0)} ms; Node's recursive readdir ${baselineWalk.ms.toFixed(0)} ms; ratio ${(walk.ms / baselineWalk.ms).toFixed(1)}×`);
    for (const query of QUERIES) {
      const baseline = await timed(() => entries.filter((entry) => entry.path.includes(query)).slice(0, 50));
      const picked = await timed(() => index.value.pick(new Set(), query, 50));
      console.log(`keystroke "${query}": fuzzy ${picked.ms.toFixed(1)} ms (${picked.value.length} shown); substring filter ${baseline.ms.toFixed(1)} ms; ratio ${(picked.ms / baseline.ms).toFixed(1)}×`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
