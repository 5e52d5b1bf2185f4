// Black-box tests of the built `agent-stream` command (dist/cli.js), as a script author would use it.
import * as assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import * as path from "node:path";
import { Readable } from "node:stream";
import { TranscriptSchema } from "../../../src/protocol/transcript";
import { CliStreamEventSchema, type CliStreamEvent } from "../../../src/protocol/events";
import { createAdapter } from "../../../src/dialects/registry";
import { replayStream } from "../../../src/session/replay";
import { DEFAULT_MAX_LINE_BYTES } from "../../../src/stream/line-reader";
import { finishAgentStream, startAgentStream, type AgentStreamResult } from "../../helpers/agent-stream-cli";
import { HOSTILE_CLI, assertNoRawControl, hostileStream } from "../../helpers/hostile-stream";
import { fakeCli, repoRoot } from "../../helpers/repo";

const FIXTURES = path.join(repoRoot, "test", "fixtures", "locus");
const FAKE_LOCUS = fakeCli("fake-locus.js");

/** What hostile-locus.js hides in every text it controls, as a person reading the output must see it. */
const HOSTILE_VISIBLE = [
  "\\x9b31mred",
  "\\u202eevil\\u202c",
  "\\u2028",
  "\\x1b]52;c;cm0gLXJmIH4=\\x07",
  "\\x1b]8;;https://evil.example/\\x07link\\x1b]8;;\\x07",
  "\\x1b[2J",
  "\\x1b]0;pwned\\x07",
  "\\x1b[1;31mbold red",
  "\\rforged",
].join("|");

/** `env` adds to this process's environment. */
function startCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return startAgentStream(args, { env: { ...process.env, NO_COLOR: "1", ...env } });
}

function agentStream(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<AgentStreamResult> {
  return finishAgentStream(startCli(args, options.env), options.stdin);
}

/** Resolves once stdout contains `text`; the child keeps running. */
function waitForOutput(child: ChildProcess, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (d: Buffer) => {
      seen += d.toString("utf8");
      if (seen.includes(text)) {
        child.stdout!.off("data", onData);
        resolve(seen);
      }
    };
    child.stdout!.on("data", onData);
    child.once("close", () => reject(new Error(`exited before printing ${JSON.stringify(text)}; printed ${JSON.stringify(seen)}`)));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("agent-stream command line", () => {
  describe("check", () => {
    it("exits 0 and prints nothing for a valid stream", async () => {
      const r = await agentStream(["check", path.join(FIXTURES, "documented-session.ndjson")]);
      assert.equal(r.stdout, "");
      assert.equal(r.code, 0);
    });

    it("prints one line per problem with its line number and code, and exits 1", async () => {
      const r = await agentStream(["check", path.join(FIXTURES, "bad-lines.ndjson")]);
      assert.equal(r.code, 1);
      assert.deepEqual(r.stdout.trimEnd().split("\n"), [
        'line 2: MALFORMED_EVENT not JSON: "this is not json"',
        'line 5: UNKNOWN_EVENT_TYPE unknown event type "telemetry" skipped',
        "line 6: MALFORMED_EVENT payload.exitCode: expected number, got string",
        "line 8: OUT_OF_ORDER text_delta after done ignored",
      ]);
    });

    it("reads standard input when given -", async () => {
      const r = await agentStream(["check", "-"], { stdin: '{"protocol":1,"type":"start","sessionId":"s","timestamp":1,"payload":{"command":"exec"}}\n' });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "end of stream: MISSING_DONE stream ended without a done event\n");
    });

    it("exits 2 with a clear message for a file that does not exist", async () => {
      const r = await agentStream(["check", "/nonexistent/stream.ndjson"]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /cannot read \/nonexistent\/stream\.ndjson: ENOENT/);
    });

    it("exits 2 with usage for an unknown command", async () => {
      const r = await agentStream(["chekc"]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /unknown command "chekc"/);
      assert.match(r.stderr, /Usage:/);
    });
  });

  describe("transcript", () => {
    it("prints the documented JSON shape for a whole session", async () => {
      const r = await agentStream(["transcript", path.join(FIXTURES, "documented-session.ndjson")]);
      assert.equal(r.code, 0);
      const transcript: unknown = JSON.parse(r.stdout);
      assert.deepEqual(transcript, TranscriptSchema.parse(transcript), "no keys beyond the documented ones");
      assert.deepEqual(transcript, {
        sessionId: "3b241101-e2bb-4255-8caf-4136c566a962",
        dialect: "locus",
        status: "completed",
        blocks: [
          { kind: "status", status: "streaming", message: "Streaming AI response" },
          { kind: "thinking", text: "Let me analyze the auth middleware..." },
          { kind: "tool", tool: "Read", toolId: "toolu_abc123", parameters: { file_path: "/src/auth/middleware.ts" }, status: "succeeded", durationMs: 42, error: null, toolKind: null, title: null, output: null, diffs: [], locations: [] },
          { kind: "tool", tool: "Read", toolId: "toolu_def456", parameters: { file_path: "/src/auth/missing.ts" }, status: "failed", durationMs: 5, error: "File not found", toolKind: null, title: null, output: null, diffs: [], locations: [] },
          { kind: "text", text: "The authentication flow works by checking the **session token** 🔐." },
        ],
        done: { exitCode: 0, durationMs: 12345, toolsUsed: ["Read"], tokensUsed: 1873, success: true, synthesized: false, usage: null },
        problems: [],
      });
    });

    it("lists problems in the JSON and keeps every good event", async () => {
      const r = await agentStream(["transcript", path.join(FIXTURES, "bad-lines.ndjson")]);
      const t = TranscriptSchema.parse(JSON.parse(r.stdout));
      assert.deepEqual(t.blocks, [{ kind: "text", text: "kept" }]);
      assert.deepEqual(t.problems.map((p) => [p.line, p.code]), [[2, "MALFORMED_EVENT"], [5, "UNKNOWN_EVENT_TYPE"], [6, "MALFORMED_EVENT"], [8, "OUT_OF_ORDER"]]);
      assert.equal(t.done.durationMs, 4);
    });

    it("prints a readable markdown transcript", async () => {
      const r = await agentStream(["transcript", path.join(FIXTURES, "documented-session.ndjson"), "--format", "markdown"]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /The authentication flow works by checking the \*\*session token\*\* 🔐\./);
      assert.match(r.stdout, /✓ \*\*Read\*\* `\/src\/auth\/middleware\.ts` succeeded \(42 ms\)/);
      assert.match(r.stdout, /✗ \*\*Read\*\* `\/src\/auth\/missing\.ts` failed \(5 ms\) — File not found/);
      assert.match(r.stdout, /\*\*Done:\*\* succeeded · exit code 0 · 12\.3 s · tools: Read · 1873 tokens/);
    });

    it("shows each turn's usage under its answer in markdown, in the words of the chat's footer", async () => {
      const log = path.join(repoRoot, "test", "fixtures", "acp-recorded", "claude-acp", "0.101.0", "follow-up.ndjson");
      const r = await agentStream(["transcript", "--dialect", "acp", log, "--format", "markdown"]);
      assert.equal(r.code, 0, r.stderr);
      // claude-agent-acp's answers count 120 tokens in and 2 out; its usage_updates say the session's cost and context.
      assert.ok(
        r.stdout.includes(
          "Hi! I will keep that word in mind.\n\n_120 in · 2 out · $0.0005 · <1% of 1M context_\n\nYou asked me to remember kumquat.\n\n_120 in · 2 out · $0.0010 · <1% of 1M context_\n\n---",
        ),
        r.stdout,
      );
    });

    it("shows no usage line in markdown for a turn whose agent said none", async () => {
      const r = await agentStream(["transcript", path.join(FIXTURES, "documented-session.ndjson"), "--format", "markdown"]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /^_.* (in|out|context)_$/m);
    });

    it("shows what a real agent's edit wrote, and what a rejected one would have, in a replayed ACP log's markdown", async () => {
      const markdownOf = async (agent: string, log: string) => {
        const r = await agentStream(["transcript", "--dialect", "acp", path.join(repoRoot, "test", "fixtures", "acp-recorded", agent, `${log}.ndjson`), "--format", "markdown"]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      const written = "```diff\n+ # Todo\n+ \n+ - fix the build\n```";
      // Qwen Code names the written file relative to the workspace in its diff, and never finishes a rejected call.
      const qwenAllowed = await markdownOf("qwen/0.15.10", "write-allowed");
      assert.ok(qwenAllowed.includes(`✓ **edit** \`Writing to todo.md\` succeeded`), qwenAllowed);
      assert.ok(qwenAllowed.includes(`\`todo.md\` (+3 −0)\n\n${written}`), qwenAllowed);
      assert.ok(qwenAllowed.includes("🔐 **Permission:** Writing to todo.md — allowed (Allow)"), qwenAllowed);
      const qwenRejected = await markdownOf("qwen/0.15.10", "write-rejected");
      assert.ok(qwenRejected.includes("⊘ **edit** `Writing to todo.md` abandoned"), qwenRejected);
      assert.ok(qwenRejected.includes(`\`/workspace/todo.md\` (+3 −0, proposed)\n\n${written}`), qwenRejected);
      assert.ok(qwenRejected.includes("— rejected (Reject)"), qwenRejected);
      // claude-agent-acp says the file is new, and after a rejection replaces the call's content with its refusal: the
      // card keeps the diff it asked about.
      const claudeAllowed = await markdownOf("claude-acp/0.23.1", "write-allowed");
      assert.ok(claudeAllowed.includes(`✓ **edit** \`Write todo.md\` succeeded`), claudeAllowed);
      assert.ok(claudeAllowed.includes(`\`/workspace/todo.md\` (new file, +3)\n\n${written}`), claudeAllowed);
      const claudeRejected = await markdownOf("claude-acp/0.23.1", "write-rejected");
      assert.ok(claudeRejected.includes("✗ **edit** `Write todo.md` failed"), claudeRejected);
      assert.ok(claudeRejected.includes(`\`/workspace/todo.md\` (new file, +3, proposed)\n\n${written}`), claudeRejected);
      assert.ok(claudeRejected.includes("🔐 **Permission:** Write todo.md — rejected (Reject)"), claudeRejected);
    });

    it("prints the transcript of a Codex stream with a 400 KB line built against its reconnect check within seconds", async () => {
      // Blanks between a reconnect's count and other words: the check once retried them in pairs, three minutes' work.
      const message = `Reconnecting... 1/1${" ".repeat(400_000)}then gave up`;
      const stream = [{ type: "thread.started", thread_id: "t" }, { type: "turn.started" }, { type: "error", message }, { type: "turn.failed" }];
      const started = Date.now();
      const r = await agentStream(["transcript", "--dialect", "codex", "--format", "markdown", "-"], { stdin: stream.map((line) => JSON.stringify(line)).join("\n") + "\n" });
      const tookMs = Date.now() - started;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^> \*\*Error UNKNOWN\*\*: Reconnecting\.\.\. 1\/1 + … \([\d,]+ more characters not kept\)$/m);
      assert.ok(tookMs < 10_000, `took ${tookMs} ms`);
    });

    it("rejects an unknown format", async () => {
      const r = await agentStream(["transcript", "--format", "yaml", path.join(FIXTURES, "documented-session.ndjson")]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--format must be json or markdown/);
    });
  });

  describe("run", () => {
    it("prints normalized protocol-1 NDJSON that check accepts, and exits with done's code", async () => {
      const r = await agentStream(["run", "--json", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "hello"]);
      assert.equal(r.code, 0, r.stderr);
      const events = r.stdout.trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      assert.deepEqual(events.map((e) => e.type), ["start", "thinking", "tool_started", "tool_completed", "text_delta", "text_delta", "text_delta", "text_delta", "done"]);
      const check = await agentStream(["check", "-"], { stdin: r.stdout });
      assert.equal(check.stdout, "");
      assert.equal(check.code, 0);
    });

    it("passes a prompt that looks like flags and shell syntax through as one argument", async () => {
      const prompt = `--help; rm -rf ~ $(whoami) "q" 'x' | cat`;
      const r = await agentStream(["run", "--json", "--", FAKE_LOCUS, "exec", "--json-stream", "--", prompt]);
      const text = r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => CliStreamEventSchema.parse(JSON.parse(line)))
        .flatMap((e) => (e.type === "text_delta" ? [e.payload.content] : []))
        .join("");
      assert.equal(text, `You asked: ${prompt}\n\nDone ✅ 完了`);
    });

    it("prints a readable live view by default", async () => {
      const r = await agentStream(["run", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "hi"]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /▶ Read README\.md\n✓ Read \(5 ms\)/);
      assert.match(r.stdout, /You asked: hi\n\nDone ✅ 完了/);
      assert.match(r.stdout, /■ completed · exit 0/);
    });

    it("turns malformed lines into recoverable MALFORMED_EVENT errors in the JSON stream", async () => {
      const r = await agentStream(["run", "--json", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "x"], { env: { FAKE_SCENARIO: "noisy" } });
      assert.equal(r.code, 0);
      const events = r.stdout.trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      const errors = events.flatMap((e) => (e.type === "error" ? [e.payload.error] : []));
      assert.deepEqual(errors.map((e) => [e.code, e.recoverable]), [["MALFORMED_EVENT", true], ["MALFORMED_EVENT", true], ["MALFORMED_EVENT", true]]);
      assert.equal(errors[2].message, "line 4: payload.exitCode: expected number, got string; payload.duration: missing, expected number; payload.success: missing, expected boolean");
      assert.equal(events[0].type, "start", "the banner line does not displace start");
    });

    it("reports a crash with the stderr tail and exits with the CLI's code", async () => {
      const r = await agentStream(["run", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "x"], { env: { FAKE_SCENARIO: "crash" } });
      assert.equal(r.code, 3);
      assert.match(r.stdout, /✗ PROCESS_CRASHED: The CLI exited with code 3 before finishing its stream/);
      assert.match(r.stdout, /TypeError: Cannot read properties of undefined/);
      assert.match(r.stdout, /■ failed · exit 3/);
    });

    it("reports a missing CLI as CLI_NOT_FOUND and exits 127", async () => {
      const r = await agentStream(["run", "--json", "--", "definitely-not-a-cli-4711", "exec"]);
      assert.equal(r.code, 127);
      const events = r.stdout.trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      assert.deepEqual(events.map((e) => e.type), ["start", "error", "done"]);
      const error = events[1];
      assert.ok(error.type === "error");
      assert.equal(error.payload.error.code, "CLI_NOT_FOUND");
      assert.match(error.payload.error.message, /definitely-not-a-cli-4711/);
    });

    it("stops the CLI on Ctrl-C and exits with the CLI's done code, leaving no process behind", async () => {
      const child = startCli(["run", "--json", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "x"], { FAKE_SCENARIO: "slow" });
      const firstOutput = await waitForOutput(child, "tick");
      const sessionId = CliStreamEventSchema.parse(JSON.parse(firstOutput.split("\n")[0])).sessionId;
      const fakePid = Number(sessionId.replace("fake-", ""));
      assert.ok(isAlive(fakePid));
      const result = finishAgentStream(child);
      child.kill("SIGINT");
      const r = await result;
      assert.equal(r.code, 1, "the fake CLI's own done says exit code 1");
      const events = (firstOutput + r.stdout).trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      assert.equal(events.at(-1)?.type, "done");
      assert.equal(events.filter((e) => e.type === "error").length, 0, "an interruption we asked for is not an error");
      assert.equal(isAlive(fakePid), false);
    });

    it("stops a silent CLI after the inactivity timeout with NETWORK_TIMEOUT", async () => {
      const r = await agentStream(["run", "--timeout-ms", "400", "--", FAKE_LOCUS, "exec", "--json-stream", "--", "x"], { env: { FAKE_SCENARIO: "silent" } });
      assert.match(r.stdout, /✗ NETWORK_TIMEOUT: The CLI produced no output for 400 ms and was stopped\./);
      assert.match(r.stdout, /■ failed/);
      assert.notEqual(r.code, 0);
    });

    it("requires -- before the command", async () => {
      const r = await agentStream(["run", "node"]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /run needs -- before the command/);
    });
  });

  describe("control characters from the stream", () => {
    it("run shows the model's escape sequences, C1 controls and bidi overrides escaped in every text it prints", async () => {
      const r = await agentStream(["run", "--", HOSTILE_CLI]);
      assert.equal(r.code, 0, r.stderr);
      assertNoRawControl(r.stdout, "stdout");
      assertNoRawControl(r.stderr, "stderr");
      for (const shown of [`answer [${HOSTILE_VISIBLE}]\n`, `💭 thinking [${HOSTILE_VISIBLE}]`, `▶ Read[${HOSTILE_VISIBLE}] file [\\x9b31mred|\\u202eevil\\u202c| |`]) {
        assert.ok(r.stdout.includes(shown), `stdout shows ${shown}`);
      }
      for (const shown of [`tool error [${HOSTILE_VISIBLE}]`, `error message [${HOSTILE_VISIBLE}]`, `· streaming [${HOSTILE_VISIBLE}]: status message [`, `tools: Read[${HOSTILE_VISIBLE}]`]) {
        assert.ok(r.stdout.includes(shown), `stdout shows ${shown}`);
      }
      assert.ok(r.stderr.includes(`stderr [${HOSTILE_VISIBLE}]\nsecond stderr line\n`), "the CLI's stderr keeps its newlines, nothing else raw");
      assert.match(r.stderr, /line 8: MALFORMED_EVENT not JSON: "not json \[\\u009b31mred\|\\u202eevil/);
    });

    it("run --json writes C1 and bidi characters as \\u escapes and parses back to the stream's exact text", async () => {
      const r = await agentStream(["run", "--json", "--", HOSTILE_CLI]);
      assert.equal(r.code, 0, r.stderr);
      assertNoRawControl(r.stdout, "stdout");
      const printed = r.stdout.trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      const original = hostileStream()
        .trimEnd()
        .split("\n")
        .flatMap((line) => {
          const parsed = CliStreamEventSchema.safeParse(JSON.parse(line.startsWith("{") ? line : "null"));
          return parsed.success ? [parsed.data] : [];
        });
      const payloadsOf = (events: CliStreamEvent[], type: CliStreamEvent["type"]) => events.filter((e) => e.type === type).map((e) => e.payload);
      for (const type of ["thinking", "text_delta", "tool_started", "tool_completed", "status"] as const) {
        assert.deepEqual(payloadsOf(printed, type), payloadsOf(original, type), `${type} payloads`);
      }
      assert.deepEqual(payloadsOf(printed, "error")[0], payloadsOf(original, "error")[0]);
    });

    it("transcript --format json escapes C1 and bidi characters and loses nothing", async () => {
      const stream = hostileStream();
      const r = await agentStream(["transcript", "-"], { stdin: stream });
      assert.equal(r.code, 0, r.stderr);
      assertNoRawControl(r.stdout, "stdout");
      const expected = (await replayStream(Readable.from([stream]), { adapter: createAdapter("auto"), maxLineBytes: DEFAULT_MAX_LINE_BYTES })).toTranscript();
      assert.deepEqual(TranscriptSchema.parse(JSON.parse(r.stdout)), JSON.parse(JSON.stringify(expected)));
    });

    it("transcript --format markdown shows every control character escaped", async () => {
      const r = await agentStream(["transcript", "-", "--format", "markdown"], { stdin: hostileStream() });
      assert.equal(r.code, 0, r.stderr);
      assertNoRawControl(r.stdout, "stdout");
      for (const shown of [`answer [${HOSTILE_VISIBLE}]`, `> 💭 thinking [${HOSTILE_VISIBLE}]`, `**Read[${HOSTILE_VISIBLE}]**`, `tool error [${HOSTILE_VISIBLE}]`, `error message [${HOSTILE_VISIBLE}]`]) {
        assert.ok(r.stdout.includes(shown), `markdown shows ${shown}`);
      }
    });

    it("check prints one line per problem, with the bad line's control characters escaped", async () => {
      const r = await agentStream(["check", "-"], { stdin: hostileStream() });
      assert.equal(r.code, 1);
      assertNoRawControl(r.stdout, "stdout");
      const lines = r.stdout.trimEnd().split("\n");
      assert.deepEqual(lines.map((line) => line.split(":")[0]), ["line 8", "line 9", "line 10"]);
      assert.match(lines[0], /^line 8: MALFORMED_EVENT not JSON: "not json \[\\u009b31mred\|\\u202eevil\\u202c\|\\u2028\|\\u001b\]52;/);
      assert.ok(lines[1].includes(`unknown event type "type [${HOSTILE_VISIBLE.replace(/\\x1b/g, "\\u001b").replace(/\\x07/g, "\\u0007")}]" skipped`), lines[1]);
    });

    it("usage errors show the arguments' control characters escaped", async () => {
      for (const args of [["\u009b31m\u202e"], ["check", "--\x1b]0;pwned\x07"], ["check", "/nonexistent/\x1b]0;pwned\x07"]]) {
        const r = await agentStream(args);
        assert.equal(r.code, 2);
        assertNoRawControl(r.stderr, `stderr for ${JSON.stringify(args)}`);
        assert.match(r.stderr, /\\x9b31m\\u202e|\\x1b\]0;pwned\\x07/);
      }
    });
  });
});
