// Adversarial lines on the live ACP path: a fake agent (the real SDK on its side) writes each kind mid-turn, and the
// turn must still end with exactly one `done`, the line must be reported where the user sees it (a MALFORMED_EVENT
// with its stdout line number), and nothing may hang or reach the terminal raw.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation } from "../../../src/acp/acp-conversation";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import type { CliStreamEvent } from "../../../src/protocol/events";
import type { Problem, Transcript } from "../../../src/protocol/transcript";
import { agentStream } from "../../helpers/agent-stream-cli";
import { cancellingDesk } from "../../helpers/acp-harness";
import { fakeCli } from "../../helpers/repo";

const AGENT = fakeCli("fake-acp-agent.mjs");
/** Anything a terminal acts on: C0 but tab and newline, DEL, C1, bidi controls. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

interface HostileCase {
  kind: string;
  /** What the turn's problems say, each with its stdout line number (the first hostile line is line 3). */
  problems: [number, RegExp][];
  /** How the turn ends; the agent's own answer, unless the hostile line was that answer. */
  status?: "completed" | "failed";
  /** The turn's text: the agent's words after the hostile line. */
  text?: string;
  env?: Record<string, string>;
}

const CASES: HostileCase[] = [
  { kind: "deep-tool", problems: [[3, /^nested deeper than 64 levels; skipped$/]] },
  { kind: "deep-permission", problems: [[3, /^nested deeper than 64 levels; skipped$/]] },
  { kind: "long", problems: [[3, /^line of 100\d{3} bytes \(97\.\d KiB\) is over the 64 KiB line size limit; skipped$/]], env: { FAKE_ACP_LINE_BYTES: "100000" } },
  { kind: "not-json", problems: [[3, /^not JSON: "\{\\"jsonrpc\\": \\"2\.0\\", \\"method\\": "$/]] },
  {
    kind: "not-rpc",
    problems: [
      [3, /^not a JSON-RPC 2\.0 message: "\{\\"hello\\":\\"world\\"\}"$/],
      [4, /^not a JSON-RPC 2\.0 message: "\[1,2,3\]"$/],
      [5, /^an answer to no request of ours \(id missing\); skipped$/],
    ],
  },
  {
    kind: "unknown-id",
    problems: [
      [3, /^an answer to no request of ours \(id "\\u001b\]52;c;aGFja2Vk\\u0007"\); skipped$/],
      [4, /^an answer to no request of ours \(id "\\u001b\[2J\\u001b\[H"\); skipped$/],
      [5, /^an answer to no request of ours \(id "\\u202eevil"\); skipped$/],
    ],
  },
  { kind: "binary", problems: [[3, /^not JSON: "\\u0000\\u001b\[2J/]] },
  { kind: "bom", problems: [], text: "after a BOM, still here" },
  {
    kind: "error-not-object",
    problems: [[3, /^not a JSON-RPC response \(a result, or an error with a code and a message\): /]],
    status: "failed",
    text: "",
  },
];

describe("a hostile ACP agent's lines", function () {
  this.timeout(30_000);

  describe("in the panel's conversation", () => {
    let workspace: string;
    let chat: AcpConversation | undefined;
    beforeEach(() => (workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-hostile-")))));
    afterEach(async () => {
      await chat?.dispose();
      chat = undefined;
      fs.rmSync(workspace, { recursive: true, force: true });
    });

    async function turn(kind: string, env: Record<string, string> = {}): Promise<{ transcript: Transcript; events: CliStreamEvent[] }> {
      chat = new AcpConversation({
        command: process.execPath,
        args: [AGENT, `hostile:${kind}`],
        env: { ...process.env, ...env },
        workspaceRoots: [workspace],
        files: new NodeWorkspaceFiles([workspace]),
        permissions: cancellingDesk([workspace]),
        // Small, so an over-long line costs the test nothing; the deep lines (10 KB) are within it.
        maxLineBytes: 64 * 1024,
      });
      const events: CliStreamEvent[] = [];
      const transcript = await chat.prompt([{ type: "text", text: "go" }], { onEvent: (event) => events.push(event) }).finished;
      return { transcript, events };
    }

    for (const { kind, problems, status = "completed", text = "still here", env } of CASES) {
      it(`ends a turn with a ${kind} line once, shows what the agent said after it, and reports the line as a problem of the turn`, async () => {
        const { transcript, events } = await turn(kind, env);
        assert.equal(events.filter((event) => event.type === "done").length, 1);
        assert.equal(transcript.status, status);
        const said = transcript.blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])).join("");
        assert.equal(said, text);
        assertProblems(transcript.problems, problems);
        const errors = events.flatMap((event) => (event.type === "error" && event.payload.error.code === "MALFORMED_EVENT" ? [event.payload.error] : []));
        assert.deepEqual(errors.map((error) => [error.recoverable, error.message.slice(0, error.message.indexOf(":"))]), problems.map(([line]) => [true, `line ${line}`]));
      });
    }
  });

  describe("through agent-stream ask --json", () => {
    function askArgs(kind: string): string[] {
      return ["ask", "--json", "--profile", "acp", "--cli", process.execPath, `--arg=${AGENT}`, `--arg=hostile:${kind}`, "--", "go"];
    }

    // The default line limit of 16 MiB: the fake agent's long line is just over it.
    for (const { kind, problems, status = "completed", env } of CASES) {
      const expected = kind === "long" ? [[3, /^line of 17825\d{3} bytes \(17 MiB\) is over the 16 MiB line size limit; skipped$/] as [number, RegExp]] : problems;
      it(`reports a ${kind} line as MALFORMED_EVENT with its line number, ends with one done, and prints nothing raw`, async () => {
        const r = await agentStream(askArgs(kind), { env: { ...process.env, ...(kind === "long" ? {} : env) } });
        const events = r.stdout.trim().split("\n").map((line) => JSON.parse(line) as CliStreamEvent);
        const done = events.filter((event) => event.type === "done");
        assert.equal(done.length, 1, r.stdout);
        assert.equal(done[0].type === "done" && done[0].payload.success, status === "completed", r.stderr);
        const malformed = events.flatMap((event) => (event.type === "error" && event.payload.error.code === "MALFORMED_EVENT" ? [event.payload.error.message] : []));
        assert.equal(malformed.length, expected.length, malformed.join("\n"));
        expected.forEach(([line, message], i) => {
          assert.ok(malformed[i].startsWith(`line ${line}: `), malformed[i]);
          assert.match(malformed[i].slice(`line ${line}: `.length), message);
        });
        assert.doesNotMatch(r.stderr, RAW_CONTROL, JSON.stringify(r.stderr));
        assert.doesNotMatch(r.stdout, RAW_CONTROL, "stdout is NDJSON with every control escaped");
      });
    }
  });
});

function assertProblems(actual: readonly Problem[], expected: readonly [number, RegExp][]): void {
  assert.deepEqual(
    actual.map((problem) => [problem.line, problem.code]),
    expected.map(([line]) => [line, "MALFORMED_EVENT"]),
    JSON.stringify(actual),
  );
  actual.forEach((problem, i) => assert.match(problem.message, expected[i][1]));
}
