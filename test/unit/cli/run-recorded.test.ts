// `agent-stream run --json -- <cli…>` turns any supported CLI's live output into a protocol-1 stream that
// `agent-stream check` accepts. The CLIs here replay real recorded runs: same stdout, stderr and exit.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli, repoRoot } from "../../helpers/repo";

for (const cli of ["claude", "pi"]) {
  const root = path.join(repoRoot, "test", "fixtures", `${cli}-recorded`);
  for (const version of fs.readdirSync(root).filter((name) => fs.statSync(path.join(root, name)).isDirectory())) {
    describe(`agent-stream run --json on recorded ${cli} ${version}`, function () {
      this.timeout(60_000);
      for (const file of fs.readdirSync(path.join(root, version)).filter((name) => /\.ndjson(\.gz)?$/.test(name))) {
        it(`${file}: a protocol-1 stream that check accepts`, async () => {
          const recording = path.join(root, version, file);
          const meta = JSON.parse(fs.readFileSync(recording.replace(/\.ndjson(\.gz)?$/, ".meta.json"), "utf8")) as { exitCode: number | null; signal: string | null };
          const live = await agentStream(["run", "--json", "--", process.execPath, fakeCli("replay-recording.js"), recording]);
          const events = live.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; payload: { exitCode?: number } });
          assert.equal(events[0]?.type, "start");
          assert.equal(events.filter((e) => e.type === "done").length, 1);
          const done = events.at(-1)!;
          assert.equal(done.type, "done");
          assert.equal(live.code, done.payload.exitCode, "run exits with its done's exit code");
          if (meta.exitCode !== null && meta.exitCode !== 0) assert.notEqual(done.payload.exitCode, 0, "a failed CLI does not become a success");
          const check = await agentStream(["check", "-"], { stdin: live.stdout });
          assert.equal(check.stdout, "", check.stdout);
          assert.equal(check.code, 0);
        });
      }
    });
  }
}

