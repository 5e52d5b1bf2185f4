import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

describe("the Node bundles that ship", () => {
  for (const bundle of ["extension.js", "cli.js", "builtin-agent.js", "process-watchdog.js"]) {
    it(`read no navigator global, which VS Code's extension host reports as an error at each read: ${bundle}`, () => {
      const code = fs.readFileSync(path.join(repoRoot, "dist", bundle), "utf8");
      const reads = [...code.matchAll(/.{0,60}\bnavigator\b.{0,60}/g)].map((match) => match[0].trim());
      assert.deepEqual(reads, []);
    });
  }
});
