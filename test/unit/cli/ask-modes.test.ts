// `agent-stream ask` and an agent's session modes: the session runs in the agent's mode that asks first, unless
// --mode chose another; --model chooses the model. The ACP agent is test/fake-clis/fake-acp-modes-agent.mjs opening
// its sessions as Qwen Code 0.24.4 and codex-acp 2.6.0 did (in a mode that approves by itself), run by their profiles;
// Claude Code is test/fake-clis/fake-claude.js, whose init line names the mode and model it was started with.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CliStreamEvent } from "../../../src/protocol/events";
import { agentStream } from "../../helpers/agent-stream-cli";
import { openingSettings, type RecordedOpening } from "../../helpers/acp-openings";
import { fakeCli } from "../../helpers/repo";

const MODES_AGENT = fakeCli("fake-acp-modes-agent.mjs");

describe("agent-stream ask and the agent's session modes", function () {
  this.timeout(30_000);
  let workspace: string;
  let record: string;
  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ask-modes-")));
    record = path.join(workspace, "..", `${path.basename(workspace)}.record.ndjson`);
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  /** `ask --json` on the fake agent opening as `agent` did, with `agent`'s profile. */
  async function ask(agent: RecordedOpening, flags: string[]) {
    const profile = agent.split("/")[0] as string;
    const args = ["ask", "--json", "--profile", profile, "--cli", process.execPath, `--arg=${MODES_AGENT}`, "--cwd", workspace, ...flags, "--", "Write it."];
    const env = { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings(agent)), FAKE_ACP_RECORD: record };
    const run = await agentStream(args, { env });
    const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as CliStreamEvent);
    return { ...run, events };
  }
  const recorded = (key: string) =>
    fs.existsSync(record) ? fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).filter((fact) => key in fact) : [];
  const written = () => fs.existsSync(path.join(workspace, "written.txt"));

  it("asks before the write of an agent that opens its sessions in auto (Qwen Code 0.24.4), and --approve reject leaves the file unwritten", async () => {
    const run = await ask("qwen/0.24.4", ["--approve", "reject"]);
    assert.equal(run.code, 0, run.stderr);
    const answers = run.events.flatMap((e) => (e.type === "permission_answered" ? [e.payload.decision] : []));
    assert.deepEqual(answers, ["rejected"]);
    assert.deepEqual(recorded("prompt").map((fact) => fact.mode), ["default"]);
    assert.equal(written(), false);
  });

  it("runs in the mode --mode chose, and says the agent approves by itself in it", async () => {
    const run = await ask("qwen/0.24.4", ["--approve", "reject", "--mode", "auto-edit"]);
    assert.equal(run.code, 0, run.stderr);
    const notes = run.events.flatMap((e) => (e.type === "status" ? [e.payload.message] : []));
    assert.deepEqual(notes, ["The agent is in mode Auto Edit (auto-edit), in which it approves edits or commands by itself, without asking you."]);
    assert.deepEqual(recorded("prompt").map((fact) => fact.mode), ["auto-edit"]);
  });

  it("fails the turn for a --mode the agent does not offer, listing the ones it does, and sends no prompt", async () => {
    const run = await ask("codex/2.6.0", ["--approve", "reject", "--mode", "yolo"]);
    assert.equal(run.code, 1);
    const errors = run.events.flatMap((e) => (e.type === "error" ? [e.payload.error.message] : []));
    assert.deepEqual(errors, [
      'The agent has no mode yolo. It offers: read-only ("Read-only"), workspace-write ("Workspace access", approves its own actions), ' +
        'agent ("Auto review", approves its own actions), agent-full-access ("Full access", approves its own actions).',
    ]);
    assert.deepEqual(recorded("prompt"), []);
  });

  it("chooses the model --model names through the agent's model config option", async () => {
    const run = await ask("codex/2.6.0", ["--approve", "reject", "--model", "gpt-5.5"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(recorded("prompt").map((fact) => [fact.mode, fact.model]), [["read-only", "gpt-5.5"]]);
  });

  it("refuses --mode and --model for a stream CLI's profile that takes neither, and an empty one, before running anything", async () => {
    const stream = await agentStream(["ask", "--profile", "pi", "--mode", "plan", "--", "hi"]);
    assert.equal(stream.code, 2);
    assert.match(stream.stderr, /--mode is for ACP agents and Claude Code; profile pi takes neither/);
    const empty = await agentStream(["ask", "--profile", "qwen", "--model", "", "--", "hi"]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /--model is empty/);
  });

  describe("for Claude Code", () => {
    const FAKE_CLAUDE = fakeCli("fake-claude.js");
    /** `ask --json --profile claude` on the fake Claude, with Claude's own output flags kept and `flags` added. */
    async function askClaude(flags: string[], prompts = ["Plan it."]) {
      const args = ["ask", "--json", "--profile", "claude", "--cli", process.execPath, `--arg=${FAKE_CLAUDE}`, "--cwd", workspace, ...flags, "--", ...prompts];
      const run = await agentStream(args, { env: { ...process.env, FAKE_CLAUDE_RECORD: record } });
      const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as CliStreamEvent);
      const starts = events.flatMap((e) => (e.type === "start" ? [[e.payload.mode, e.payload.model]] : []));
      return { ...run, starts };
    }

    it("starts every turn in the mode and model --mode and --model name, as Claude's init line then says", async () => {
      const run = await askClaude(["--mode", "plan", "--model", "sonnet"], ["Plan it.", "And then?"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.starts, [["plan", "sonnet"], ["plan", "sonnet"]]);
      assert.deepEqual(recorded("args").map((fact) => (fact.args as string[]).slice(-4)), [["--permission-mode", "plan", "--model", "sonnet"], ["--permission-mode", "plan", "--model", "sonnet"]]);
    });

    it("starts Claude in default, the mode that asks, without --mode", async () => {
      const run = await askClaude([]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.starts, [["default", "claude-opus-5-5"]]);
    });

    it("refuses a mode Claude does not have, listing Claude's modes, before running anything", async () => {
      const run = await askClaude(["--mode", "yolo"]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /unknown mode "yolo"; the modes are default, acceptEdits \(approves its own actions\), plan, auto \(approves its own actions\), dontAsk, bypassPermissions \(approves its own actions\)/);
      assert.deepEqual(recorded("args"), []);
    });

    it("adds --extra-arg after Claude's own flags instead of replacing them", async () => {
      const args = ["ask", "--json", "--profile", "claude", "--cli", FAKE_CLAUDE, "--cwd", workspace, "--extra-arg=--allowedTools", "--extra-arg=Read", "--", "hi"];
      const run = await agentStream(args, { env: { ...process.env, FAKE_CLAUDE_RECORD: record } });
      assert.equal(run.code, 0, run.stderr);
      const [first] = recorded("args").map((fact) => fact.args as string[]);
      assert.deepEqual(first?.slice(0, 7), ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages", "--allowedTools", "Read"]);
    });
  });
});
