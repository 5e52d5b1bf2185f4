// `agent-stream run --json -- <cli…>` on the real, published Claude Code and pi (from the recording cache) against
// our mock model server on 127.0.0.1: their live output becomes a protocol-1 stream that `agent-stream check`
// accepts, with the tool card and the answer in it. No VS Code here: this is the command line CLI authors and
// scripts use.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { MockModelServer } from "../../scripts/recording/mock-model-server";
import { NOTES_FILE, NOTES_TEXT } from "../../scripts/recording/scenario-texts";
import { TranscriptSchema, type Transcript } from "../../src/protocol/transcript";
import { agentStream } from "../helpers/agent-stream-cli";
import type { CliStreamEvent } from "../../src/protocol/events";
import { CLAUDE, PI, READ_ANSWER, READ_PROMPT } from "./real-clis";

for (const cli of [CLAUDE, PI]) {
  describe(`agent-stream run --json on real ${cli.agent.name} ${cli.version}`, function () {
    this.timeout(600_000); // a first install from npm
    let mock: MockModelServer;
    let home: string;
    let workspace: string;
    let executable: string;

    before(async () => {
      executable = ensureInstalled(cli.agent, cli.version);
      mock = await MockModelServer.start();
      home = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-run-${cli.agent.name}-home-`));
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-run-${cli.agent.name}-workspace-`));
      fs.writeFileSync(path.join(workspace, NOTES_FILE), NOTES_TEXT);
      cli.agent.prepareHome({ home, workspace, port: mock.port }, { name: "run", description: "", args: () => [], replies: () => [] });
    });
    after(async () => {
      await mock?.stop();
      for (const folder of [home, workspace]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
    });

    it("prints a protocol-1 stream that check accepts, with the read tool's card and the answer", async () => {
      mock.script(cli.readThenAnswer(workspace));
      const env = cli.agent.env({ home, workspace, port: mock.port });
      const run = await agentStream(["run", "--json", "--dialect", "auto", "--", executable, ...cli.ownCommandLine(READ_PROMPT)], { cwd: workspace, env });
      assert.equal(run.code, 0, `run exits with the done's exit code 0; stderr:\n${run.stderr}`);

      const check = await agentStream(["check", "-"], { stdin: run.stdout });
      assert.equal(check.stdout, "", "check reports no problem");
      assert.equal(check.code, 0);

      const printed = await agentStream(["transcript", "--dialect", "locus", "--format", "json", "-"], { stdin: run.stdout });
      const transcript: Transcript = TranscriptSchema.parse(JSON.parse(printed.stdout));
      assert.equal(transcript.status, "completed");
      const tools = transcript.blocks.flatMap((b) => (b.kind === "tool" ? [`${b.tool}:${b.status}`] : []));
      assert.deepEqual(tools, [`${cli.readTool}:succeeded`]);
      const text = transcript.blocks.flatMap((b) => (b.kind === "text" ? [b.text] : [])).join("");
      assert.ok(text.includes(READ_ANSWER), `the answer is in the stream:\n${text}`);
      assert.equal(mock.requestLog.length, 2, "the CLI asked the model twice: the tool call, then the answer");
    });
  });
}

describe(`agent-stream ask --mode and --model on real Claude Code ${CLAUDE.version}`, function () {
  this.timeout(600_000); // a first install from npm
  let mock: MockModelServer;
  let home: string;
  let workspace: string;
  let executable: string;

  before(async () => {
    executable = ensureInstalled(CLAUDE.agent, CLAUDE.version);
    mock = await MockModelServer.start();
    home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-ask-claude-home-"));
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-ask-claude-workspace-"));
  });
  after(async () => {
    await mock?.stop();
    for (const folder of [home, workspace]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** The mode and model each turn's `start` says: what Claude's own init line reported. */
  async function startsOf(flags: string[]): Promise<[string | undefined, string | undefined][]> {
    mock.script([CLAUDE.shortAnswer(), CLAUDE.followUpAnswer()], CLAUDE.shortAnswer());
    const env = CLAUDE.agent.env({ home, workspace, port: mock.port });
    const args = ["ask", "--json", "--profile", "claude", "--cli", executable, "--cwd", workspace, "--approve", "reject", ...flags, "--", "Plan it.", "And then?"];
    const run = await agentStream(args, { cwd: workspace, env });
    assert.equal(run.code, 0, `ask exits 0; stderr:\n${run.stderr}`);
    const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as CliStreamEvent);
    return events.flatMap((event) => (event.type === "start" ? [[event.payload.mode, event.payload.model]] : []));
  }

  it("runs both turns in plan mode with the model chosen: Claude's init line says so at each turn", async () => {
    const starts = await startsOf(["--mode", "plan", "--model", "claude-sonnet-4-5"]);
    assert.deepEqual(starts, [
      ["plan", "claude-sonnet-4-5"],
      ["plan", "claude-sonnet-4-5"],
    ]);
  });

  it("runs in default, the mode that asks, without --mode, though Claude's own settings default to acceptEdits", async () => {
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    fs.writeFileSync(path.join(home, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }));
    const starts = await startsOf([]);
    assert.deepEqual(starts.map(([mode]) => mode), ["default", "default"]);
  });
});
