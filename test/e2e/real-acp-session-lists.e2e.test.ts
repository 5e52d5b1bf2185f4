// The sessions real, published ACP agents keep themselves, as the Sessions view asks for them: after one turn through
// `agent-stream ask`, `session/list` (where the agent's initialize offers it) must list that session for the
// workspace folder, and `session/load` of it must replay its prompt as a turn. What each agent returned is printed, for
// docs/acp-agents.md.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { MockModelServer } from "../../scripts/recording/mock-model-server";
import { listAgentSessions, loadAgentSession, type AgentVisitOptions } from "../../src/acp/agent-sessions";
import { agentStream } from "../helpers/agent-stream-cli";
import * as cases from "./real-acp-agents";
import { agentVersionsOf, claudeAcpAgent, codexAcpAgent, qwenAgent, realAcpAgents } from "./real-acp-agents";

/** The pinned versions, and the newer ones the recorded fixtures also cover (test/fixtures/acp-recorded). */
const NEWER = [qwenAgent("0.24.4"), codexAcpAgent("2.6.0"), claudeAcpAgent("0.101.0")];
const agents = [...realAcpAgents(agentVersionsOf()), ...(agentVersionsOf() === "pinned" ? NEWER : [])];

for (const agent of agents) {
  describe(`the own sessions of real ${agent.title} ${agent.version} over ACP`, function () {
    this.timeout(600_000); // a first install from npm
    let mock: MockModelServer;
    let root: string;
    let home: string;
    let workspace: string;
    let executable: string;

    before(async () => {
      executable = ensureInstalled(agent.agent, agent.version);
      mock = await MockModelServer.start();
      root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-sessions-${agent.profile}-`)));
      home = path.join(root, "home");
      workspace = path.join(root, "workspace");
      fs.mkdirSync(home);
      fs.mkdirSync(workspace);
      agent.prepareHome({ home, workspace, port: mock.port });
    });
    after(async () => {
      await mock?.stop();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    const env = () => agent.agent.env({ home, workspace, port: mock.port });
    const visiting = (): AgentVisitOptions => ({
      command: executable,
      args: agent.args,
      env: env(),
      cwd: workspace,
      agent: { profile: agent.profile, displayName: agent.title },
      log: (message) => console.log(`    [${agent.profile}] ${message}`),
    });

    it("lists the session of a turn run before (where it offers session/list), and session/load replays its prompt", async () => {
      mock.script([agent.api.answer(cases.FIRST_ANSWER_CHUNKS)], agent.api.answer(cases.DONE_CHUNKS), agent.sideRequests);
      const args = ["ask", "--json", "--profile", agent.profile, "--cli", executable, ...agent.args.map((arg) => `--arg=${arg}`), "--cwd", workspace, "--approve", "reject", "--", cases.FIRST_PROMPT];
      const run = await agentStream(args, { env: env() });
      assert.equal(run.code, 0, run.stderr);
      const listed = await listAgentSessions(visiting());
      console.log(`    [${agent.profile}] session/list: ${JSON.stringify(listed?.map((s) => ({ id: s.acpSessionId, title: s.summary.title, updatedAt: s.summary.updatedAt })) ?? "not offered")}`);
      if (listed === undefined) return;
      assert.ok(listed.length >= 1, "the turn's session is listed");
      const loaded = await loadAgentSession(visiting(), listed[0]!.acpSessionId).catch((error: Error) => error);
      console.log(
        `    [${agent.profile}] session/load: ${loaded instanceof Error ? `failed: ${loaded.message}` : JSON.stringify(loaded?.turns.map((turn) => ({ prompt: turn.prompt, blocks: turn.blocks.map((b) => b.kind) })))}`,
      );
      assert.ok(!(loaded instanceof Error), String(loaded));
      assert.deepEqual(
        loaded?.turns.map((turn) => turn.prompt),
        [cases.FIRST_PROMPT],
      );
    });
  });
}
