// The registry of agent CLIs is the one list: package.json's settings and the README's profile table must agree
// with it, so a CLI added in one place and forgotten in another fails here.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DIALECTS } from "../../../src/dialects/registry";
import { PROFILES, resolveProfile } from "../../../src/profiles/profile-registry";
import { manifestEnums } from "../../../scripts/sync-manifest";
import { repoRoot } from "../../helpers/repo";

interface Manifest {
  contributes: { configuration: { properties: Record<string, { enum?: string[]; enumDescriptions?: string[] }> } };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const dialectsDoc = fs.readFileSync(path.join(repoRoot, "docs", "dialects.md"), "utf8");

describe("the registries of agent CLIs and dialects", () => {
  for (const [key, expected] of Object.entries(manifestEnums())) {
    it(`gives package.json's ${key} exactly its names and descriptions (npm run sync-manifest writes them)`, () => {
      const setting = manifest.contributes.configuration.properties[key];
      assert.deepEqual(setting?.enum, [...expected.enum], `${key}: run npm run sync-manifest`);
      assert.deepEqual(setting?.enumDescriptions, [...expected.enumDescriptions], `${key}: run npm run sync-manifest`);
    });
  }

  it("has one row per profile in the README's profile table", () => {
    const missing = PROFILES.filter((profile) => !new RegExp(`^\\| \`${profile.name}\` \\|`, "m").test(readme)).map((p) => p.name);
    assert.deepEqual(missing, []);
  });

  it("has one row per dialect in docs/dialects.md's table, and names each in the README", () => {
    const missingRow = DIALECTS.filter((dialect) => !new RegExp(`^\\| \`${dialect.name}\` \\|`, "m").test(dialectsDoc)).map((d) => d.name);
    assert.deepEqual(missingRow, []);
    const unnamed = DIALECTS.filter((dialect) => !readme.includes(`\`${dialect.name}\``)).map((d) => d.name);
    assert.deepEqual(unnamed, []);
  });

  it("gives every dialect a unique name", () => {
    const names = DIALECTS.map((dialect) => dialect.name);
    assert.equal(new Set(names).size, names.length);
  });

  it("gives every profile a unique name and command names no other profile claims, so auto is unambiguous", () => {
    const names = PROFILES.map((profile) => profile.name);
    assert.equal(new Set(names).size, names.length);
    const commands = PROFILES.flatMap((profile) => profile.commandNames);
    assert.equal(new Set(commands).size, commands.length);
    for (const profile of PROFILES) {
      for (const command of profile.commandNames) assert.equal(resolveProfile("auto", `/usr/local/bin/${command}`).name, profile.name);
    }
  });
});
