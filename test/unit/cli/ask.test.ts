// `agent-stream ask` end to end with real processes: the fake ACP agent and the fake Locus CLI, its NDJSON checked by
// `check` and read back by `transcript`.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Transcript, TranscriptBlock } from "../../../src/protocol/transcript";
import { isAlive } from "../../helpers/acp-harness";
import { eventually } from "../../helpers/eventually";
import { agentStream, finishAgentStream, startAgentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

const AGENT = fakeCli("fake-acp-agent.mjs");

/** `ask` running the fake ACP agent in `scenario`, as the generic `acp` profile runs any agent. */
function askAcpArgs(scenario: string, extra: string[], prompts: string[]): string[] {
  return ["ask", "--profile", "acp", "--cli", process.execPath, `--arg=${AGENT}`, `--arg=${scenario}`, ...extra, "--", ...prompts];
}

function tmpFile(name: string): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ask-test-")), name);
}

/** Writes the NDJSON to a file, checks it with `check`, and reads it back with `transcript`. */
async function readBack(ndjson: string): Promise<{ check: string; checkCode: number | null; transcript: Transcript }> {
  const file = tmpFile("run.ndjson");
  fs.writeFileSync(file, ndjson);
  const check = await agentStream(["check", file]);
  const transcript = await agentStream(["transcript", file]);
  assert.equal(transcript.code, 0, transcript.stderr);
  return { check: check.stdout, checkCode: check.code, transcript: JSON.parse(transcript.stdout) as Transcript };
}

function blocksOf<K extends TranscriptBlock["kind"]>(transcript: Transcript, kind: K): Extract<TranscriptBlock, { kind: K }>[] {
  return transcript.blocks.filter((block): block is Extract<TranscriptBlock, { kind: K }> => block.kind === kind);
}

describe("agent-stream ask", function () {
  this.timeout(30_000);

  it("writes every ACP update as NDJSON that check accepts and transcript reads back whole, as dialect acp", async () => {
    const r = await agentStream(askAcpArgs("all-updates", ["--json"], ["hello"]));
    assert.equal(r.code, 0, r.stderr);
    const { check, checkCode, transcript } = await readBack(r.stdout);
    assert.equal(checkCode, 0, check);
    assert.equal(transcript.dialect, "acp");
    assert.equal(transcript.status, "completed");
    assert.deepEqual(blocksOf(transcript, "text").map((b) => b.text), ["Hello world", "!"]);
    assert.deepEqual(blocksOf(transcript, "thinking").map((b) => b.text), ["thinking hard"]);
    const [tool] = blocksOf(transcript, "tool");
    assert.equal(tool.status, "succeeded");
    assert.equal(tool.toolKind, "edit");
    assert.equal(tool.title, "Edit src/a.ts");
    assert.equal(tool.output, "wrote 1 line");
    assert.deepEqual(tool.locations, [{ path: "src/a.ts", line: 1 }]);
    assert.deepEqual(blocksOf(transcript, "plan"), [
      {
        kind: "plan",
        entries: [
          { content: "Read the code", priority: "high", status: "completed" },
          { content: "Fix the bug", priority: "medium", status: "in_progress" },
        ],
      },
    ]);
    assert.equal(transcript.done.tokensUsed, 1200);
  });

  it("prints the turn's usage on a line of its own after the line scripts read, and carries it in --json and transcript", async () => {
    const printed = await agentStream(askAcpArgs("all-updates", [], ["hello"]));
    assert.equal(printed.code, 0, printed.stderr);
    // The fake agent says the session cost $0.01 and holds 1,200 of 200,000 tokens of context.
    assert.match(printed.stdout, /■ completed · exit 0 · [^\n]* · 1200 tokens\n {2}usage: \$0\.0100 · <1% of 200k context\n/);
    const json = await agentStream(askAcpArgs("all-updates", ["--json"], ["hello"]));
    const { transcript } = await readBack(json.stdout);
    assert.deepEqual(transcript.done.usage, { inputTokens: null, outputTokens: null, cacheReadTokens: null, cost: { amount: 0.01, currency: "USD" }, contextUsed: 1200, contextSize: 200000 });
  });

  it("prints the tokens an ACP agent counts in its answer to the prompt, as claude-agent-acp does", async () => {
    const usage = { inputTokens: 360, outputTokens: 17, cachedReadTokens: 0, cachedWriteTokens: 0, totalTokens: 377 };
    const printed = await agentStream(askAcpArgs("all-updates", [], ["hello"]), { env: { ...process.env, FAKE_ACP_PROMPT_USAGE: JSON.stringify(usage) } });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /\n {2}usage: 360 in · 17 out · \$0\.0100 · <1% of 200k context\n/);
  });

  it("keeps a tool's diffs while the agent still shows them", async () => {
    // The fake agent's last update replaces the diff with text output (ACP replaces content): the diff is in the
    // update before, so a stream cut there reads back with it.
    const r = await agentStream(askAcpArgs("all-updates", ["--json"], ["hello"]));
    const lines = r.stdout.trimEnd().split("\n");
    const cut = lines.findIndex((line) => line.includes('"status":"in_progress"'));
    const { transcript } = await readBack(lines.slice(0, cut + 1).join("\n") + "\n");
    assert.deepEqual(blocksOf(transcript, "tool")[0].diffs, [{ path: "src/a.ts", oldText: null, newText: "export const a = 1;\n" }]);
  });

  for (const [approve, decision, optionId, text] of [
    ["allow", "allowed", "proceed", "ran it"],
    ["reject", "rejected", "nope", "did not run it"],
  ] as const) {
    it(`answers a permission request with the agent's ${approve}-once option under --approve ${approve}`, async () => {
      const r = await agentStream(askAcpArgs("permission", ["--json", "--approve", approve], ["run the tests"]));
      assert.equal(r.code, 0, r.stderr);
      const { checkCode, check, transcript } = await readBack(r.stdout);
      assert.equal(checkCode, 0, check);
      const [permission] = blocksOf(transcript, "permission");
      assert.equal(permission.title, "Run npm test");
      assert.equal(permission.toolId, "p1");
      assert.deepEqual(permission.options.map((option) => option.kind), ["allow_always", "reject_once", "allow_once"]);
      assert.equal(permission.decision, decision);
      assert.equal(permission.optionId, optionId);
      assert.equal(permission.answeredBy, "setting");
      assert.deepEqual(blocksOf(transcript, "text").map((b) => b.text), [text]);
    });
  }

  it("rejects a permission request when there is no terminal to ask and no --approve", async () => {
    const r = await agentStream(askAcpArgs("permission", ["--json"], ["run the tests"]));
    const { transcript } = await readBack(r.stdout);
    const [permission] = blocksOf(transcript, "permission");
    assert.equal(permission.decision, "rejected");
    assert.equal(permission.optionId, "nope");
  });

  it("does not let --approve allow answer an edit of a file outside --cwd: cancelled, named, and nothing written there", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ask-outside-"));
    const workspace = path.join(root, "workspace");
    fs.mkdirSync(workspace);
    const r = await agentStream(askAcpArgs("permission-edit", ["--json", "--cwd", workspace, "--approve", "allow"], ["edit it"]), {
      env: { ...process.env, FAKE_ACP_EDIT: "../outside.txt" },
    });
    const { check, checkCode, transcript } = await readBack(r.stdout);
    assert.equal(checkCode, 0, check);
    const [permission] = blocksOf(transcript, "permission");
    assert.deepEqual([permission.decision, permission.outsideWorkspace], ["cancelled", ["../outside.txt"]]);
    assert.equal(fs.existsSync(path.join(root, "outside.txt")), false);
  });

  it("answers cancelled, unseen, a request that offers two options with one id, and says so on stderr, even under --approve allow", async () => {
    const record = tmpFile("record.ndjson");
    const options = [
      { optionId: "ok", name: "Allow once", kind: "allow_once" },
      { optionId: "ok", name: "Reject", kind: "reject_once" },
    ];
    const r = await agentStream(askAcpArgs("permission", ["--json", "--approve", "allow"], ["run the tests"]), {
      env: { ...process.env, FAKE_ACP_RECORD: record, FAKE_ACP_OPTIONS: JSON.stringify(options) },
    });
    assert.match(r.stderr, /^agent-stream: permission request about tool call "p1" offers two options with the id "ok"; answered cancelled, nobody asked$/m);
    assert.match(fs.readFileSync(record, "utf8"), /"permission":\{"outcome":"cancelled"\}/);
    const { transcript } = await readBack(r.stdout);
    assert.deepEqual(blocksOf(transcript, "permission"), [], "no card");
    assert.deepEqual(blocksOf(transcript, "text").map((b) => b.text), ["did not run it"]);
  });

  it("prints a permission request and its answer for a reader", async () => {
    const r = await agentStream(askAcpArgs("permission", ["--approve", "allow"], ["run the tests"]));
    assert.match(r.stdout, /\? Run npm test — Always allow \/ Reject \/ Allow once/);
    assert.match(r.stdout, /→ allowed \(Allow once\) by your setting/);
  });

  it("sends later prompts as follow-ups in the same session of the same process, and reads all turns back in order", async () => {
    const r = await agentStream(askAcpArgs("turns", ["--json"], ["one", "two"]));
    assert.equal(r.code, 0, r.stderr);
    const { checkCode, check, transcript } = await readBack(r.stdout);
    assert.equal(checkCode, 0, check);
    const texts = blocksOf(transcript, "text").map((b) => b.text);
    assert.equal(texts.length, 2);
    const [first, second] = texts.map((text) => /^turn (\d) in (\S+) pid (\d+)$/.exec(text));
    assert.ok(first && second, texts.join(" | "));
    assert.deepEqual([first[1], second[1]], ["1", "2"]);
    assert.equal(second[2], first[2], "same ACP session");
    assert.equal(second[3], first[3], "same process");
  });

  for (const reason of ["refusal", "max_tokens", "max_turn_requests"]) {
    it(`ends a turn the agent stopped with ${reason} as failed, with an error card that says so`, async () => {
      const r = await agentStream(askAcpArgs(`stop:${reason}`, ["--json"], ["hi"]));
      assert.equal(r.code, 1);
      const { transcript } = await readBack(r.stdout);
      assert.equal(transcript.status, "failed");
      assert.match(blocksOf(transcript, "error")[0]?.message ?? "", new RegExp(`stop reason: ${reason}`));
    });
  }

  it("ends a turn the agent stopped with cancelled as canceled", async () => {
    const r = await agentStream(askAcpArgs("stop:cancelled", ["--json"], ["hi"]));
    const { transcript } = await readBack(r.stdout);
    assert.equal(transcript.status, "canceled");
  });

  it("reports the agent's JSON-RPC error as the error it means", async () => {
    const r = await agentStream(askAcpArgs("error:401", ["--json"], ["hi"]));
    const { transcript } = await readBack(r.stdout);
    assert.equal(transcript.status, "failed");
    assert.equal(blocksOf(transcript, "error")[0]?.code, "AUTH_EXPIRED");
  });

  it("stops a turn in band on Ctrl-C: canceled, no later prompt, and no agent process left", async () => {
    const record = tmpFile("record.ndjson");
    const child = startAgentStream(askAcpArgs("slow", ["--json"], ["tick", "never sent"]), { env: { ...process.env, FAKE_ACP_RECORD: record } });
    const result = finishAgentStream(child);
    const agentPid = await eventually("the agent started its turn", () => {
      const started = fs.existsSync(record) ? /"slowStarted":(\d+)/.exec(fs.readFileSync(record, "utf8")) : null;
      return started ? Number(started[1]) : undefined;
    });
    child.kill("SIGINT");
    const r = await result;
    assert.equal(r.code, 130, r.stderr);
    const { transcript } = await readBack(r.stdout);
    assert.equal(transcript.status, "canceled");
    assert.equal(r.stdout.match(/"type":"start"/g)?.length, 1, "the second prompt was not sent");
    assert.match(fs.readFileSync(record, "utf8"), /"cancel":/, "stopped in band with session/cancel");
    await eventually("the agent process is gone", () => !isAlive(agentPid), 5000);
  });

  it("ends like a second Ctrl-C when its reader goes away (| head): no crash, no later prompt, no agent left", async () => {
    const record = tmpFile("record.ndjson");
    const child = startAgentStream(askAcpArgs("flood-text", ["--json"], ["flood", "never sent"]), { env: { ...process.env, FAKE_ACP_RECORD: record } });
    child.stdout!.once("data", () => child.stdout!.destroy());
    const result = finishAgentStream(child);
    const r = await result;
    assert.doesNotMatch(r.stderr, /internal error|EPIPE|Unhandled/, r.stderr);
    assert.notEqual(r.code, 70);
    const started = /"floodStarted":(\d+)/.exec(fs.readFileSync(record, "utf8"));
    assert.ok(started, "the agent started its turn");
    await eventually("the agent process is gone", () => !isAlive(Number(started[1])), 5000);
    assert.equal(fs.readFileSync(record, "utf8").match(/"prompt":/g)?.length, 1, "the second prompt was not sent");
  });

  it("runs a stream CLI through its profile, one run per prompt, and reads both turns back", async () => {
    const r = await agentStream(["ask", "--json", "--profile", "locus", "--cli", fakeCli("fake-locus.js"), "--", "first", "second"]);
    assert.equal(r.code, 0, r.stderr);
    const { checkCode, check, transcript } = await readBack(r.stdout);
    assert.equal(checkCode, 0, check);
    const texts = blocksOf(transcript, "text").map((b) => b.text);
    assert.deepEqual(texts.map((text) => text.startsWith("You asked: first") || text.startsWith("You asked: second")), [true, true]);
    assert.ok(texts[0].includes("first") && texts[1].includes("second"));
    assert.equal(blocksOf(transcript, "tool").length, 2);
    assert.equal(transcript.status, "completed");
  });

  it("fails an ACP turn the agent goes silent in after --timeout-ms, as a stream CLI's, with one done and the agent stopped", async () => {
    const record = tmpFile("record.ndjson");
    const r = await agentStream(askAcpArgs("silent", ["--json", "--timeout-ms", "1000"], ["go", "never sent"]), { env: { ...process.env, FAKE_ACP_RECORD: record } });
    assert.equal(r.code, 1, r.stderr);
    const { check, checkCode, transcript } = await readBack(r.stdout);
    assert.equal(checkCode, 0, check);
    assert.equal(transcript.status, "failed");
    // Each turn times out once: the follow-up runs in a new agent, which goes silent too.
    const timedOut = ["NETWORK_TIMEOUT", "The CLI produced no output for 1.0 s and was stopped. Retry, or raise the inactivity timeout."];
    assert.deepEqual(blocksOf(transcript, "error").map((b) => [b.code, b.message]), [timedOut, timedOut]);
    assert.equal(r.stdout.split("\n").filter((line) => line.includes('"type":"done"')).length, 2, "exactly one done per turn");
    // Counted as the agents start, not as they go silent: under load a start-up can take the whole timeout.
    const pids = fs.readFileSync(record, "utf8").trim().split("\n").flatMap((line) => {
      const fact = JSON.parse(line) as { agentStarted?: number };
      return fact.agentStarted === undefined ? [] : [fact.agentStarted];
    });
    assert.equal(new Set(pids).size, 2, "one agent per turn");
    assert.deepEqual(pids.filter(isAlive), [], "no silent agent left");
  });

  it("logs the run's ACP traffic (through the tee) so that transcript --dialect acp reads the same blocks as ask --json", async () => {
    const log = tmpFile("traffic.ndjson");
    const tee = fakeCli("acp-tee.js");
    const args = ["ask", "--json", "--profile", "acp", "--cli", process.execPath, `--arg=${tee}`, `--arg=${process.execPath}`, `--arg=${AGENT}`, "--arg=permission"];
    const live = await agentStream([...args, "--approve", "allow", "--", "first", "second"], { env: { ...process.env, ACP_TEE_LOG: log } });
    assert.equal(live.code, 0, live.stderr);
    const liveFile = tmpFile("ask.ndjson");
    fs.writeFileSync(liveFile, live.stdout);
    const replayed = await agentStream(["transcript", "--dialect", "acp", log, "--format", "json"]);
    const read = await agentStream(["transcript", liveFile, "--format", "json"]);
    assert.equal(replayed.code, 0, replayed.stderr);
    const fromLog = JSON.parse(replayed.stdout) as Transcript;
    const fromAsk = JSON.parse(read.stdout) as Transcript;
    // A replay's clock is its own, and the wire does not say who answered (the README of test/fixtures/acp-recorded).
    const comparable = (t: Transcript) => t.blocks.map((b) => ({ ...b, ...("durationMs" in b ? { durationMs: 0 } : {}), ...("answeredBy" in b ? { answeredBy: null } : {}) }));
    assert.deepEqual(comparable(fromLog), comparable(fromAsk));
    assert.deepEqual(blocksOf(fromLog, "permission").map((b) => [b.decision, b.optionId]), [["allowed", "proceed"], ["allowed", "proceed"]]);
    assert.deepEqual(blocksOf(fromLog, "text").map((b) => b.text), ["ran it", "ran it"]);
    assert.deepEqual([fromLog.dialect, fromLog.status, fromLog.problems], ["acp", "completed", []]);
  });

  it("refuses a command line it cannot run as written", async () => {
    const r = await agentStream(["ask", "--approve", "always", "--", "hi"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--approve must be ask, allow or reject/);
  });
});

describe("agent-stream run --json stopped by a signal", function () {
  this.timeout(30_000);

  it("reads back as canceled, not failed", async () => {
    const child = startAgentStream(["run", "--json", "--", fakeCli("fake-locus.js"), "exec", "--json-stream", "hi"], {
      env: { ...process.env, FAKE_SCENARIO: "slow" },
    });
    const result = finishAgentStream(child);
    // Wait for the run to be under way (its first text), then stop it.
    await new Promise<void>((resolve) => child.stdout?.on("data", (d: Buffer) => d.toString().includes("text_delta") && resolve()));
    child.kill("SIGINT");
    const r = await result;
    const { transcript } = await readBack(r.stdout);
    assert.equal(transcript.status, "canceled");
  });
});
