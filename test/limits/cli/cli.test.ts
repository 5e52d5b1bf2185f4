// The built `agent-stream` command (dist/cli.js) under a flood of output: a hundred thousand events, as a fast
// model's longest answers bring. The rest of its black-box tests are in test/unit/cli/cli.test.ts.
import * as assert from "node:assert/strict";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

const FAKE_LOCUS = fakeCli("fake-locus.js");

describe("agent-stream command line", () => {
  describe("run", () => {
    it("loses no delta of a flood of output", async () => {
      const deltas = 100_000;
      const r = await agentStream(["run", "--json", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "x"], {
        env: { ...process.env, NO_COLOR: "1", FAKE_SCENARIO: "flood", FAKE_DELTAS: String(deltas) },
      });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      assert.equal(lines.length, deltas + 2, "start, every delta, done");
      const text = lines.slice(1, -1).map((line) => (JSON.parse(line) as { payload: { content: string } }).payload.content);
      assert.equal(text[0], "1 ");
      assert.equal(text[deltas - 1], `${deltas} `);
      assert.equal(new Set(text).size, deltas, "no delta twice");
    });
  });
});
