// `agent-stream ask --json` on real, published ACP agents (from the agent CLI cache) against our mock model server on
// 127.0.0.1: a streamed answer, a write and a shell command allowed and rejected, their cards, a mode chosen with
// --mode, a 401, a follow-up that remembers the first turn, and Stop mid-answer with nothing of the agent left running.
// The pinned versions by default; AGENT_STREAM_ACP_VERSIONS=latest runs the same cases on the versions `npm view`
// gives today (`npm run test:e2e:latest-agents`). Facts: docs/acp-agents.md.
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { AcpConversation } from "../../src/acp/acp-conversation";
import { LOST_SESSION_MESSAGE } from "../../src/dialects/acp/acp-event-translator";
import { NodeWorkspaceFiles } from "../../src/acp/workspace-files";
import { acpTransportOf } from "../../src/profiles/cli-profile";
import { resolveProfile, type ProfileSetting } from "../../src/profiles/profile-registry";
import { CliStreamEventSchema, type CliStreamEvent, type EventOfType } from "../../src/protocol/events";
import type { TranscriptBlock } from "../../src/protocol/transcript";
import { agentStream, finishAgentStream, startAgentStream, type AgentStreamResult } from "../helpers/agent-stream-cli";
import { whenEmpty } from "../helpers/escapees";
import { runningWithEnvironment } from "./processes";
import { cancellingDesk } from "../helpers/acp-harness";
import * as cases from "./real-acp-agents";
import { agentVersionsOf, realAcpAgents } from "./real-acp-agents";
import { SLOW_DELTA_DELAY_MS, slowAnswerChunks } from "../../scripts/recording/scenario-texts";

const GONE_DEADLINE_MS = 10_000;

/*
 * What each agent makes of a session saved by an earlier process (its stdin closed between turns, as Delete Session and
 * the idle stop do), and whether it asks before writing outside the workspace, are measured per version
 * (`agent.measured`): a change in a new release fails the test so the docs can be corrected.
 *
 * Gemini CLI names a session's file by the minute the session began (`session-<minute>-<id>.jsonl`), and its
 * `session/load` starts a new record of the session before it reads the saved one. In the minute the session began
 * that record goes into the same file and empties it: the load finds nothing ("No previous sessions found"). In a
 * later minute the record has a file of its own, and the load works.
 */
for (const agent of realAcpAgents(agentVersionsOf())) {
  describe(`agent-stream ask --json on real ${agent.title} ${agent.version} over ACP`, function () {
    this.timeout(600_000); // a first install from npm
    let mock: MockModelServer;
    let home: string;
    let workspace: string;
    let executable: string;
    let requests: string;
    /** In the agent's environment, so /proc tells which processes are the agent's and what it started. */
    let marker: string;

    before(async () => {
      executable = ensureInstalled(agent.agent, agent.version);
      mock = await MockModelServer.start();
      const root = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-ask-${agent.profile}-`));
      home = path.join(root, "home");
      requests = path.join(root, "requests");
      fs.mkdirSync(home);
      marker = `AGENT_STREAM_E2E_RUN=${randomUUID()}`;
    });
    beforeEach(() => {
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-ask-${agent.profile}-workspace-`));
      agent.prepareHome({ home, workspace, port: mock.port });
      fs.rmSync(requests, { recursive: true, force: true });
      mock.dumpRequestsTo(requests);
    });
    afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));
    after(async () => {
      await mock?.stop();
      if (home) fs.rmSync(path.dirname(home), { recursive: true, force: true });
    });

    const { api } = agent;
    const script = (replies: MockReply[], otherwise: MockReply = api.answer(cases.DONE_CHUNKS)) => mock.script(replies, otherwise, agent.sideRequests);
    const askArgs = (approve: string, prompts: string[], flags: string[] = []) => [
      "ask",
      "--json",
      "--profile",
      agent.profile,
      "--cli",
      executable,
      ...agent.args.map((arg) => `--arg=${arg}`),
      "--cwd",
      workspace,
      "--approve",
      approve,
      ...flags,
      "--",
      ...prompts,
    ];
    const env = () => {
      const [name, value] = marker.split("=") as [string, string];
      return { ...agent.agent.env({ home, workspace, port: mock.port }), [name]: value };
    };
    const ask = (approve: string, ...prompts: string[]) => agentStream(askArgs(approve, prompts), { env: env() });
    /** The bodies of the conversation's model requests, without the agent's side requests (a session's title). */
    const conversationRequests = () =>
      dumpedRequests(requests)
        .filter(({ request }) => !agent.sideRequests.some((side) => side.matches({ ...request, clientGone: () => false })))
        .map(({ body }) => body);

    it("streams the model's answer, and the stream passes check", async () => {
      script([api.answer(cases.ANSWER_CHUNKS)]);
      const run = await ask("reject", cases.ANSWER_PROMPT);
      const events = await checked(run);
      // codex-acp puts Codex's warnings in the answer ("Model metadata for `mock-model` not found…") before it.
      const text = textOf(events);
      assert.ok(text.endsWith(cases.ANSWER_CHUNKS.join("")), text);
      assert.ok(events.filter((e) => e.type === "text_delta").length >= 1);
      assert.deepEqual(dones(events).map((d) => d.payload.status ?? "completed"), ["completed"]);
      assert.equal(run.code, 0);
    });

    it("writes the file when --approve allow answers the permission request", async () => {
      if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
      script([agent.writeFile(workspace)]);
      const run = await ask("allow", cases.WRITE_PROMPT);
      const events = await checked(run);
      assert.deepEqual(permissionAnswers(events), ["allowed"], run.stdout);
      assert.equal(fs.readFileSync(path.join(workspace, cases.WRITTEN_FILE), "utf8"), cases.WRITTEN_TEXT);
    });

    it("leaves the file as it was (or absent) when --approve reject answers the permission request", async () => {
      if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
      script([agent.writeFile(workspace)]);
      const run = await ask("reject", cases.WRITE_PROMPT);
      const events = await checked(run);
      assert.deepEqual(permissionAnswers(events), ["rejected"], run.stdout);
      assert.equal(readIfThere(path.join(workspace, cases.WRITTEN_FILE)), agent.writeOver);
    });

    // codex-acp writes with an apply_patch heredoc whose file is relative to the workspace: it cannot be sent elsewhere.
    if (agent.measured.asksBeforeWritingOutside !== null) {
      it("cancels, under --approve allow, a write outside the workspace: the request names the file, nothing is written", async () => {
        const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-ask-${agent.profile}-elsewhere-`));
        const file = path.join(elsewhere, cases.WRITTEN_FILE);
        try {
          script([agent.writeFile(elsewhere)]);
          const run = await ask("allow", cases.WRITE_PROMPT);
          const events = await checked(run);
          const outside = events.flatMap((e) => (e.type === "permission_requested" ? [e.payload.outsideWorkspace ?? []] : []));
          if (agent.measured.asksBeforeWritingOutside) {
            assert.ok(outside.length > 0 && outside.every((paths) => paths.includes(file)), run.stdout);
            assert.deepEqual(permissionAnswers(events), outside.map(() => "cancelled"), run.stdout);
          } else {
            assert.deepEqual(outside, [], run.stdout);
          }
          assert.equal(fs.existsSync(file), false);
        } finally {
          fs.rmSync(elsewhere, { recursive: true, force: true });
        }
      });
    }

    it("runs the shell command when --approve allow answers the permission request", async () => {
      script([agent.runShell(workspace)]);
      const events = await checked(await ask("allow", cases.SHELL_PROMPT));
      assert.deepEqual(permissionAnswers(events), ["allowed"]);
      assert.equal(fs.readFileSync(path.join(workspace, cases.SHELL_FILE), "utf8"), "ran\n");
    });

    it("does not run the shell command when --approve reject answers the permission request", async () => {
      script([agent.runShell(workspace)]);
      const events = await checked(await ask("reject", cases.SHELL_PROMPT));
      assert.deepEqual(permissionAnswers(events), ["rejected"]);
      assert.equal(fs.existsSync(path.join(workspace, cases.SHELL_FILE)), false);
    });

    it("shows the edit's diff and the command's output on their cards when --approve allow answers", async () => {
      if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
      script([agent.writeFile(workspace), agent.runPrintingCommand(workspace)]);
      const run = await ask("allow", cases.WRITE_PROMPT);
      const events = await checked(run);
      assert.deepEqual(permissionAnswers(events), ["allowed", "allowed"], run.stdout);
      const updates = events.filter((e): e is EventOfType<"tool_updated"> => e.type === "tool_updated");
      // What the edit's card shows at the end: the last diffs its updates said (a later update replaces them).
      const edits = new Set(updates.flatMap((e) => (e.payload.diffs ?? []).some((diff) => diff.path.endsWith(cases.WRITTEN_FILE)) ? [e.payload.toolId] : []));
      assert.equal(edits.size, 1, run.stdout);
      const shown = updates.filter((e) => edits.has(e.payload.toolId) && e.payload.diffs !== undefined).at(-1)?.payload.diffs ?? [];
      assert.ok(shown.some((diff) => diff.path.endsWith(cases.WRITTEN_FILE) && diff.newText === cases.WRITTEN_TEXT), run.stdout);
      const outputs = updates.filter((e) => e.payload.status === "completed" && e.payload.kind === "execute").map((e) => e.payload.output ?? "");
      const printed = outputs.some((output) => output.includes(cases.PRINTED_TEXT));
      assert.equal(printed, agent.measured.showsCommandOutput, `outputs: ${JSON.stringify(outputs)}\n${run.stdout}`);
      assert.equal(fs.readFileSync(path.join(workspace, "printed.txt"), "utf8"), `${cases.PRINTED_TEXT}\n`);
      assert.equal(fs.readFileSync(path.join(workspace, cases.WRITTEN_FILE), "utf8"), cases.WRITTEN_TEXT);
    });

    const selfApproving = agent.selfApprovingMode;
    if (selfApproving !== null && selfApproving.refused === undefined) {
      it(`writes without asking in mode ${selfApproving.id}, chosen with --mode, and the turn says the agent approves by itself`, async () => {
        if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
        script([agent.writeFile(workspace)]);
        const run = await agentStream(askArgs("reject", [cases.WRITE_PROMPT], ["--mode", selfApproving.id]), { env: env() });
        const events = await checked(run);
        assert.deepEqual(permissionAnswers(events), [], run.stdout);
        const notes = events.flatMap((e) => (e.type === "status" && e.payload.status === "mode" ? [e.payload.message] : []));
        assert.equal(notes.length, 1, run.stdout);
        assert.ok(notes[0]?.includes(`(${selfApproving.id}), in which it approves edits or commands by itself`), notes[0]);
        assert.equal(fs.readFileSync(path.join(workspace, cases.WRITTEN_FILE), "utf8"), cases.WRITTEN_TEXT);
      });
    }
    if (selfApproving?.refused !== undefined) {
      const refused = selfApproving.refused;
      it(`fails the turn, with the agent's reason, when it refuses mode ${selfApproving.id} chosen with --mode`, async () => {
        if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
        script([agent.writeFile(workspace)]);
        const run = await agentStream(askArgs("reject", [cases.WRITE_PROMPT], ["--mode", selfApproving.id]), { env: env() });
        const events = await checked(run);
        const errors = events.flatMap((e) => (e.type === "error" ? [e.payload.error.message] : []));
        assert.equal(errors.length, 1, run.stdout);
        assert.ok(errors[0]?.startsWith(`The agent did not switch to mode ${selfApproving.id} (it answered`) && errors[0].includes(refused), errors[0]);
        assert.equal(readIfThere(path.join(workspace, cases.WRITTEN_FILE)), agent.writeOver);
        assert.notEqual(run.code, 0);
      });
    }

    it("reports a 401 from the model as AUTH_EXPIRED", async () => {
      script([], api.invalidKey());
      const run = await ask("reject", cases.ANSWER_PROMPT);
      const events = await checked(run);
      const codes = events.flatMap((e) => (e.type === "error" ? [e.payload.error.code] : []));
      assert.ok(codes.includes("AUTH_EXPIRED"), `errors: ${JSON.stringify(codes)}\n${run.stdout}`);
      assert.deepEqual(dones(events).map((d) => d.payload.success), [false]);
      assert.notEqual(run.code, 0);
    });

    it("sends the first turn's prompt and answer with the follow-up", async () => {
      script([api.answer(cases.FIRST_ANSWER_CHUNKS), api.answer(cases.FOLLOW_UP_CHUNKS)]);
      const events = await checked(await ask("reject", cases.FIRST_PROMPT, cases.FOLLOW_UP_PROMPT));
      assert.deepEqual(dones(events).map((d) => d.payload.status ?? "completed"), ["completed", "completed"]);
      const followUp = conversationRequests().filter((body) => body.includes(cases.FOLLOW_UP_PROMPT));
      assert.ok(followUp.length >= 1, "the mock saw the follow-up");
      for (const body of followUp) {
        assert.ok(body.includes(cases.FIRST_PROMPT) && body.includes(cases.FIRST_ANSWER), "the follow-up's request carries the first turn");
      }
    });

    /** Runs one turn in an agent process of its own, as the panel does, then ends it as deleting its session does. */
    const turnInItsOwnProcess = async (prompt: string, seen: SessionsSeen, savedSessionId?: string) => {
      const transport = acpTransportOf(resolveProfile(agent.profile as ProfileSetting, null));
      const conversation = new AcpConversation({
        command: executable,
        args: agent.args,
        env: env(),
        workspaceRoots: [workspace],
        files: new NodeWorkspaceFiles([workspace]),
        permissions: cancellingDesk([workspace]),
        chooseAuthMethod: (methods) => transport?.authMethods.find((id) => methods.some((m) => m.id === id)),
        modeRule: transport?.modes,
        savedSessionId,
        onSession: (sessionId, continued) => seen.sessions.push({ sessionId, continued }),
        log: { info: (m) => seen.log.push(m), problem: (m) => seen.log.push(m) },
      });
      let turn;
      try {
        turn = await conversation.prompt([{ type: "text", text: prompt }]).finished;
      } finally {
        await conversation.dispose();
      }
      assert.deepEqual(await whenEmpty(() => runningWithEnvironment(marker), GONE_DEADLINE_MS), [], "the agent process is gone");
      assert.equal(turn.status, "completed", seen.log.join("\n"));
      return turn;
    };
    const followUpRequests = () => {
      const followUp = conversationRequests().filter((body) => body.includes(cases.FOLLOW_UP_PROMPT));
      assert.ok(followUp.length >= 1, "the mock saw the follow-up");
      return { remembered: (what: string) => followUp.every((body) => body.includes(what)) };
    };

    it(`continues the session in a new agent process as a reloaded window's follow-up does: ${agent.measured.reload}`, async () => {
      script([api.answer(cases.FIRST_ANSWER_CHUNKS), api.answer(cases.FOLLOW_UP_CHUNKS)]);
      const seen: SessionsSeen = { sessions: [], log: [] };
      await turnInItsOwnProcess(cases.FIRST_PROMPT, seen);
      const saved = seen.sessions[0]?.sessionId ?? assert.fail("the first process opened a session");
      // A window is seldom reloaded in the minute its conversation began; the case below is that one.
      if (agent.measured.losesSessionLoadedInItsFirstMinute) await untilTheMinuteAfter(Date.now());

      const followUpTurn = await turnInItsOwnProcess(cases.FOLLOW_UP_PROMPT, seen, saved);
      const context = `${JSON.stringify(seen.sessions)}\n${seen.log.join("\n")}`;
      assert.equal(seen.sessions[1]?.sessionId, saved, context);
      assert.match(seen.sessions[1]?.continued ?? "", /^(resumed|loaded)$/, context);
      assert.deepEqual(statusNotes(followUpTurn.blocks), []);
      const { remembered } = followUpRequests();
      assert.ok(remembered(cases.FIRST_PROMPT), "the new process's request carries the first prompt");
      assert.equal(remembered(cases.FIRST_ANSWER), agent.measured.reload === "remembers the first turn", "…and the first answer");
    });

    if (agent.measured.losesSessionLoadedInItsFirstMinute) {
      it("starts a new session, and the turn says so, when the new process loads the session in the minute it began", async () => {
        script([api.answer(cases.FIRST_ANSWER_CHUNKS), api.answer(cases.FOLLOW_UP_CHUNKS)]);
        await untilRoomLeftInTheMinute(SAME_MINUTE_ROOM_MS);
        const began = minuteOf(Date.now());
        const seen: SessionsSeen = { sessions: [], log: [] };
        await turnInItsOwnProcess(cases.FIRST_PROMPT, seen);
        const saved = seen.sessions[0]?.sessionId ?? assert.fail("the first process opened a session");
        const followUpTurn = await turnInItsOwnProcess(cases.FOLLOW_UP_PROMPT, seen, saved);
        assert.equal(minuteOf(Date.now()), began, "both turns ran within one minute of the clock, as this case needs");

        assert.deepEqual(seen.sessions.map((s) => s.continued), ["new", "new"], seen.log.join("\n"));
        assert.deepEqual(statusNotes(followUpTurn.blocks), [LOST_SESSION_MESSAGE], "the chat says the agent starts afresh");
        assert.equal(followUpRequests().remembered(cases.FIRST_PROMPT), false);
      });
    }

    it("stops mid-answer on SIGINT: the turn is canceled and no process of the agent is left", async () => {
      script([api.answer(slowAnswerChunks(), SLOW_DELTA_DELAY_MS)]);
      const child = startAgentStream(askArgs("reject", [cases.SLOW_PROMPT]), { env: env() });
      let seen = "";
      const firstText = new Promise<void>((resolve) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          seen += chunk.toString("utf8");
          if (seen.includes('"type":"text_delta"')) resolve();
        });
        // An ask that ends before any text fails the assertions below rather than waiting for mocha's timeout.
        child.once("close", () => resolve());
      });
      const finished = finishAgentStream(child);
      await firstText;
      child.kill("SIGINT");
      const run = await finished;
      const events = await checked({ ...run, stdout: seen });
      assert.deepEqual(dones(events).map((d) => d.payload.status), ["canceled"]);
      assert.deepEqual(await whenEmpty(() => runningWithEnvironment(marker), GONE_DEADLINE_MS), [], "no process of the agent is left");
    });
  });
}

/** Parses the NDJSON (every line a valid event) and has `agent-stream check` accept it. */
interface SessionsSeen {
  sessions: Array<{ sessionId: string; continued: string }>;
  log: string[];
}

function statusNotes(blocks: readonly TranscriptBlock[]): Array<string | null> {
  return blocks.flatMap((block) => (block.kind === "status" ? [block.message] : []));
}

const MINUTE_MS = 60_000;
/** Time the same-minute case leaves itself for two turns, each in a new agent process (about 4 s each here). */
const SAME_MINUTE_ROOM_MS = 30_000;

function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

/** Waits for the wall clock, which Gemini CLI names its session files by, to turn to the minute after `ms`. */
async function untilTheMinuteAfter(ms: number): Promise<void> {
  while (minuteOf(Date.now()) <= minuteOf(ms)) {
    await new Promise((resolve) => setTimeout(resolve, (minuteOf(ms) + 1) * MINUTE_MS - Date.now() + 1));
  }
}

async function untilRoomLeftInTheMinute(roomMs: number): Promise<void> {
  if (MINUTE_MS - (Date.now() % MINUTE_MS) < roomMs) await untilTheMinuteAfter(Date.now());
}

async function checked(run: AgentStreamResult): Promise<CliStreamEvent[]> {
  const lines = run.stdout.split("\n").filter((line) => line.trim() !== "");
  const events = lines.map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
  const check = await agentStream(["check", "-"], { stdin: run.stdout });
  assert.equal(check.stdout, "", `check reports no problem; stderr of ask:\n${run.stderr}`);
  assert.equal(check.code, 0);
  return events;
}

function textOf(events: readonly CliStreamEvent[]): string {
  return events.flatMap((e) => (e.type === "text_delta" ? [e.payload.content] : [])).join("");
}

function dones(events: readonly CliStreamEvent[]): EventOfType<"done">[] {
  return events.filter((e): e is EventOfType<"done"> => e.type === "done");
}

function permissionAnswers(events: readonly CliStreamEvent[]): string[] {
  return events.flatMap((e) => (e.type === "permission_answered" ? [e.payload.decision] : []));
}

/** The requests the mock dumped, in the order it saw them, each with its body as JSON text. */
function dumpedRequests(folder: string): Array<{ request: { method: string; path: string; body: unknown }; body: string }> {
  if (!fs.existsSync(folder)) return [];
  const names = fs.readdirSync(folder).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  return names.map((name) => {
    const dumped = JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")) as { method: string; url: string; body: unknown };
    return { request: { method: dumped.method, path: dumped.url, body: dumped.body }, body: JSON.stringify(dumped.body) };
  });
}

function readIfThere(file: string): string | null {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
}
