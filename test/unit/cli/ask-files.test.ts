// `agent-stream ask` serving a hostile agent's file requests end to end (test/fake-clis/fake-acp-fs-agent.mjs): nothing
// an agent asks for can hold the run open or reach outside the workspace.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

interface Answer {
  ok: boolean;
  code?: number;
  message?: string;
  head?: string;
}

/** `ask` in `workspace` with an agent making `requests`, and its answers as the agent said them back. */
async function askWithRequests(workspace: string, requests: object[]): Promise<{ code: number | null; answers: Answer[]; stderr: string }> {
  const args = ["ask", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-fs-agent.mjs")}`, "--cwd", workspace, "--", "go"];
  const run = await agentStream(args, { env: { ...process.env, NO_COLOR: "1", FAKE_ACP_FS: JSON.stringify(requests) } });
  const answers = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Answer);
  return { code: run.code, answers, stderr: run.stderr };
}

describe("agent-stream ask serving an agent's file requests", function () {
  this.timeout(60_000);
  let workspace: string;

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ask-files-")));
    fs.writeFileSync(path.join(workspace, "a.txt"), "one\ntwo\nthree\n");
  });

  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it("refuses reads of a FIFO in the workspace, still serves the next read, and exits after its turn", async function () {
    if (process.platform === "win32") this.skip();
    const fifo = path.join(workspace, "pipe");
    execFileSync("mkfifo", [fifo]);
    const fifoReads = Array.from({ length: 5 }, () => ({ read: fifo }));
    const { code, answers, stderr } = await askWithRequests(workspace, [...fifoReads, { read: path.join(workspace, "a.txt"), line: 2, limit: 1 }]);
    assert.equal(code, 0, stderr);
    assert.equal(answers.length, 6, JSON.stringify(answers));
    for (const answer of answers.slice(0, 5)) assert.match(answer.message ?? "", /pipe is a FIFO \(named pipe\), not a regular file/);
    assert.deepEqual(answers[5], { ok: true, chars: 3, head: "two" });
  });

  it("refuses paths it cannot place, and writes nothing for them", async () => {
    const { code, answers, stderr } = await askWithRequests(workspace, [{ read: "a.txt" }, { write: "planted.txt", content: "x" }, { write: "~/.bashrc", content: "x" }]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(answers.map((answer) => answer.ok), [false, false, false]);
    for (const answer of answers) assert.match(answer.message ?? "", /is not an absolute path, so it cannot be placed: it counts as outside the workspace folders/);
    assert.deepEqual(fs.readdirSync(workspace), ["a.txt"]);
  });
});
