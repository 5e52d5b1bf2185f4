// A message steered into the running turn of the real, published Claude Code and pi (from the recording cache),
// each run as its profile runs it, against our mock model server on 127.0.0.1: the model hears the message in the
// same run, the run answers it, and only then does it end. Facts: docs/protocols/claude-stream-json.md, pi-json-mode.md.
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { openaiStream } from "../../scripts/recording/openai-replies";
import { SLOW_DELTA_DELAY_MS, STEER_ANSWER_CHUNKS, STEER_FIRST_MESSAGE, STEER_INTRO_CHUNKS, STEER_MESSAGE } from "../../scripts/recording/scenario-texts";
import { createAdapter } from "../../src/dialects/registry";
import { agentCommand } from "../../src/profiles/profile-registry";
import { LiveSession } from "../../src/session/live-session";
import { CLAUDE, PI, type RealCli } from "./real-clis";

/** The first answer streams slowly (text only), so the message arrives while it does; the second answers both. */
const REPLIES: Readonly<Record<string, (chunks: readonly string[], slow: boolean) => MockReply>> = {
  claude: (chunks, slow) => anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn", ...(slow ? { deltaDelayMs: SLOW_DELTA_DELAY_MS } : {}) }),
  pi: (chunks, slow) => openaiStream({ content: chunks, finishReason: "stop", ...(slow ? { deltaDelayMs: SLOW_DELTA_DELAY_MS } : {}) }),
};

for (const cli of [CLAUDE, PI] satisfies RealCli[]) {
  describe(`a message steered into real ${cli.title} ${cli.version}'s running turn`, function () {
    this.timeout(600_000); // a first install from npm
    let mock: MockModelServer;
    let home: string;
    let workspace: string;
    let executable: string;

    before(async () => {
      executable = ensureInstalled(cli.agent, cli.version);
      mock = await MockModelServer.start();
      home = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-steer-${cli.agent.name}-home-`));
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-steer-${cli.agent.name}-workspace-`));
      cli.agent.prepareHome({ home, workspace, port: mock.port }, { name: "steer", description: "", args: () => [], replies: () => [] });
    });
    after(async () => {
      await mock?.stop();
      for (const folder of [home, workspace]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
    });

    it("reaches the model in the same run, which answers it before it ends", async () => {
      const reply = REPLIES[cli.agent.name];
      assert.ok(reply);
      let heard = "";
      const answer = reply(STEER_ANSWER_CHUNKS, false);
      mock.script([reply(STEER_INTRO_CHUNKS, true), (request, response) => ((heard = JSON.stringify(request.body)), answer(request, response))], reply(["Nothing more."], false));
      const choice = { cliPath: executable, cliArgs: cli.args, cliProfile: cli.agent.name as "claude" | "pi", dialect: "auto" as const };
      const command = agentCommand(choice, STEER_FIRST_MESSAGE, { id: randomUUID(), continues: false, stateDir: home });
      let live: LiveSession | undefined;
      let steered: boolean | undefined;
      live = LiveSession.start({
        adapter: createAdapter(command.dialect),
        process: { command: command.command, args: command.args, env: cli.agent.env({ home, workspace, port: mock.port }), input: command.input, cwd: workspace },
        isRunOver: command.isRunOver,
        permissionChannel: command.permissionChannel,
        onChange: (change) => {
          if (change.kind === "text-appended" && steered === undefined) steered = live?.steer(STEER_MESSAGE);
        },
      });
      const transcript = await live.finished;
      assert.equal(steered, true, "the run took the message");
      assert.equal(transcript.status, "completed");
      assert.ok(heard.includes(STEER_MESSAGE), `the second model request carried the steered message: ${heard.slice(-400)}`);
      assert.equal(mock.requestLog.filter((request) => request.path.startsWith("/v1/")).length, 2, "the first answer, then the steered message's");
      assert.deepEqual(transcript.blocks.filter((block) => block.kind === "steer"), [{ kind: "steer", text: STEER_MESSAGE }]);
      const text = transcript.blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])).join("");
      assert.ok(text.includes(STEER_ANSWER_CHUNKS.join("")), `the steered message's answer is in the turn:\n${text}`);
    });
  });
}
