// A Claude Code session started outside the extension (`claude -p` in a terminal, the real, published Claude Code from
// the recording cache, against our mock model on 127.0.0.1) is found in Claude's own store by the Sessions view's
// reader, shown as its turns, and continued through the `claude` profile as the panel runs it (`--resume <its id>`):
// the model is sent the first turn. Nothing in the store is changed by listing and reading it.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { SHORT_ANSWER_CHUNKS } from "../../scripts/recording/scenario-texts";
import { createAdapter } from "../../src/dialects/registry";
import { agentCommand } from "../../src/profiles/profile-registry";
import { LiveSession } from "../../src/session/live-session";
import { listClaudeSessions, readClaudeSession } from "../../src/sessions/claude-code-sessions";
import { CLAUDE, FIRST_PROMPT, FOLLOW_UP_ANSWER, FOLLOW_UP_PROMPT } from "./real-clis";

const FIRST_ANSWER_CHUNKS = ["Hi! I will ", "keep that word in mind."];

describe(`Claude Code ${CLAUDE.version}'s own sessions, listed, read and continued`, function () {
  this.timeout(600_000); // a first install from npm
  let mock: MockModelServer;
  let root: string;
  let home: string;
  let workspace: string;
  let executable: string;

  before(async () => {
    executable = ensureInstalled(CLAUDE.agent, CLAUDE.version);
    mock = await MockModelServer.start();
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-claude-sessions-")));
    home = path.join(root, "home");
    workspace = path.join(root, "my.project");
    fs.mkdirSync(home);
    fs.mkdirSync(workspace);
  });
  after(async () => {
    await mock?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("lists a session run with claude -p outside, shows its turn, and continues it with --resume: the model sees the first turn", async () => {
    const env = CLAUDE.agent.env({ home, workspace, port: mock.port });
    const bodies: unknown[] = [];
    const keeping = (reply: MockReply): MockReply => (request, response) => {
      bodies.push(request.body);
      return reply(request, response);
    };
    const answer = (chunks: readonly string[]) => keeping(anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn" }));
    mock.script([answer(FIRST_ANSWER_CHUNKS)], answer(SHORT_ANSWER_CHUNKS), CLAUDE.agent.sideRequests);
    await promisify(execFile)(executable, ["-p", "--", FIRST_PROMPT], { cwd: workspace, env });

    const store = path.join(home, ".claude", "projects");
    const before = filesOf(store);
    const [session, ...others] = await listClaudeSessions(workspace, home);
    assert.deepEqual(others, []);
    assert.equal(session?.title, FIRST_PROMPT);
    assert.equal(session?.source, "claude-code");
    const history = await readClaudeSession(workspace, home, session.id);
    assert.deepEqual(
      history?.turns.map((turn) => [turn.prompt, turn.blocks]),
      [[FIRST_PROMPT, [{ kind: "text", text: FIRST_ANSWER_CHUNKS.join("") }]]],
    );
    assert.deepEqual(filesOf(store), before, "listing and reading changed nothing in Claude's store");

    mock.script([answer(["You asked me ", "to remember kumquat."])], answer(SHORT_ANSWER_CHUNKS), CLAUDE.agent.sideRequests);
    bodies.length = 0;
    // As the panel continues a Claude session: the agent-session reference { conversationId: <its id>, spoke: true }.
    const cli = agentCommand(
      { cliPath: executable, cliArgs: CLAUDE.args, cliProfile: "claude", dialect: "auto" },
      FOLLOW_UP_PROMPT,
      { id: session.id, continues: true, stateDir: root },
    );
    assert.ok(cli.args.includes("--resume") && cli.args.includes(session.id), cli.args.join(" "));
    const live = LiveSession.start({
      adapter: createAdapter(cli.dialect),
      process: { command: cli.command, args: cli.args, cwd: workspace, env, input: cli.input },
      isRunOver: cli.isRunOver,
    });
    const transcript = await live.finished;
    assert.equal(transcript.status, "completed", JSON.stringify(transcript.problems));
    const answerText = transcript.blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])).join("");
    assert.ok(answerText.includes(FOLLOW_UP_ANSWER), answerText);
    const sent = JSON.stringify(bodies.at(-1));
    assert.ok(sent.includes(FIRST_PROMPT) && sent.includes(FIRST_ANSWER_CHUNKS.join("")), `the follow-up's request carries the first turn: ${sent.slice(0, 2000)}`);

    const [continued, ...more] = await listClaudeSessions(workspace, home);
    assert.deepEqual(more, [], "--resume wrote into the same session");
    assert.deepEqual([continued?.id, continued?.turnCount], [session.id, 2]);
  });
});

/** Every file under `folder` with its size, time and bytes. */
function filesOf(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const stats = fs.statSync(file);
      return `${path.relative(folder, file)} ${stats.size} ${stats.mtimeMs} ${fs.readFileSync(file, "base64")}`;
    })
    .sort();
}
