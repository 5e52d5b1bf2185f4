// Dialect `acp`: a client's log of ACP traffic replayed as the turns the live run showed. Real Qwen Code 0.15.10
// traffic and our fake agent's (test/fixtures/acp-recorded/README.md), each beside what `ask --json` printed of the
// same run, and hand-built lines for what no recording has.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { acpDialect, MAX_OPEN_REQUESTS } from "../../../src/dialects/acp/acp-adapter";
import { createAdapter, DIALECTS } from "../../../src/dialects/registry";
import type { Transcript, TranscriptBlock } from "../../../src/protocol/transcript";
import { replayStream } from "../../../src/session/replay";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";
import { chunksOf } from "../../helpers/stream-builder";

const RECORDED = path.join(FIXTURES, "acp-recorded");
const QWEN = "qwen/0.15.10";
const CLAUDE_ACP = "claude-acp/0.23.1";
const OPENCODE = "opencode/1.18.33";
const CLINE = "cline/3.0.65";
const FAKE = "fake-acp-agent/1.0.0";

const fixture = (folder: string, name: string) => harness.fixture(`acp-recorded/${folder}`, `${name}.ndjson`);
/** As `agent-stream transcript` reads a recording: every turn of it, in one transcript. */
async function replay(ndjson: string, dialect: "acp" | "auto" = "acp"): Promise<Transcript> {
  const session = await replayStream(chunksOf([ndjson]), { adapter: createAdapter(dialect), severalTurns: true });
  return session.toTranscript();
}
const permissions = (blocks: readonly TranscriptBlock[]) => blocks.filter((b) => b.kind === "permission");
/**
 * What a replay cannot know (docs: the fixtures' README): how long things took, who answered a permission, and what
 * the live run added to an error's first line from the agent's environment and stderr (its cause, said after it).
 */
function withoutTimesAndWho(blocks: readonly TranscriptBlock[]): unknown[] {
  return blocks.map((block) => {
    if (block.kind === "error") {
      const { cause: _c, ...rest } = block;
      return { ...rest, message: rest.message.split("\n", 1)[0] };
    }
    const { durationMs: _d, answeredBy: _a, ...rest } = block as TranscriptBlock & { durationMs?: unknown; answeredBy?: unknown };
    return rest;
  });
}

/** Every recorded case: the log, and `ask --json` of the same run. */
function recordedCases(): { folder: string; name: string }[] {
  return fs.readdirSync(RECORDED, { withFileTypes: true }).flatMap((agent) =>
    !agent.isDirectory()
      ? []
      : fs.readdirSync(path.join(RECORDED, agent.name)).flatMap((version) =>
          fs
            .readdirSync(path.join(RECORDED, agent.name, version))
            .filter((file) => file.endsWith(".ask.ndjson"))
            .map((file) => ({ folder: `${agent.name}/${version}`, name: file.slice(0, -".ask.ndjson".length) })),
        ),
  );
}

describe("the acp dialect", () => {
  describe(`recorded traffic of Qwen Code 0.15.10`, () => {
    it("reads a plain answer as one text block and the turn as completed", async () => {
      const transcript = await replay(fixture(QWEN, "plain-answer"));
      assert.equal(transcript.dialect, "acp");
      assert.equal(transcript.status, "completed");
      assert.deepEqual(kinds(transcript.blocks), ["text"]);
      assert.match(texts(transcript.blocks)[0]!, /\S/);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows an allowed write as an edit card with its diff, then the permission allowed with the agent's option", async () => {
      const transcript = await replay(fixture(QWEN, "write-allowed"));
      assert.equal(transcript.status, "completed");
      const [card] = tools(transcript.blocks);
      assert.deepEqual([card?.toolKind, card?.status, card?.title], ["edit", "succeeded", "Writing to todo.md"]);
      assert.deepEqual(card?.diffs, [{ path: "todo.md", oldText: "", newText: "# Todo\n\n- fix the build\n" }]);
      assert.deepEqual(
        permissions(transcript.blocks).map((b) => b.kind === "permission" && [b.toolId, b.decision, b.optionId, b.answeredBy, b.options.map((o) => o.kind)]),
        [["call_e2e_write_file", "allowed", "proceed_once", null, ["allow_always", "allow_once", "reject_once"]]],
      );
    });

    it("shows a rejected write as rejected, its card never finished (Qwen sends no update after a rejection)", async () => {
      const transcript = await replay(fixture(QWEN, "write-rejected"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && [b.decision, b.optionId]), [["rejected", "cancel"]]);
      assert.deepEqual(tools(transcript.blocks).map((card) => card.status), ["abandoned"]);
    });

    it("reads a follow-up as a second turn after the first, all blocks in order, one session", async () => {
      const transcript = await replay(fixture(QWEN, "follow-up"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(texts(transcript.blocks), ["Hi! I will keep that word in mind.", "You asked me to remember kumquat."]);
      assert.match(transcript.sessionId ?? "", /^[0-9a-f-]{36}$/);
    });

    it("reads the 401 (a -32603 whose details name it) as AUTH_EXPIRED and the turn as failed", async () => {
      const transcript = await replay(fixture(QWEN, "auth-error"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(errors(transcript.blocks).map((b) => b.kind === "error" && b.code), ["AUTH_EXPIRED"]);
      assert.equal(transcript.done.exitCode, 1);
    });
  });

  describe(`recorded traffic of claude-agent-acp 0.23.1`, () => {
    it("shows a write as a card named by the agent's title, a new file's diff, and its context use from usage_update", async () => {
      const transcript = await replay(fixture(CLAUDE_ACP, "write-allowed"));
      assert.equal(transcript.status, "completed");
      const [card] = tools(transcript.blocks);
      // The call first comes as a bare "Write" with no input; the update before the request names the file.
      assert.deepEqual([card?.toolKind, card?.status, card?.title], ["edit", "succeeded", "Write todo.md"]);
      assert.deepEqual(card?.diffs, [{ path: "/workspace/todo.md", oldText: null, newText: "# Todo\n\n- fix the build\n" }]);
      assert.deepEqual(
        permissions(transcript.blocks).map((b) => b.kind === "permission" && [b.toolId, b.decision, b.optionId, b.options.map((o) => o.name)]),
        [["toolu_e2e_Write", "allowed", "allow", ["Always Allow", "Allow", "Reject"]]],
      );
      assert.equal(transcript.done.tokensUsed, 121);
    });

    it("shows a rejected write as a failed card that says why, and keeps the diff it asked about though the agent replaced the content", async () => {
      const transcript = await replay(fixture(CLAUDE_ACP, "write-rejected"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && [b.decision, b.optionId]), [["rejected", "reject"]]);
      const [card] = tools(transcript.blocks);
      assert.deepEqual([card?.status, card?.diffs], ["failed", [{ path: "/workspace/todo.md", oldText: null, newText: "# Todo\n\n- fix the build\n" }]]);
      assert.match(card?.output ?? "", /User refused permission to run tool/);
    });

    it("reads a bad key (-32603 \"Invalid API key\") as AUTH_EXPIRED and the turn as failed", async () => {
      const transcript = await replay(fixture(CLAUDE_ACP, "auth-error"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(errors(transcript.blocks).map((b) => b.kind === "error" && [b.code, b.message]), [["AUTH_EXPIRED", "Internal error: Invalid API key · Fix external API key"]]);
    });

    it("reads a follow-up as a second turn in the same session", async () => {
      const transcript = await replay(fixture(CLAUDE_ACP, "follow-up"));
      assert.deepEqual(texts(transcript.blocks), ["Hi! I will keep that word in mind.", "You asked me to remember kumquat."]);
      assert.deepEqual([transcript.status, transcript.problems], ["completed", []]);
    });
  });

  describe(`recorded traffic of opencode 1.18.33`, () => {
    it("keeps the diff sent with the permission request on the card after the finished update replaces the content without it", async () => {
      const transcript = await replay(fixture(OPENCODE, "write-allowed"));
      const [card] = tools(transcript.blocks);
      assert.deepEqual([card?.toolKind, card?.status, card?.output], ["edit", "succeeded", "Wrote file successfully."]);
      assert.deepEqual(card?.diffs, [{ path: "/workspace/todo.md", oldText: "", newText: "# Todo\n\n- fix the build\n" }]);
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["allowed"]);
    });

    it("shows the edit's diff and the command's output on their cards, each on its own", async () => {
      const transcript = await replay(fixture(OPENCODE, "edit-and-command"));
      const [edit, command] = tools(transcript.blocks);
      assert.deepEqual(edit?.diffs.map((d) => d.newText), ["# Todo\n\n- fix the build\n"]);
      assert.deepEqual([command?.toolKind, command?.diffs], ["execute", []]);
      assert.match(command?.output ?? "", /printed for the card/);
    });
  });

  describe(`recorded traffic of Cline CLI 3.0.65`, () => {
    it("shows a rejected command as one failed card, though Cline announces the call again after it failed", async () => {
      const transcript = await replay(fixture(CLINE, "command-rejected"));
      assert.deepEqual(kinds(transcript.blocks), ["tool", "permission", "text"]);
      assert.deepEqual(tools(transcript.blocks).map((card) => [card.toolId, card.status]), [["call_cline_1", "failed"]]);
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["rejected"]);
    });

    it("shows an allowed command as one succeeded card, though Cline announces the call again while it runs", async () => {
      const transcript = await replay(fixture(CLINE, "command-allowed"));
      assert.deepEqual(tools(transcript.blocks).map((card) => [card.toolId, card.status]), [["call_cline_1", "succeeded"]]);
    });
  });

  describe("recorded traffic beside `ask --json` of the same run", () => {
    for (const { folder, name } of recordedCases()) {
      it(`${folder} ${name}: the same blocks, status and problems-free turns as the live run`, async () => {
        const replayed = await replay(fixture(folder, name));
        const live = await replay(fixture(folder, `${name}.ask`), "auto");
        assert.equal(live.dialect, "acp");
        let liveBlocks = live.blocks;
        if (name === "die") {
          // The log ends mid-turn; only the live run saw the agent exit.
          assert.deepEqual(errors(live.blocks).map((b) => b.kind === "error" && b.code), ["PROCESS_CRASHED"]);
          liveBlocks = live.blocks.filter((b) => b.kind !== "error");
          assert.deepEqual(replayed.problems.map((p) => p.code), ["MISSING_DONE"]);
        }
        assert.deepEqual(withoutTimesAndWho(replayed.blocks), withoutTimesAndWho(liveBlocks));
        assert.equal(replayed.status, live.status);
        if (name !== "die") assert.equal(replayed.done.exitCode, live.done.exitCode);
        assert.equal(replayed.done.tokensUsed, live.done.tokensUsed);
      });
    }
  });

  describe("our fake agent's traffic", () => {
    it("names each failing stop reason, and the JSON-RPC errors by meaning", async () => {
      const outcome = async (name: string) => {
        const transcript = await replay(fixture(FAKE, name));
        return [transcript.status, ...errors(transcript.blocks).map((b) => b.kind === "error" && b.code)];
      };
      assert.deepEqual(await outcome("refusal"), ["failed", "UNKNOWN"]);
      assert.match(JSON.stringify(errors((await replay(fixture(FAKE, "max-tokens"))).blocks)), /max_tokens/);
      assert.match(JSON.stringify(errors((await replay(fixture(FAKE, "max-turn-requests"))).blocks)), /max_turn_requests/);
      assert.deepEqual(await outcome("error-auth"), ["failed", "AUTH_EXPIRED"]);
      assert.deepEqual(await outcome("error-401"), ["failed", "AUTH_EXPIRED"]);
      // session/new refused for want of authentication, and no authenticate after it.
      assert.deepEqual(await outcome("auth-required"), ["failed", "AUTH_EXPIRED"]);
    });

    it("says which lines are not JSON-RPC and reads the rest", async () => {
      const transcript = await replay(fixture(FAKE, "garbage"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(texts(transcript.blocks), ["still here"]);
      assert.deepEqual(
        transcript.problems.map((p) => [p.code, p.message]),
        [
          ["MALFORMED_EVENT", 'not JSON: "this is not json"'],
          ["MALFORMED_EVENT", 'not JSON: "{\\"half\\": "'],
          ["MALFORMED_EVENT", "expected a JSON object, got array"],
          ["MALFORMED_EVENT", "expected a JSON object, got number"],
        ],
      );
    });

    it("does not call a log that ends mid-turn completed, and keeps what was said", async () => {
      const transcript = await replay(fixture(FAKE, "die"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(texts(transcript.blocks), ["about to fail"]);
    });
  });

  describe("lines", () => {
    const S = "s1";
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } };
    const initialized = { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } };
    const newSession = { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } };
    const sessionMade = { jsonrpc: "2.0", id: 1, result: { sessionId: S } };
    const handshake = [initialize, initialized, newSession, sessionMade];
    const prompt = (id: number, text = "hi") => ({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: S, prompt: [{ type: "text", text }] } });
    const stopped = (id: number, stopReason = "end_turn") => ({ jsonrpc: "2.0", id, result: { stopReason } });
    const update = (value: object) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId: S, update: value } });
    const say = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    const ask = (id: number | string) => ({
      jsonrpc: "2.0",
      id,
      method: "session/request_permission",
      params: {
        sessionId: S,
        toolCall: { toolCallId: "t1", title: "Run ls", kind: "execute" },
        options: [
          { optionId: "ok", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ],
      },
    });
    const answer = (id: number | string, outcome: object) => ({ jsonrpc: "2.0", id, result: { outcome } });

    it("tells whose answer a response is by the later request when both sides have one of that id open", async () => {
      // The agent numbers its requests from 0 as the client does: its permission request 2 is open beside prompt 2.
      const transcript = await replay(
        lines(...handshake, prompt(2), ask(2), answer(2, { outcome: "selected", optionId: "ok" }), say("ran it"), stopped(2)),
      );
      assert.equal(transcript.status, "completed");
      assert.deepEqual(kinds(transcript.blocks), ["tool", "permission", "text"]);
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["allowed"]);
    });

    it("tells whose answer a response is by its shape before the order: a stopReason answers the prompt", async () => {
      // The agent ends the turn with its own permission request 2 still open; the client's late answer changes nothing.
      const transcript = await replay(lines(...handshake, prompt(2), ask(2), stopped(2), answer(2, { outcome: "selected", optionId: "ok" })));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["cancelled"]);
    });

    it("tells an error's side by the later request when both sides have that id open", async () => {
      // fs/read_text_file 2 refused by the client, while prompt 2 waits: the error answers the agent's request.
      const read = { jsonrpc: "2.0", id: 2, method: "fs/read_text_file", params: { sessionId: S, path: "/etc/passwd" } };
      const refused = { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "outside the workspace" } };
      const transcript = await replay(lines(...handshake, prompt(2), read, refused, say("could not read it"), stopped(2)));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(errors(transcript.blocks), []);
    });

    it("reads the wrapped form, whose direction settles whose request an answer is", async () => {
      const wrap = (direction: "incoming" | "outgoing", message: object) => ({ direction, message });
      const transcript = await replay(
        lines(
          wrap("outgoing", initialize),
          wrap("incoming", initialized),
          wrap("outgoing", newSession),
          wrap("incoming", sessionMade),
          wrap("outgoing", prompt(2)),
          wrap("incoming", ask(2)),
          // Shaped like neither answer: only the direction says it is the client's (a cancelled permission).
          wrap("outgoing", { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "dismissed" } }),
          wrap("incoming", stopped(2)),
        ),
        "auto",
      );
      assert.equal(transcript.dialect, "acp");
      assert.equal(transcript.status, "completed");
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["cancelled"]);
    });

    it("shows a call the agent updates after it ended as one card (Cline CLI 3.0.65 after a rejection)", async () => {
      const call = { sessionUpdate: "tool_call", toolCallId: "t1", title: "Run ls", kind: "execute", status: "pending" };
      const failed = { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed" };
      const said = { ...failed, content: [{ type: "content", content: { type: "text", text: "The user rejected this" } }] };
      const transcript = await replay(
        lines(...handshake, prompt(2), update(call), ask(7), answer(7, { outcome: "selected", optionId: "no" }), update(failed), update(said), update(failed), stopped(2)),
      );
      assert.deepEqual(kinds(transcript.blocks), ["tool", "permission"]);
      assert.deepEqual(tools(transcript.blocks).map((card) => [card.toolId, card.status, card.output]), [["t1", "failed", "The user rejected this"]]);
    });

    it("shows no second card for a call that ended in an earlier turn when the agent sends more about it in the next", async () => {
      const call = { sessionUpdate: "tool_call", toolCallId: "t1", title: "Run ls", kind: "execute", status: "pending" };
      const failed = { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed" };
      const said = { ...failed, content: [{ type: "content", content: { type: "text", text: "The user rejected this" } }] };
      const transcript = await replay(lines(...handshake, prompt(2), update(call), update(failed), stopped(2), prompt(3), update(call), update(said), say("ok"), stopped(3)));
      assert.deepEqual(kinds(transcript.blocks), ["tool", "text"]);
      assert.deepEqual(tools(transcript.blocks).map((card) => [card.toolId, card.status]), [["t1", "failed"]]);
    });

    it("keeps a call's 1 MiB diff on its card through 16 status-only updates, and the next text whole", async () => {
      const diff = { type: "diff", path: "big.txt", oldText: null, newText: "x".repeat(1024 * 1024) };
      const call = { sessionUpdate: "tool_call", toolCallId: "t1", title: "Write big.txt", kind: "edit", status: "pending", content: [diff] };
      const progress = Array.from({ length: 16 }, () => update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" }));
      const finished = update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
      const transcript = await replay(lines(...handshake, prompt(2), update(call), ...progress, finished, say("done writing"), stopped(2)));
      assert.deepEqual(tools(transcript.blocks).map((card) => card.diffs.map((d) => d.newText.length)), [[1024 * 1024]]);
      assert.deepEqual(texts(transcript.blocks), ["done writing"]);
    });

    const unanswered = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: `w${i}`, method: "fs/write_text_file", params: { sessionId: S, path: `/w/${i}.txt`, content: "" } }));

    it("remembers a bounded number of unanswered requests, the turn's prompt among them, and a note counts those it forgot", async () => {
      const transcript = await replay(lines(...handshake, prompt(2), ...unanswered(MAX_OPEN_REQUESTS + 4), say("wrote them"), stopped(2)));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(texts(transcript.blocks), ["wrote them"]);
      const notes = transcript.blocks.filter((b) => b.kind === "status");
      assert.deepEqual(
        notes.map((b) => b.kind === "status" && b.status),
        ["requests forgotten"],
      );
      // The prompt and the agent's requests, less those it remembers.
      assert.match(notes[0]!.kind === "status" ? (notes[0].message ?? "") : "", /: 5 were forgotten\./);
    });

    it("shows a permission request it had to forget as cancelled, and ignores a later answer to it", async () => {
      const transcript = await replay(
        lines(...handshake, prompt(2), ask(7), ...unanswered(MAX_OPEN_REQUESTS), answer(7, { outcome: "selected", optionId: "ok" }), stopped(2)),
      );
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["cancelled"]);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows a permission request whose id the agent reuses while it is open as cancelled, the later one as answered", async () => {
      const transcript = await replay(lines(...handshake, prompt(2), ask(7), ask(7), answer(7, { outcome: "selected", optionId: "ok" }), stopped(2)));
      assert.deepEqual(permissions(transcript.blocks).map((b) => b.kind === "permission" && b.decision), ["cancelled", "allowed"]);
    });

    it("reads each session/prompt as a turn, all blocks in order, and the one session's id", async () => {
      const transcript = await replay(lines(...handshake, prompt(2), say("one"), stopped(2), prompt(3), say("two"), stopped(3)));
      assert.deepEqual(texts(transcript.blocks), ["one", "two"]);
      assert.equal(transcript.sessionId, S);
      assert.equal(transcript.status, "completed");
    });

    it("reads a turn the client cancelled as canceled, whatever stop reason the agent gave", async () => {
      const cancel = { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: S } };
      const transcript = await replay(lines(...handshake, prompt(2), say("par"), cancel, stopped(2, "end_turn")));
      assert.equal(transcript.status, "canceled");
      assert.equal(transcript.done.exitCode, 130);
    });

    it("continues after session/new asked for authentication when the client authenticated", async () => {
      const authRequired = { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "Authentication required" } };
      const authenticate = { jsonrpc: "2.0", id: 2, method: "authenticate", params: { methodId: "api-key" } };
      const again = { ...newSession, id: 3 };
      const transcript = await replay(
        lines(initialize, initialized, newSession, authRequired, authenticate, { jsonrpc: "2.0", id: 2, result: {} }, again, { jsonrpc: "2.0", id: 3, result: { sessionId: S } }, prompt(4), say("in"), stopped(4)),
      );
      assert.equal(transcript.status, "completed");
      assert.deepEqual(errors(transcript.blocks), []);
    });

    it("leaves out what session/load replays, as the live client does, and goes on in the loaded session", async () => {
      const load = { jsonrpc: "2.0", id: 1, method: "session/load", params: { sessionId: S, cwd: "/w", mcpServers: [] } };
      const transcript = await replay(lines(initialize, initialized, load, say("old answer"), { jsonrpc: "2.0", id: 1, result: {} }, prompt(2), say("new answer"), stopped(2)));
      assert.deepEqual(texts(transcript.blocks), ["new answer"]);
    });

    it("ignores unknown methods, kinds and notifications, and traces each once", () => {
      const adapter = acpDialect.create();
      const traces: string[] = [];
      const events: string[] = [];
      const out = { event: (e: { type: string }) => events.push(e.type), problem: () => assert.fail("no problem"), trace: (m: string) => traces.push(m) };
      for (const value of [
        ...handshake,
        prompt(2),
        update({ sessionUpdate: "future_kind" }),
        update({ sessionUpdate: "future_kind" }),
        { jsonrpc: "2.0", method: "_vendor/status", params: {} },
        { jsonrpc: "2.0", id: 9, method: "_vendor/ask", params: {} },
        { jsonrpc: "2.0", id: 9, result: {} },
        { jsonrpc: "2.0", id: 77, result: {} },
        stopped(2),
      ]) {
        adapter.decode(value, out);
      }
      assert.deepEqual(events, ["start", "done"]);
      assert.deepEqual(traces, [
        'session/update kind "future_kind" is not known; ignored',
        'method "_vendor/status" is not known; read as the agent\'s and ignored',
        "notification _vendor/status ignored",
        'method "_vendor/ask" is not known; read as the agent\'s and ignored',
        "a response to request 77, which the log never showed, ignored",
      ]);
    });

    it("says what is wrong with a line that is not a JSON-RPC message", () => {
      const { problems } = harness.decodeAll(acpDialect.create(), [
        { jsonrpc: "2.0", id: 1 },
        { jsonrpc: "2.0", id: {}, method: "x" },
        { direction: "sideways", message: {} },
      ]);
      assert.deepEqual(problems, [
        "MALFORMED_EVENT not an ACP message (JSON-RPC 2.0): neither a request (method), nor a response (result or error)",
        "MALFORMED_EVENT not an ACP message (JSON-RPC 2.0): id: expected string or number, got object",
        'MALFORMED_EVENT not an ACP message (JSON-RPC 2.0): direction: expected "incoming" | "outgoing", got "sideways"',
      ]);
    });
  });

  describe("auto", () => {
    const acpFiles = ndjsonFiles(RECORDED).filter((file) => !file.endsWith(".ask.ndjson"));

    it("recognises every recorded log, by its first line, as acp", async () => {
      for (const file of acpFiles) {
        const transcript = await replay(fs.readFileSync(file, "utf8"), "auto");
        assert.equal(transcript.dialect, "acp", file);
      }
    });

    it("recognises no other CLI's fixture", () => {
      assertClaimsNone(ndjsonFiles().filter((file) => !inFolders(file, "acp-recorded")), acpDialect);
    });

    it("is claimed by no other dialect (ask's normalized output aside, which is Locus protocol 1)", () => {
      assertClaimsNone(acpFiles, ...DIALECTS.filter((dialect) => dialect.name !== "acp"));
    });
  });
});
