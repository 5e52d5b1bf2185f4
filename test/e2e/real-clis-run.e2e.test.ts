// `agent-stream run --json -- <cli…>` on the real, published Claude Code and pi (from the recording cache) against
// our mock model server on 127.0.0.1: their live output becomes a protocol-1 stream that `agent-stream check`
// accepts, with the tool card and the answer in it. No VS Code here: this is the command line CLI authors and
// scripts use.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { openaiStream } from "../../scripts/recording/openai-replies";
import { piCli } from "../../scripts/recording/pi-cli";
import type { AgentCli } from "../../scripts/recording/scenario";
import { NOTES_FILE, NOTES_TEXT, TOOL_ANSWER_CHUNKS, TOOL_INTRO_CHUNKS } from "../../scripts/recording/scenario-texts";
import { TranscriptSchema, type Transcript } from "../../src/protocol/transcript";
import { repoRoot } from "../helpers/repo";

const AGENT_STREAM = path.join(repoRoot, "dist", "cli.js");
const PROMPT = `Read ${NOTES_FILE} and tell me what it says.`;
const ANSWER = TOOL_ANSWER_CHUNKS.join("");

interface Case {
  readonly agent: AgentCli;
  readonly version: string;
  readonly dialect: string;
  readonly readTool: string;
  /** The CLI's own arguments for a one-shot JSON run of the prompt. */
  readonly args: (prompt: string) => string[];
  readonly replies: (workspace: string) => MockReply[];
}

const CASES: readonly Case[] = [
  {
    agent: claudeCli,
    version: "2.1.330",
    dialect: "claude",
    readTool: "Read",
    args: (prompt) => [...claudeCli.commonArgs, "--allowedTools", "Read", "--", prompt],
    replies: (workspace) => [
      anthropicStream({
        blocks: [
          { type: "text", chunks: TOOL_INTRO_CHUNKS },
          { type: "tool_use", id: "toolu_run_read_01", name: "Read", input: { file_path: path.join(workspace, NOTES_FILE) } },
        ],
        stopReason: "tool_use",
      }),
      anthropicStream({ blocks: [{ type: "text", chunks: TOOL_ANSWER_CHUNKS }], stopReason: "end_turn" }),
    ],
  },
  {
    agent: piCli,
    version: "0.73.1",
    dialect: "pi",
    readTool: "read",
    args: (prompt) => ["--mode", "json", ...piCli.commonArgs, "--model", "mock-model", prompt],
    replies: () => [
      openaiStream({ content: TOOL_INTRO_CHUNKS, toolCalls: [{ id: "call_run_read_01", name: "read", arguments: { path: NOTES_FILE } }], finishReason: "tool_calls" }),
      openaiStream({ content: TOOL_ANSWER_CHUNKS, finishReason: "stop" }),
    ],
  },
];

async function agentStream(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [AGENT_STREAM, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.end(options.stdin);
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

for (const testCase of CASES) {
  describe(`agent-stream run --json on real ${testCase.agent.name} ${testCase.version}`, function () {
    this.timeout(600_000); // a first install from npm
    let mock: MockModelServer;
    let home: string;
    let workspace: string;
    let executable: string;

    before(async () => {
      executable = ensureInstalled(testCase.agent, testCase.version);
      mock = await MockModelServer.start();
      home = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-run-${testCase.agent.name}-home-`));
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-run-${testCase.agent.name}-workspace-`));
      fs.writeFileSync(path.join(workspace, NOTES_FILE), NOTES_TEXT);
      testCase.agent.prepareHome({ home, workspace, port: mock.port }, { name: "run", description: "", args: () => [], replies: () => [] });
    });
    after(async () => {
      await mock?.stop();
      for (const folder of [home, workspace]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
    });

    it("prints a protocol-1 stream that check accepts, with the read tool's card and the answer", async () => {
      mock.script(testCase.replies(workspace));
      const env = testCase.agent.env({ home, workspace, port: mock.port });
      const run = await agentStream(["run", "--json", "--dialect", "auto", "--", executable, ...testCase.args(PROMPT)], { cwd: workspace, env });
      assert.equal(run.code, 0, `run exits with the done's exit code 0; stderr:\n${run.stderr}`);

      const check = await agentStream(["check", "-"], { stdin: run.stdout });
      assert.equal(check.stdout, "", "check reports no problem");
      assert.equal(check.code, 0);

      const printed = await agentStream(["transcript", "--dialect", "locus", "--format", "json", "-"], { stdin: run.stdout });
      const transcript: Transcript = TranscriptSchema.parse(JSON.parse(printed.stdout));
      assert.equal(transcript.status, "completed");
      const tools = transcript.blocks.flatMap((b) => (b.kind === "tool" ? [`${b.tool}:${b.status}`] : []));
      assert.deepEqual(tools, [`${testCase.readTool}:succeeded`]);
      const text = transcript.blocks.flatMap((b) => (b.kind === "text" ? [b.text] : [])).join("");
      assert.ok(text.includes(ANSWER), `the answer is in the stream:\n${text}`);
      assert.equal(mock.requestLog.length, 2, "the CLI asked the model twice: the tool call, then the answer");
    });
  });
}
