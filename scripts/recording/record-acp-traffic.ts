// `npm run record-acp-traffic [-- qwen|claude-acp]...`: records real ACP agents' traffic for the `acp` dialect's
// fixtures. Each case runs `agent-stream ask --json` (dist/cli.js: build first) on the real agent from the agent CLI
// cache, against the mock model server on 127.0.0.1, with test/fake-clis/acp-tee.js in between logging both
// directions. Written to test/fixtures/acp-recorded/<agent>/<version>/: <case>.ndjson (the tee's log: what
// `--dialect acp` replays) and <case>.ask.ndjson (what `ask --json` printed of the same run), with the throwaway
// workspace's path replaced by /workspace in both.
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as cases from "../../test/e2e/real-acp-agents";
import { CLAUDE_ACP, QWEN, type RealAcpAgent } from "../../test/e2e/real-acp-agents";
import { ensureInstalled } from "./agent-cli-cache";
import { MockModelServer, type MockReply } from "./mock-model-server";

const REPO = path.resolve(__dirname, "..", "..", "..");
const TEE = path.join(REPO, "test", "fake-clis", "acp-tee.js");
const CLI = path.join(REPO, "dist", "cli.js");
const STABLE_WORKSPACE = "/workspace";

interface TrafficCase {
  name: string;
  approve: "allow" | "reject";
  prompts: string[];
  replies: (agent: RealAcpAgent, workspace: string) => MockReply[];
  /** What the mock answers once the replies are used up: by default a short "Done.". */
  otherwise?: (agent: RealAcpAgent) => MockReply;
}

const CASES: readonly TrafficCase[] = [
  { name: "plain-answer", approve: "reject", prompts: [cases.ANSWER_PROMPT], replies: (a) => [a.api.answer(cases.ANSWER_CHUNKS)] },
  { name: "write-allowed", approve: "allow", prompts: [cases.WRITE_PROMPT], replies: (a, ws) => [a.writeFile(ws)] },
  { name: "write-rejected", approve: "reject", prompts: [cases.WRITE_PROMPT], replies: (a, ws) => [a.writeFile(ws)] },
  {
    name: "follow-up",
    approve: "reject",
    prompts: [cases.FIRST_PROMPT, cases.FOLLOW_UP_PROMPT],
    replies: (a) => [a.api.answer(cases.FIRST_ANSWER_CHUNKS), a.api.answer(cases.FOLLOW_UP_CHUNKS)],
  },
  { name: "auth-error", approve: "reject", prompts: [cases.ANSWER_PROMPT], replies: () => [], otherwise: (a) => a.api.invalidKey() },
];

const AGENTS: Record<string, RealAcpAgent> = { qwen: QWEN, "claude-acp": CLAUDE_ACP };

async function record(agent: RealAcpAgent): Promise<void> {
  const executable = ensureInstalled(agent.agent, agent.version);
  const folder = path.join(REPO, "test", "fixtures", "acp-recorded", agent.profile, agent.version);
  fs.mkdirSync(folder, { recursive: true });
  const mock = await MockModelServer.start();
  try {
    for (const trafficCase of CASES) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), `acp-traffic-${agent.profile}-`));
      const home = path.join(root, "home");
      const workspace = path.join(root, "workspace");
      fs.mkdirSync(home);
      fs.mkdirSync(workspace);
      if (agent.writeOver !== null) fs.writeFileSync(path.join(workspace, cases.WRITTEN_FILE), agent.writeOver);
      const places = { home, workspace, port: mock.port };
      agent.prepareHome(places);
      mock.script(trafficCase.replies(agent, workspace), (trafficCase.otherwise ?? ((a) => a.api.answer(cases.DONE_CHUNKS)))(agent), agent.sideRequests);
      const log = path.join(root, "traffic.ndjson");
      const args = [CLI, "ask", "--json", "--profile", agent.profile, "--cli", process.execPath, `--arg=${TEE}`, `--arg=${executable}`];
      args.push(...agent.args.map((arg) => `--arg=${arg}`), "--cwd", workspace, "--approve", trafficCase.approve, "--", ...trafficCase.prompts);
      // Not a synchronous run: the mock model server answers from this process's event loop.
      const child = spawn(process.execPath, args, { env: { ...agent.agent.env(places), ACP_TEE_LOG: log }, stdio: ["ignore", "pipe", "inherit"] });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      // A failed turn exits non-zero; its output is what is recorded.
      await once(child, "close");
      const stable = (text: string) => text.split(workspace).join(STABLE_WORKSPACE);
      fs.writeFileSync(path.join(folder, `${trafficCase.name}.ndjson`), stable(fs.readFileSync(log, "utf8")));
      fs.writeFileSync(path.join(folder, `${trafficCase.name}.ask.ndjson`), stable(stdout));
      console.log(`${agent.title} ${agent.version}: ${trafficCase.name} (${stdout.length} characters of ask --json)`);
      fs.rmSync(root, { recursive: true, force: true });
    }
  } finally {
    await mock.stop();
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  for (const name of names.length > 0 ? names : ["qwen"]) {
    const agent = AGENTS[name];
    if (agent === undefined) throw new Error(`no recording set up for ${name} (known: ${Object.keys(AGENTS).join(", ")})`);
    await record(agent);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
