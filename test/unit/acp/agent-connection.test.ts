import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  disposeFakeAgents,
  isAlive,
  prompt,
  startFakeAgent,
  waitForRecord,
  type AcpHarness,
} from "../../helpers/acp-harness";
import { canonicalDigest } from "../../../src/dialects/acp/canonical-digest";
import type { PermissionRequest } from "../../../src/permissions/permission-request";
import type { PermissionChoice } from "../../../src/permissions/permission-desk";
import type { Problem } from "../../../src/protocol/transcript";
import { DEFAULT_CANCEL_GRACE_MS, MAX_FILE_REQUESTS_AT_ONCE, MAX_UNREAD_ANSWER_BYTES } from "../../../src/acp/agent-connection";
import { NodeWorkspaceFiles, type WorkspaceFiles } from "../../../src/acp/workspace-files";
import { DEFAULT_KILL_GRACE_MS, DEFAULT_STOP_GRACE_MS } from "../../../src/process/cli-process";
import { IN_BAND_STOP_GRACE_MS } from "../../../src/profiles/cli-profile";
import { eventually } from "../../helpers/eventually";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

/** README: "even a process that ignores every signal but SIGKILL is gone within 5 s of Stop". */
const STOP_PROMISE_MS = 5000;
/** What SIGKILL needs to land and the escalation's poll (every 50 ms) to see the tree gone. */
const SIGKILL_MARGIN_MS = 500;

describe("ACP agent connection (real fake agent processes)", () => {
  afterEach(disposeFakeAgents);

  describe("a turn", () => {
    it("starts the agent with fs read and write advertised, no terminal, and a session in the workspace", async () => {
      const agent = startFakeAgent("turns");
      const outcome = await agent.connection.prompt(prompt("hi"));
      assert.equal(outcome.status, "completed");
      const init = agent.records().find((record) => "initialize" in record)?.initialize as Record<string, unknown>;
      const capabilities = init.clientCapabilities as Record<string, unknown>;
      assert.deepEqual([capabilities.fs, capabilities.terminal], [{ readTextFile: true, writeTextFile: true }, false]);
      assert.equal(init.protocolVersion, 1);
      assert.equal(agent.records().find((record) => "newSession" in record)?.cwd, agent.workspace);
      assert.deepEqual(agent.eventsOf("session_ready").map((event) => event.continued), ["new"]);
    });

    it("sends a follow-up to the same session in the same process", async () => {
      const agent = startFakeAgent("turns");
      await agent.connection.prompt(prompt("one"));
      const pid = agent.connection.pid;
      await agent.connection.prompt(prompt("two"));
      assert.equal(agent.connection.pid, pid);
      const sessionId = agent.connection.sessionId;
      assert.equal(agent.text(), `turn 1 in ${sessionId} pid ${pid}turn 2 in ${sessionId} pid ${pid}`);
      assert.equal(agent.records().filter((record) => "newSession" in record).length, 1);
    });

    it("turns every update kind into events, in the order they arrived", async () => {
      const agent = startFakeAgent("all-updates");
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.equal(agent.text(), "Hello world!");
      assert.deepEqual(agent.eventsOf("thought").map((event) => event.text), ["thinking hard"]);
      assert.deepEqual(agent.eventsOf("plan").at(-1)?.entries, [
        { content: "Read the code", priority: "high", status: "completed" },
        { content: "Fix the bug", priority: "medium", status: "in_progress" },
      ]);
      assert.deepEqual(agent.eventsOf("usage")[0].usage, { used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
      assert.deepEqual(agent.eventsOf("mode").map((event) => event.modeId), ["plan"]);
      assert.deepEqual(agent.eventsOf("commands")[0].commands, [{ name: "review", description: "Review the changes" }]);
      assert.deepEqual(agent.eventsOf("session_title").map((event) => event.title), ["Fixing the bug"]);
      const types = agent.events.map((event) => event.type).filter((type) => type !== "session_ready" && type !== "session_settings");
      assert.deepEqual(types, ["text", "text", "thought", "tool_call", "tool_call", "tool_call", "plan", "usage", "mode", "commands", "session_title", "text"]);
    });

    it("merges partial tool call updates: only the fields present change, content and input are each message's own, and a diff shown stays", async () => {
      const agent = startFakeAgent("all-updates");
      await agent.connection.prompt(prompt("go"));
      const calls = agent.eventsOf("tool_call");
      assert.deepEqual(calls.map((event) => [event.change, event.call.status, event.contentChanged]), [["created", "pending", true], ["updated", "in_progress", false], ["updated", "completed", true]]);
      assert.deepEqual(calls[0].call.content, [{ type: "diff", path: "src/a.ts", oldText: null, newText: "export const a = 1;\n" }]);
      assert.deepEqual(calls[0].call.rawInput, { file: "src/a.ts" });
      // The status update carried no content: the call keeps only its diff's path, for a permission request's check.
      assert.deepEqual(calls[1].call.content, [{ type: "diff", path: "src/a.ts", oldText: null, newText: "", droppedChars: 20 }]);
      assert.deepEqual(calls[2].call, {
        toolCallId: "t1",
        title: "Edit src/a.ts",
        kind: "edit",
        status: "completed",
        // The finished update replaced the content without a diff of src/a.ts: the one shown before stays.
        content: [
          { type: "text", text: "wrote 1 line" },
          { type: "diff", path: "src/a.ts", oldText: null, newText: "export const a = 1;\n" },
        ],
        locations: [{ path: "src/a.ts", line: 1 }],
        rawInput: undefined,
        rawOutput: { ok: true },
        cutChars: 0,
        // What it ran and changed stays known after the values are let go: a permission request's "same request".
        fingerprint: { input: canonicalDigest({ file: "src/a.ts" }), diffs: canonicalDigest([["src/a.ts", null, "export const a = 1;\n"]]) },
      });
    });

    it("reports unknown update kinds, fields and notifications at trace level and goes on", async () => {
      const agent = startFakeAgent("all-updates");
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.ok(agent.traces.some((trace) => trace.includes('"future_kind"')), agent.traces.join("\n"));
      assert.ok(agent.traces.some((trace) => trace.includes('"sparkle"')), agent.traces.join("\n"));
      assert.ok(agent.traces.some((trace) => trace.includes("_vendor/status")), agent.traces.join("\n"));
      assert.deepEqual(agent.problems, []);
    });
  });

  describe("stop reasons", () => {
    it("end_turn completes the turn", async () => {
      const outcome = await startFakeAgent("stop:end_turn").connection.prompt(prompt("go"));
      assert.deepEqual(outcome, { status: "completed", stopReason: "end_turn" });
    });

    it("cancelled stops the turn", async () => {
      const outcome = await startFakeAgent("stop:cancelled").connection.prompt(prompt("go"));
      assert.deepEqual(outcome, { status: "canceled", stopReason: "cancelled" });
    });

    for (const reason of ["refusal", "max_tokens", "max_turn_requests"]) {
      it(`${reason} fails the turn with a card that names it`, async () => {
        const outcome = await startFakeAgent(`stop:${reason}`).connection.prompt(prompt("go"));
        assert.equal(outcome.status, "failed");
        assert.ok(outcome.status === "failed" && outcome.error.message.includes(reason), JSON.stringify(outcome));
      });
    }
  });

  describe("permission requests", () => {
    it("creates the tool call from a request that is its first mention, and answers the option the user chose", async () => {
      const agent = startFakeAgent("permission", {
        decide: async (request) => ({ optionId: request.options.find((option) => option.kind === "allow_once")!.id }),
      });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "selected", optionId: "proceed" });
      const created = agent.eventsOf("tool_call")[0];
      assert.deepEqual([created.change, created.call.title, created.call.kind], ["created", "Run npm test", "execute"]);
      const asked = agent.eventsOf("permission_requested")[0].request;
      assert.deepEqual(asked.options.map((option) => option.kind), ["allow_always", "reject_once", "allow_once"]);
      assert.deepEqual(agent.eventsOf("permission_answered")[0].decision, { outcome: "selected", optionId: "proceed", optionKind: "allow_once", by: "user" });
      assert.equal(agent.text(), "ran it");
    });

    it("answers a rejection the user chose", async () => {
      const agent = startFakeAgent("permission", {
        decide: async (request) => ({ optionId: request.options.find((option) => option.kind === "reject_once")!.id }),
      });
      await agent.connection.prompt(prompt("go"));
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "selected", optionId: "nope" });
      assert.equal(agent.eventsOf("tool_call").at(-1)?.call.status, "failed");
    });

    it("answers cancelled, never allow, when the user dismisses the question", async () => {
      const agent = startFakeAgent("permission", { decide: async () => "cancelled" });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "cancelled" });
      assert.deepEqual(agent.eventsOf("permission_answered")[0].decision, { outcome: "cancelled", by: "cancelled" });
      assert.equal(outcome.status, "canceled");
    });

    it("answers cancelled when the host names an option the agent did not offer", async () => {
      const agent = startFakeAgent("permission", { decide: async () => ({ optionId: "allow" }) });
      await agent.connection.prompt(prompt("go"));
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "cancelled" });
    });

    describe("the user's \"always\" answers, for an agent that asks again", () => {
      const permissions = (agent: ReturnType<typeof startFakeAgent>) =>
        agent.records().flatMap((record) => ("permission" in record ? [record.permission as { outcome: string; optionId?: string }] : []));
      const choose = (kind: string) => async (request: PermissionRequest) => ({ optionId: request.options.find((option) => option.kind === kind)!.id });

      for (const [always, once, agentAnswer] of [
        ["allow_always", "allow_once", "zz-always"],
        ["reject_always", "reject_once", "never"],
      ] as const) {
        it(`answers the same request again with ${always} unasked, and asks about a different one`, async () => {
          const agent = startFakeAgent("permission-again", { decide: async (request) => choose(agent.asked.length === 1 ? always : once)(request) });
          const outcome = await agent.connection.prompt(prompt("go"));
          assert.equal(outcome.status, "completed");
          // Asked about "Run npm test" once, then about "Run npm publish": never twice about the same command.
          assert.deepEqual(agent.asked.map(({ request }) => request.title), ["Run npm test", "Run npm publish"]);
          const onceId = always === "allow_always" ? "proceed" : "nope";
          assert.deepEqual(permissions(agent), [
            { outcome: "selected", optionId: agentAnswer },
            { outcome: "selected", optionId: agentAnswer },
            { outcome: "selected", optionId: onceId },
          ]);
          assert.deepEqual(agent.eventsOf("permission_answered").map((event) => event.decision.outcome === "selected" && event.decision.by), ["user", "remembered", "user"]);
        });
      }

      it("remembers nothing from a once answer, nor for a request with no title of its own", async () => {
        const once = startFakeAgent("permission-again", { decide: choose("allow_once") });
        await once.connection.prompt(prompt("go"));
        assert.equal(once.asked.length, 3);
        const titleless = startFakeAgent("permission-again", { decide: choose("allow_always"), env: { FAKE_ACP_TITLELESS: "1" } });
        await titleless.connection.prompt(prompt("go"));
        assert.equal(titleless.asked.length, 3);
        assert.deepEqual(permissions(titleless).map((answer) => answer.optionId), ["zz-always", "zz-always", "zz-always"]);
      });

      it("keeps the answer for the conversation's later turns", async () => {
        const agent = startFakeAgent("permission", { decide: choose("allow_always") });
        await agent.connection.prompt(prompt("first"));
        await agent.connection.prompt(prompt("second"));
        assert.equal(agent.asked.length, 1);
        assert.deepEqual(permissions(agent).map((answer) => answer.optionId), ["zz-always", "zz-always"]);
        assert.equal(agent.text(), "ran itran it");
      });
    });

    it("lets a setting allow a read once, by kind, without asking and never always", async () => {
      const agent = startFakeAgent("permission-read", { autoAnswer: { read: "allow" } });
      await agent.connection.prompt(prompt("go"));
      assert.equal(agent.asked.length, 0);
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "selected", optionId: "proceed" });
      assert.equal(agent.eventsOf("permission_answered")[0].decision.by, "setting");
    });

    describe("a request that names a file outside the workspace", () => {
      const answerOf = (agent: ReturnType<typeof startFakeAgent>) => agent.records().find((record) => "permission" in record)?.permission;
      const OUTSIDE = { FAKE_ACP_EDIT: "../outside.txt" };

      it("is asked of the user though a setting allows edits, and names the file", async () => {
        const agent = startFakeAgent("permission-edit", { autoAnswer: { edit: "allow" }, env: OUTSIDE, decide: async () => ({ optionId: "cancel" }) });
        await agent.connection.prompt(prompt("go"));
        assert.deepEqual(agent.asked.map(({ request }) => request.outsideWorkspace), [["../outside.txt"]]);
        assert.deepEqual(agent.eventsOf("permission_requested").map((event) => event.request.outsideWorkspace), [["../outside.txt"]]);
        assert.deepEqual(answerOf(agent), { outcome: "selected", optionId: "cancel" });
        assert.ok(agent.problems.some((problem) => problem.includes("outside the workspace; asking the user instead of allowing by the setting")), agent.problems.join("\n"));
      });

      it("counts a path the client cannot place (relative, ~/) as outside: a setting does not allow it, only the user", async () => {
        for (const unplaceable of ["notes.txt", "~/.bashrc"]) {
          const agent = startFakeAgent("permission-edit", { autoAnswer: { edit: "allow" }, env: { FAKE_ACP_EDIT: unplaceable }, decide: async () => ({ optionId: "cancel" }) });
          await agent.connection.prompt(prompt("go"));
          assert.deepEqual(agent.asked.map(({ request }) => request.outsideWorkspace), [[unplaceable]]);
          assert.deepEqual(answerOf(agent), { outcome: "selected", optionId: "cancel" });
        }
      });

      it("is still rejected by a setting that rejects edits, without asking", async () => {
        const agent = startFakeAgent("permission-edit", { autoAnswer: { edit: "reject" }, env: OUTSIDE });
        await agent.connection.prompt(prompt("go"));
        assert.equal(agent.asked.length, 0);
        assert.deepEqual(answerOf(agent), { outcome: "selected", optionId: "cancel" });
      });

      it("is asked again after the user's earlier always answer", async () => {
        const agent = startFakeAgent("permission-edit", { env: OUTSIDE, decide: async (request) => ({ optionId: request.options[0].id }) });
        await agent.connection.prompt(prompt("first"));
        await agent.connection.prompt(prompt("second"));
        assert.deepEqual(agent.asked.map(({ request }) => request.options[0].kind), ["allow_always", "allow_always"], "asked both times");
        assert.deepEqual(agent.eventsOf("permission_answered").map((event) => event.decision.by), ["user", "user"]);
      });

      it("counts every file as outside when no folder is open, though the agent runs in a folder: only the user may allow", async () => {
        const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-home-")));
        const agent = startFakeAgent("permission-edit", {
          autoAnswer: { edit: "allow" },
          workspaceRoots: [],
          cwd: home,
          env: { FAKE_ACP_EDIT: path.join(home, ".bashrc") },
          decide: async () => ({ optionId: "cancel" }),
        });
        await agent.connection.prompt(prompt("go"));
        assert.deepEqual(agent.asked.map(({ request }) => request.outsideWorkspace), [[path.join(home, ".bashrc")]]);
        assert.deepEqual(answerOf(agent), { outcome: "selected", optionId: "cancel" });
        assert.equal(fs.existsSync(path.join(home, ".bashrc")), false);
      });

      it("leaves an edit inside the workspace to the setting, as before", async () => {
        const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-ws-")));
        const agent = startFakeAgent("permission-edit", { autoAnswer: { edit: "allow" }, workspaceRoots: [workspace], env: { FAKE_ACP_EDIT: path.join(workspace, "notes.txt") } });
        await agent.connection.prompt(prompt("go"));
        assert.equal(agent.asked.length, 0);
        assert.deepEqual(agent.eventsOf("permission_requested").map((event) => event.request.outsideWorkspace), [[]]);
        assert.deepEqual(answerOf(agent), { outcome: "selected", optionId: "proceed_once" });
      });
    });

    it("asks the user about a kind the setting does not name", async () => {
      const agent = startFakeAgent("permission", { autoAnswer: { read: "allow" } });
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the user is asked", () => agent.asked.length === 1);
      await agent.connection.cancel();
      await turn;
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "cancelled" });
    });

    it("answers an open request cancelled on Stop, and tells the host to close it", async () => {
      const agent = startFakeAgent("permission");
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the user is asked", () => agent.asked.length === 1);
      assert.equal(agent.asked[0].signal.aborted, false);
      await agent.connection.cancel();
      const outcome = await turn;
      assert.equal(outcome.status, "canceled");
      assert.equal(agent.asked[0].signal.aborted, true);
      assert.deepEqual(agent.records().find((record) => "permission" in record)?.permission, { outcome: "cancelled" });
      assert.deepEqual(agent.eventsOf("permission_answered").map((event) => event.decision.by), ["cancelled"]);
    });

    it("answers an open request cancelled when the conversation is closed", async () => {
      const agent = startFakeAgent("permission");
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the user is asked", () => agent.asked.length === 1);
      await agent.connection.dispose();
      assert.equal((await turn).status, "canceled");
      assert.deepEqual(agent.eventsOf("permission_answered").map((event) => event.decision.by), ["cancelled"]);
    });
  });

  describe("files", () => {
    it(`serves ${MAX_FILE_REQUESTS_AT_ONCE} file requests at once and answers each one more "busy", to be asked again`, async () => {
      const waiting: (() => void)[] = [];
      const files = new NodeWorkspaceFiles([]);
      const slow: WorkspaceFiles = {
        read: () => new Promise((resolve) => waiting.push(() => resolve("text"))),
        write: (target, content) => files.write(target, content),
      };
      const agent = startFakeAgent("fs-burst", { files: slow, env: { FAKE_ACP_BURST: "20", FAKE_ACP_READ: "/w/a.txt" } });
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the reads in hand wait", () => waiting.length === MAX_FILE_REQUESTS_AT_ONCE && agent.problems.length === 20 - MAX_FILE_REQUESTS_AT_ONCE);
      for (const release of waiting.splice(0)) release();
      assert.equal((await turn).status, "completed");
      const burst = agent.records().find((record) => "burst" in record)?.burst as unknown[];
      assert.deepEqual([burst.filter((code) => code === "ok").length, burst.filter((code) => code === -32000).length], [MAX_FILE_REQUESTS_AT_ONCE, 20 - MAX_FILE_REQUESTS_AT_ONCE]);
      assert.ok(agent.problems.every((problem) => problem.includes("refused for now")), agent.problems.join("\n"));
    });

    it("reads no more for an agent that leaves its answers unread, once they pass the bound", async () => {
      const big = path.join(os.tmpdir(), `acp-unread-${process.pid}.txt`);
      fs.writeFileSync(big, "x".repeat(2 * 1024 * 1024));
      try {
        const disk = new NodeWorkspaceFiles([os.tmpdir()]);
        let readsInHand = 0;
        let readsStarted = 0;
        const files: WorkspaceFiles = {
          read: (target, line, limit) => {
            readsInHand++;
            readsStarted++;
            return disk.read(target, line, limit).finally(() => readsInHand--);
          },
          write: (target, content) => disk.write(target, content),
        };
        const agent = startFakeAgent("fs-unread", { workspaceRoots: [os.tmpdir()], files, env: { FAKE_ACP_READS: "30", FAKE_ACP_READ: big } });
        void agent.connection.prompt(prompt("go"));
        // Every read is accounted for once each of the 30 was refused before it was read (too many in hand) or read
        // from the disk, and none is still being read: a read was then either answered or refused past the bound, and
        // a refusal is logged as it is made.
        const refusedInHand = () => agent.problems.filter((problem) => problem.includes("being served already")).length;
        await eventually("every read was asked and answered", () => readsStarted + refusedInHand() === 30 && readsInHand === 0, 20_000);
        assert.ok(agent.problems.some((problem) => problem.includes("has not read")), agent.problems.join("\n"));
        const served = readsStarted - agent.problems.filter((problem) => problem.includes("has not read")).length;
        // What was served waits unread: about the bound's worth, never the 60 MB asked for. The bound counts what waits
        // in this process; the agent's own process takes in a few MiB more before its paused stdin stops the pipe (3 to
        // 6 MiB seen on a loaded 2-core machine), which is the margin here.
        assert.ok(served * 2 <= MAX_UNREAD_ANSWER_BYTES / (1024 * 1024) + 4 * 2, `served ${served} reads of 2 MiB`);
      } finally {
        fs.rmSync(big, { force: true });
      }
    });

    it("keeps the answers an agent leaves unread under the bound when its reads come in one chunk and are served at once", async () => {
      // As large as a read's answer gets (4 MiB of text): two fit in the bound, and the eight served at once would be 32 MiB.
      const answer = "x".repeat(4 * 1024 * 1024);
      const served: string[] = [];
      // Files already read: each answer is ready before any earlier one was written to the agent.
      const files: WorkspaceFiles = {
        read: (target) => {
          served.push(target);
          return Promise.resolve(answer);
        },
        write: () => Promise.reject(new Error("no writes here")),
      };
      const agent = startFakeAgent("fs-unread-at-once", { files, env: { FAKE_ACP_READS: String(MAX_FILE_REQUESTS_AT_ONCE), FAKE_ACP_READ: "/w/a.txt" } });
      void agent.connection.prompt(prompt("go"));
      await eventually("every read was served", () => agent.text().includes("asked them all") && served.length === MAX_FILE_REQUESTS_AT_ONCE);
      const overBound = agent.problems.filter((problem) => problem.includes("refused for now: the agent has not read"));
      const answered = served.length - overBound.length;
      // None of them is read, though the agent's side may have taken the first before it stopped reading (its pipe and
      // its runtime's buffer): the answers given past that one fit in the bound.
      assert.ok((answered - 1) * answer.length <= MAX_UNREAD_ANSWER_BYTES, `${answered} answers of 4 MiB given, none read`);
      assert.ok(answered >= 1 && overBound.length >= 1, agent.problems.join("\n"));
      assert.match(overBound[0] ?? "", /^fs read of \/w\/a\.txt refused for now: the agent has not read [\d.]+ MiB of earlier answers; ask again once earlier requests are answered$/);
    });

    it("serves reads (line and limit) and writes (creating folders) inside the workspace", async () => {
      const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-ws-")));
      const [read, written] = [path.join(workspace, "a.txt"), path.join(workspace, "new/dir/b.txt")];
      fs.writeFileSync(read, "line 1\nline 2\nline 3\n");
      const agent = startFakeAgent("fs", { workspaceRoots: [workspace], env: { FAKE_ACP_READ: read, FAKE_ACP_WRITE: written } });
      await agent.connection.prompt(prompt("go"));
      assert.equal(agent.text(), `read ${read}: line 2\nwrote ${written}\n`);
      assert.equal(fs.readFileSync(written, "utf8"), "written by the agent\n");
      assert.deepEqual(agent.problems, []);
    });

    it("refuses paths outside the workspace: absolute, .. escapes and symlinks pointing out", async () => {
      const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-outside-")));
      fs.writeFileSync(path.join(outside, "secret.txt"), "one\ntwo\n");
      const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-ws-")));
      fs.symlinkSync(outside, path.join(workspace, "link"));
      const targets = [path.join(outside, "secret.txt"), `${workspace}/../${path.basename(outside)}/secret.txt`, path.join(workspace, "link/secret.txt")];
      const agent = startFakeAgent("fs", {
        workspaceRoots: [workspace],
        env: { FAKE_ACP_READ: targets.join(","), FAKE_ACP_WRITE: targets.map((target) => target.replace("secret", "planted")).join(",") },
      });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.equal((agent.text().match(/failed: -32602/g) ?? []).length, 6, agent.text());
      assert.deepEqual(fs.readdirSync(outside), ["secret.txt"]);
      assert.equal(agent.problems.length, 6);
      assert.ok(agent.problems.every((problem) => problem.includes("outside the workspace")), agent.problems.join("\n"));
    });

    it("tells the agent a missing file is not found", async () => {
      const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-ws-")));
      const agent = startFakeAgent("fs", { workspaceRoots: [workspace], env: { FAKE_ACP_READ: path.join(workspace, "missing.txt") } });
      await agent.connection.prompt(prompt("go"));
      assert.match(agent.text(), /read .*missing\.txt failed: -32002/);
    });

    it("refuses reads and writes once Stop was pressed, as it answers permission requests", async () => {
      const agent = startFakeAgent("fs-late", { env: { FAKE_ACP_FS_LATE: "stop" } });
      fs.writeFileSync(path.join(agent.workspace, "a.txt"), "secret\n");
      const turn = agent.connection.prompt(prompt("go"));
      await waitForRecord(agent, (record) => "fsLateStarted" in record, "the turn began");
      await agent.connection.cancel();
      assert.equal((await turn).status, "canceled");
      assert.deepEqual(agent.records().find((record) => "fsLate" in record), { fsLate: "after stop", read: -32800, write: -32800 });
      assert.ok(!fs.existsSync(path.join(agent.workspace, "late.txt")), "nothing written after Stop");
      assert.deepEqual(agent.problems, ["fs read of a.txt refused: the turn was stopped", "fs write of late.txt refused: the turn was stopped"]);
    });

    it("refuses reads and writes between turns", async () => {
      const agent = startFakeAgent("fs-late");
      fs.writeFileSync(path.join(agent.workspace, "a.txt"), "secret\n");
      assert.equal((await agent.connection.prompt(prompt("go"))).status, "completed");
      process.kill(agent.connection.pid as number, "SIGUSR2");
      const late = await waitForRecord(agent, (record) => "fsLate" in record, "the agent tried the files");
      assert.deepEqual(late, { fsLate: "between turns", read: -32800, write: -32800 });
      assert.ok(!fs.existsSync(path.join(agent.workspace, "late.txt")), "nothing written between turns");
      assert.deepEqual(agent.problems, ["fs read of a.txt refused: no turn is running", "fs write of late.txt refused: no turn is running"]);
    });
  });

  describe("errors", () => {
    const cases: [string, string][] = [
      ["error:401", "AUTH_EXPIRED"],
      ["error:auth", "AUTH_EXPIRED"],
      ["error:internal", "NETWORK_TIMEOUT"],
      ["error:context", "CONTEXT_LIMIT"],
      ["error:other", "UNKNOWN"],
    ];
    for (const [scenario, code] of cases) {
      it(`a JSON-RPC error like ${scenario.slice(6)} fails the turn with ${code}`, async () => {
        const outcome = await startFakeAgent(scenario).connection.prompt(prompt("go"));
        assert.equal(outcome.status === "failed" && outcome.error.code, code, JSON.stringify(outcome));
      });
    }

    it("shows an API's JSON error body (Gemini's 401) as its words, and names the key the agent was given", async () => {
      const environment = { env: { GEMINI_API_KEY: "not-shown" }, apiKeyVariables: ["GEMINI_API_KEY"], runsAsRoot: false };
      const outcome = await startFakeAgent("error:401", { environment }).connection.prompt(prompt("go"));
      assert.ok(outcome.status === "failed", JSON.stringify(outcome));
      assert.deepEqual(outcome.error.cause, { kind: "api-key-rejected", variable: "GEMINI_API_KEY" });
      assert.equal(outcome.error.message.split("\n")[0], "API key not valid. Please pass a valid API key. (HTTP 401, UNAUTHENTICATED)");
      assert.ok(!outcome.error.message.includes("not-shown"));
    });

    it("names claude-agent-acp's refusal to run as root, with the fix, and shows what it wrote on stderr, escaped", async () => {
      const agent = startFakeAgent("bypass-root", {
        env: { FAKE_ACP_STDERR: "[session/create] phase=prepare-query\n\x1b[31m<b>refused</b>\x1b[0m \x1b]0;title\x07\n" },
        environment: { env: { IS_SANDBOX: "yes" }, apiKeyVariables: [], runsAsRoot: true },
      });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.ok(outcome.status === "failed", JSON.stringify(outcome));
      assert.deepEqual(outcome.error.cause, { kind: "root-refused", variable: "IS_SANDBOX" });
      const [refusal, fix, heading, ...stderr] = outcome.error.message.split("\n");
      assert.match(refusal!, /cannot be used with root\/sudo privileges/);
      assert.match(fix!, /set IS_SANDBOX to 1 in agentStream\.cli\.env/);
      assert.equal(heading, "Its last output on stderr:");
      assert.deepEqual(stderr, ["[session/create] phase=prepare-query", "<b>refused</b> \\x1b]0;title\\x07"]);
    });

    it("shows only the stderr the agent wrote during the failed turn, not an earlier turn's", async () => {
      const agent = startFakeAgent("error:other", { env: { FAKE_ACP_STDERR: "starting up\n" } });
      const first = await agent.connection.prompt(prompt("one"));
      assert.match(first.status === "failed" ? first.error.message : "", /\nIts last output on stderr:\nstarting up$/);
      const second = await agent.connection.prompt(prompt("two"));
      assert.equal(second.status === "failed" && second.error.message, "Internal error: something odd");
    });

    it("ends a turn whose agent dies with PROCESS_CRASHED and its stderr, once", async () => {
      const agent = startFakeAgent("die");
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "failed");
      assert.ok(outcome.status === "failed" && outcome.error.code === "PROCESS_CRASHED", JSON.stringify(outcome));
      assert.match(outcome.status === "failed" ? outcome.error.message : "", /exited with code 3[\s\S]*the model client blew up/);
      assert.equal(agent.text(), "about to fail");
      assert.equal(agent.connection.pid, undefined);
    });

    it("starts a fresh agent for the prompt after a crash", async () => {
      const agent = startFakeAgent("die");
      await agent.connection.prompt(prompt("go"));
      const again = await agent.connection.prompt(prompt("again"));
      assert.equal(again.status === "failed" && again.error.code, "PROCESS_CRASHED");
      assert.equal(agent.records().filter((record) => "initialize" in record).length, 2);
    });

    it("reports lines that are not JSON-RPC as problems and goes on", async () => {
      const agent = startFakeAgent("garbage");
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.equal(agent.text(), "still here");
      assert.equal(agent.problems.length, 4, agent.problems.join("\n"));
      assert.match(agent.problems[0], /not JSON: "this is not json"/);
    });

    it("gives a bad line during a turn to the turn, with its line number, and one between turns to the log", async () => {
      const turnProblems: Problem[] = [];
      const agent = startFakeAgent("garbage", { onProblem: (problem) => turnProblems.push(problem) });
      await agent.connection.prompt(prompt("go"));
      assert.deepEqual(turnProblems.map((problem) => [problem.line, problem.code]), [[3, "MALFORMED_EVENT"], [4, "MALFORMED_EVENT"], [5, "MALFORMED_EVENT"], [6, "MALFORMED_EVENT"]]);
      assert.deepEqual(agent.problems, []);
      process.kill(agent.connection.pid as number, "SIGUSR2");
      await eventually("the late line in the log", () => agent.problems.length > 0);
      assert.deepEqual(agent.problems, ['line 9 of the agent\'s output: not JSON: "late garbage"']);
      assert.equal(turnProblems.length, 4);
    });

    it("fails with CLI_NOT_FOUND when the agent cannot be started", async () => {
      const agent = startFakeAgent("turns", { command: path.join(os.tmpdir(), "no-such-acp-agent") });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status === "failed" && outcome.error.code, "CLI_NOT_FOUND", JSON.stringify(outcome));
    });

    it("authenticates only when session/new asks for it, with the method the host chose", async () => {
      const agent = startFakeAgent("auth-required", { chooseAuthMethod: (methods) => methods[0].id });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.deepEqual(agent.records().filter((record) => "authenticate" in record), [{ authenticate: "api-key" }]);
    });

    it("fails with AUTH_EXPIRED when the agent needs a login the host cannot give", async () => {
      const agent = startFakeAgent("auth-required");
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status === "failed" && outcome.error.code, "AUTH_EXPIRED", JSON.stringify(outcome));
      await eventually("the useless agent is stopped", () => agent.connection.pid === undefined);
    });
  });

  describe("stopping", () => {
    it("Stop sends session/cancel, the turn ends stopped, and the agent stays warm", async () => {
      const agent = startFakeAgent("slow");
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the agent streams", () => agent.text().includes("tick 2"));
      const pid = agent.connection.pid as number;
      await agent.connection.cancel();
      assert.deepEqual(await turn, { status: "canceled", stopReason: "cancelled" });
      assert.ok(agent.records().some((record) => record.cancel === agent.connection.sessionId));
      assert.equal(agent.connection.pid, pid);
      assert.ok(isAlive(pid));
    });

    it("escalates to signals when the agent ignores session/cancel, and nothing of its tree survives", async () => {
      const agent = startFakeAgent("stubborn");
      const turn = agent.connection.prompt(prompt("go"));
      const pids = await waitForRecord(agent, (record) => "childPid" in record, "the agent started its child");
      await agent.connection.cancel();
      assert.equal((await turn).status, "canceled");
      await eventually("the agent and its child are gone", () => !isAlive(pids.stubbornPid as number) && !isAlive(pids.childPid as number));
      assert.ok(agent.records().some((record) => record.signal === "SIGINT"));
    });

    it("sends SIGKILL within Stop's 5 s with the default graces, as for Claude Code and pi", () => {
      const inBand = (grace: number) => grace + DEFAULT_STOP_GRACE_MS + DEFAULT_KILL_GRACE_MS;
      assert.equal(DEFAULT_CANCEL_GRACE_MS, IN_BAND_STOP_GRACE_MS);
      assert.ok(inBand(DEFAULT_CANCEL_GRACE_MS) + SIGKILL_MARGIN_MS <= STOP_PROMISE_MS, `SIGKILL only after ${inBand(DEFAULT_CANCEL_GRACE_MS)} ms`);
    });

    it("ends an agent that ignores session/cancel, SIGINT and SIGTERM, and its child, with the default graces", async () => {
      const agent = startFakeAgent("deaf", { cancelGraceMs: undefined, stopGraceMs: undefined, killGraceMs: undefined });
      const turn = agent.connection.prompt(prompt("go"));
      const pids = await waitForRecord(agent, (record) => "childPid" in record, "the agent started its child");
      void agent.connection.cancel();
      await eventually("the deaf agent and its child to be gone", () => !isAlive(pids.deafPid as number) && !isAlive(pids.childPid as number));
      assert.equal((await turn).status, "canceled");
      assert.ok(agent.records().some((record) => record.cancel === agent.connection.sessionId), "asked in band first");
      assert.deepEqual(agent.records().flatMap((record) => ("signal" in record ? [record.signal] : [])), ["SIGINT", "SIGTERM"]);
    });

    it("dispose ends the agent's whole process tree", async () => {
      const agent = startFakeAgent("stubborn");
      const turn = agent.connection.prompt(prompt("go"));
      const pids = await waitForRecord(agent, (record) => "childPid" in record, "the agent started its child");
      await agent.connection.dispose();
      assert.equal((await turn).status, "canceled");
      assert.ok(!isAlive(pids.stubbornPid as number) && !isAlive(pids.childPid as number));
    });

    it("ends an agent between turns by closing its stdin, so it can save its session and exit by itself", async () => {
      const agent = startFakeAgent("turns");
      await agent.connection.prompt(prompt("one"));
      const pid = agent.connection.pid as number;
      await agent.connection.dispose();
      assert.ok(!isAlive(pid));
      assert.deepEqual(agent.records().filter((record) => "stdinClosed" in record), [{ stdinClosed: pid }]);
      assert.ok(!agent.records().some((record) => "signal" in record));
    });

    it("still ends an agent that stays after its stdin closed, with the signals", async () => {
      const agent = startFakeAgent("turns", { env: { FAKE_ACP_IGNORE_EOF: "1" } });
      await agent.connection.prompt(prompt("one"));
      const pid = agent.connection.pid as number;
      await agent.connection.dispose();
      assert.ok(!isAlive(pid));
      assert.deepEqual(agent.records().filter((record) => "stdinClosed" in record), [{ stdinClosed: pid }]);
    });

    it("stops an idle agent after the idle time, and starts it again for the next prompt", async () => {
      const clock = new VirtualScheduler();
      const agent = startFakeAgent("turns", { idleStopMs: 200, scheduler: clock });
      await agent.connection.prompt(prompt("one"));
      const pid = agent.connection.pid as number;
      clock.advance(199);
      assert.equal(agent.connection.pid, pid, "not stopped before the idle time");
      clock.advance(1);
      await eventually("the idle agent is gone", () => !isAlive(pid));
      assert.equal(agent.connection.pid, undefined);
      const outcome = await agent.connection.prompt(prompt("two"));
      assert.equal(outcome.status, "completed");
      assert.notEqual(agent.connection.pid, pid);
    });
  });

  describe("the inactivity timeout", () => {
    // The timeout's clock is virtual: the test moves it, while the fake agent runs in real time.
    const TIMEOUT_MS = 1000;
    let clock: VirtualScheduler;
    beforeEach(() => (clock = new VirtualScheduler()));
    const stoppedForSilence = (agent: AcpHarness) => agent.infos.some((message) => message.includes("sent nothing"));

    it("fails a turn in which the agent goes silent with NETWORK_TIMEOUT, as a stream CLI's run, and stops the agent", async () => {
      const agent = startFakeAgent("silent", { inactivityTimeoutMs: TIMEOUT_MS, scheduler: clock });
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the agent's last words", () => agent.text() === "thinking it over");
      clock.advance(TIMEOUT_MS - 1);
      assert.equal(stoppedForSilence(agent), false, "not stopped before the timeout");
      clock.advance(1);
      const outcome = await turn;
      assert.deepEqual(outcome, {
        status: "failed",
        stopReason: null,
        error: { code: "NETWORK_TIMEOUT", message: "The CLI produced no output for 1.0 s and was stopped. Retry, or raise the inactivity timeout.", recoverable: false },
      });
      const { silentStarted } = await waitForRecord(agent, (record) => "silentStarted" in record, "the agent started the turn");
      assert.ok(!isAlive(silentStarted as number), "the silent agent is stopped");
      assert.equal(agent.text(), "thinking it over");
    });

    it("keeps timing from the agent's last message: an agent that keeps talking is never timed out", async () => {
      const agent = startFakeAgent("slow", { inactivityTimeoutMs: TIMEOUT_MS, scheduler: clock });
      const turn = agent.connection.prompt(prompt("go"));
      // Five times over, 900 ms pass and then the agent says something: the turn runs four and a half timeouts long.
      for (let i = 0; i < 5; i++) {
        const said = agent.text().length;
        await eventually("the agent's next message", () => agent.text().length > said);
        clock.advance(900);
        assert.equal(stoppedForSilence(agent), false, `timed out ${clock.now()} ms in`);
      }
      await agent.connection.cancel();
      assert.deepEqual(await turn, { status: "canceled", stopReason: "cancelled" });
    });

    it("does not count the time a permission request waits for the user", async () => {
      let answer!: (choice: PermissionChoice) => void;
      const agent = startFakeAgent("permission", { inactivityTimeoutMs: TIMEOUT_MS, scheduler: clock, decide: () => new Promise((resolve) => (answer = resolve)) });
      const turn = agent.connection.prompt(prompt("go"));
      await eventually("the user is asked", () => agent.asked.length === 1);
      // The user takes two timeouts to decide: the agent is silent all that while, waiting for the answer.
      clock.advance(2 * TIMEOUT_MS);
      answer({ optionId: agent.asked[0]!.request.options.find((o) => o.kind === "allow_once")!.id });
      const outcome = await turn;
      assert.equal(outcome.status, "completed");
      assert.equal(agent.text(), "ran it");
    });

    it("does not time the warm agent between turns", async () => {
      const agent = startFakeAgent("turns", { inactivityTimeoutMs: TIMEOUT_MS, scheduler: clock });
      await agent.connection.prompt(prompt("one"));
      const pid = agent.connection.pid as number;
      // Two timeouts of silence between the turns.
      clock.advance(2 * TIMEOUT_MS);
      assert.equal(stoppedForSilence(agent), false);
      assert.ok(isAlive(pid));
      assert.equal((await agent.connection.prompt(prompt("two"))).status, "completed");
      assert.equal(agent.connection.pid, pid);
    });
  });

  describe("continuing a saved session", () => {
    it("loads the saved session when the agent can, without replaying its history into the chat", async () => {
      const agent = startFakeAgent("load", { savedSessionId: "saved-7" });
      const outcome = await agent.connection.prompt(prompt("go"));
      assert.equal(outcome.status, "completed");
      assert.deepEqual(agent.records().filter((record) => "loadSession" in record || "newSession" in record), [{ loadSession: "saved-7" }]);
      assert.equal(agent.text(), "continued saved-7");
      assert.deepEqual(agent.eventsOf("session_ready").map((event) => [event.sessionId, event.continued]), [["saved-7", "loaded"]]);
    });

    it("loads the session when the resume it offers is answered \"Method not found\"", async () => {
      const agent = startFakeAgent("load", { savedSessionId: "saved-7", env: { FAKE_ACP_RESUME: "broken" } });
      assert.equal((await agent.connection.prompt(prompt("go"))).status, "completed");
      const asked = agent.records().filter((record) => "resumeSession" in record || "loadSession" in record || "newSession" in record);
      assert.deepEqual(asked, [{ resumeSession: "saved-7" }, { loadSession: "saved-7" }]);
      assert.deepEqual(agent.eventsOf("session_ready").map((event) => [event.sessionId, event.continued]), [["saved-7", "loaded"]]);
    });

    it("starts a new session, and says which one was lost, when the agent refuses to load the saved one", async () => {
      const agent = startFakeAgent("load", { savedSessionId: "saved-7", env: { FAKE_ACP_LOAD: "refuse" } });
      assert.equal((await agent.connection.prompt(prompt("go"))).status, "completed");
      const [ready] = agent.eventsOf("session_ready");
      assert.equal(ready?.continued, "new");
      assert.equal(ready?.lost, "saved-7");
      assert.notEqual(agent.connection.sessionId, "saved-7");
    });

    it("starts a new session when the agent cannot load one", async () => {
      const agent = startFakeAgent("turns", { savedSessionId: "saved-7" });
      await agent.connection.prompt(prompt("go"));
      assert.notEqual(agent.connection.sessionId, "saved-7");
      assert.deepEqual(agent.eventsOf("session_ready").map((event) => event.continued), ["new"]);
    });
  });
});
