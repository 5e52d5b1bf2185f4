// `agent-stream ask --profile claude --approve …` answers Claude Code's own permission requests as it answers an ACP
// agent's: a fake Claude replays Claude Code 2.1.330's recorded requests (test/fake-clis/fake-claude-permissions.js)
// and keeps every answer it got on stdin.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStreamEventSchema, type CliStreamEvent } from "../../../src/protocol/events";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli, repoRoot } from "../../helpers/repo";

const RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330");

describe("agent-stream ask --profile claude", function () {
  this.timeout(30_000);
  let workspace: string;
  let answers: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "ask-claude-permissions-"));
    fs.writeFileSync(path.join(workspace, "notes.txt"), "Remember: the build is green.\n");
    answers = path.join(workspace, "answers.ndjson");
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const ask = (approve: string) =>
    agentStream(["ask", "--json", "--profile", "claude", "--cli", fakeCli("fake-claude-permissions.js"), "--cwd", workspace, "--approve", approve, "--", "go"], {
      env: { ...process.env, FAKE_RECORDING: path.join(RECORDED, "permission-prompt.ndjson"), FAKE_ANSWERS: answers, FAKE_WORKSPACE: workspace },
    });
  const behaviors = () =>
    fs
      .readFileSync(answers, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { response: { response: { behavior: string } } }).response.response.behavior);
  const events = (stdout: string): CliStreamEvent[] => stdout.trim().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
  const decisions = (stdout: string) => events(stdout).flatMap((event) => (event.type === "permission_answered" ? [event.payload.decision] : []));

  it("allows under --approve allow every request inside the workspace, and refuses the Read of /etc/hostname outside it", async () => {
    const run = await ask("allow");
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(behaviors(), ["allow", "allow", "allow", "allow", "deny"]);
    assert.deepEqual(decisions(run.stdout), ["allowed", "allowed", "allowed", "allowed", "cancelled"]);
    const check = await agentStream(["check", "-"], { stdin: run.stdout });
    assert.equal(check.stdout, "", "check reports no problem");
  });

  it("refuses every request under --approve reject", async () => {
    const run = await ask("reject");
    assert.deepEqual(behaviors(), ["deny", "deny", "deny", "deny", "deny"]);
    assert.deepEqual(decisions(run.stdout), ["rejected", "rejected", "rejected", "rejected", "rejected"]);
  });

  it("shows an edit's diff before its request, as an ACP agent's", async () => {
    const run = await ask("reject");
    const all = events(run.stdout);
    const diffAt = all.findIndex((event) => event.type === "tool_updated" && event.payload.toolId === "toolu_mock_edit_02" && event.payload.diffs !== undefined);
    const askedAt = all.findIndex((event) => event.type === "permission_requested" && event.payload.toolId === "toolu_mock_edit_02");
    assert.ok(diffAt >= 0 && diffAt < askedAt, `the diff (${diffAt}) before the request (${askedAt})`);
    assert.equal(fs.readFileSync(path.join(workspace, "notes.txt"), "utf8"), "Remember: the build is green.\n");
  });
});
