// The adversarial suite: every path by which agent text reaches a regular expression of src/ (hostile-text-cases.ts),
// each given texts of a megabyte built against its patterns. Linear work on them takes milliseconds; the quadratic
// patterns these cases were written against took minutes to hours on the same texts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { HOSTILE_CHARS, assertQuickOnAsync } from "../../helpers/hostile-text";
import { HOSTILE_TEXT_CASES } from "./hostile-text-cases";
import { patternKey } from "./patterns-applied";

describe("regular expressions on agent text, given a megabyte built against them", () => {
  let applied: Record<string, string[]>;

  before(function () {
    this.timeout(60_000);
    const script = path.join(__dirname, "patterns-applied.js");
    applied = JSON.parse(execFileSync(process.execPath, [script], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })) as Record<string, string[]>;
  });

  for (const hostile of HOSTILE_TEXT_CASES) {
    describe(hostile.through, () => {
      it("applies every literal the case says it covers", () => {
        const seen = new Set(applied[hostile.through]);
        const missed = hostile.covers.flatMap((site) => (typeof site.pattern === "string" || seen.has(patternKey(site.pattern)) ? [] : [`${site.file} ${String(site.pattern)}`]));
        assert.deepEqual(missed, []);
      });

      for (const name of Object.keys(hostile.attacks(1))) {
        it(`takes ${name} in well under a second`, async () => {
          const text = hostile.attacks(HOSTILE_CHARS)[name];
          await assertQuickOnAsync(name, async () => hostile.run(text));
        });
      }
    });
  }
});
