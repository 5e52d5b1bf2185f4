// The README's Node requirement (package.json engines.node) holds for every package `npm ci` installs: no
// dependency may need a newer Node than the project says is enough (npm then warns, or the tool breaks).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

// semver, a devDependency (no types are installed for it): only subset() is needed.
const semver = require("semver") as { subset(range: string, within: string): boolean };

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8")) as T;
}

describe("package.json: the Node versions the project declares", () => {
  const declared = readJson<{ engines: { node: string } }>("package.json").engines.node;

  it("is a range every locked dependency accepts", () => {
    // package-lock.json lists exactly what `npm ci` installs on a fresh clone, with each package's engines.
    const locked = readJson<{ packages: Record<string, LockedPackage> }>("package-lock.json").packages;
    const excluded = Object.entries(locked)
      .filter(([name]) => name !== "")
      .flatMap(([name, pkg]) => {
        const needs = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
        return needs !== undefined && !semver.subset(declared, needs) ? [`${name}@${pkg.version ?? "?"} needs node ${needs}`] : [];
      });
    assert.deepEqual(excluded, [], `package.json says node ${declared}`);
  });

  it("is what the README's Quick start tells users", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## In VS Code"));
    const minimums = [...declared.matchAll(/(\d+\.\d+)\.0/g)].map((match) => match[1]);
    for (const minimum of minimums) assert.ok(quickStart.includes(`Node ${minimum}`), `the Quick start does not name Node ${minimum}`);
  });
});
