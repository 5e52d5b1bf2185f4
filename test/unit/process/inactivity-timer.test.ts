// A timeout longer than setTimeout can wait is off: armed anyway, Node fires it after 1 ms with a
// TimeoutOverflowWarning, and the timer re-arms itself every millisecond for the whole run.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { CliProcess, type CliExit } from "../../../src/process/cli-process";
import { fakeCli, repoRoot } from "../../helpers/repo";

describe("an inactivity timeout too long to time", () => {
  it("is off: the run ends as the CLI does, without a single TimeoutOverflowWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const stream = path.join(repoRoot, "test", "fixtures", "locus", "documented-session.ndjson");
      const exit = await new Promise<CliExit>((resolve) =>
        CliProcess.start(
          { command: process.execPath, args: [fakeCli("print-and-exit.js"), stream, "0"], cwd: repoRoot, inactivityTimeoutMs: 2 ** 32 },
          { onStdout: () => {}, onExit: resolve },
        ),
      );
      // A warning is emitted on the next tick after the setTimeout that caused it.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(exit.reason, "exited");
      assert.deepEqual(warnings.filter((name) => name === "TimeoutOverflowWarning"), []);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
