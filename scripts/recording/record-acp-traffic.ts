// `npm run record-acp-traffic [-- AGENT[@VERSION]... [--case NAME]...]`: records real ACP agents' traffic for the
// `acp` dialect's fixtures (AGENT: qwen, gemini, opencode, codex, claude-acp; VERSION: an npm version, by default the
// one the suites pin; cases: all by default). Each case runs `agent-stream ask --json` (dist/cli.js: build first) on
// the real agent from the agent CLI cache, against the mock model server on 127.0.0.1, with
// test/fake-clis/acp-tee.js in between logging both directions. Written to
// test/fixtures/acp-recorded/<agent>/<version>/: <case>.ndjson (the tee's log: what `--dialect acp` replays) and
// <case>.ask.ndjson (what `ask --json` printed of the same run), with the throwaway workspace's path replaced by
// /workspace in both.
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as cases from "../../test/e2e/real-acp-agents";
import {
  CLAUDE_ACP,
  CODEX_ACP,
  GEMINI,
  OPENCODE,
  QWEN,
  claudeAcpAgent,
  codexAcpAgent,
  geminiAgent,
  opencodeAgent,
  qwenAgent,
  type RealAcpAgent,
} from "../../test/e2e/real-acp-agents";
import { ensureInstalled } from "./agent-cli-cache";
import { MockModelServer, type MockReply } from "./mock-model-server";

const REPO = path.resolve(__dirname, "..", "..", "..");
const TEE = path.join(REPO, "test", "fake-clis", "acp-tee.js");
const CLI = path.join(REPO, "dist", "cli.js");
const STABLE_WORKSPACE = "/workspace";
/** A `_meta` entry longer than this (as JSON) is not kept: no client reads it, and it would swell the fixtures. */
const META_CHARS_KEPT = 16 * 1024;

interface TrafficCase {
  name: string;
  approve: "allow" | "reject";
  prompts: string[];
  replies: (agent: RealAcpAgent, workspace: string) => MockReply[];
  /** What the mock answers once the replies are used up: by default a short "Done.". */
  otherwise?: (agent: RealAcpAgent) => MockReply;
  /** Changes to the agent's environment (undefined: the variable is not set at all); such cases also keep stderr. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The agents (profiles) the case is about; every agent when not given. */
  agents?: readonly string[];
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
  {
    name: "edit-and-command",
    approve: "allow",
    prompts: [cases.WRITE_PROMPT],
    replies: (a, ws) => [a.writeFile(ws), a.runPrintingCommand(ws)],
  },
  // claude-agent-acp run as root: Claude Code refuses to skip permissions as root unless IS_SANDBOX is 1.
  { name: "root-sandbox-yes", approve: "reject", prompts: [cases.ANSWER_PROMPT], replies: (a) => [a.api.answer(cases.ANSWER_CHUNKS)], env: { IS_SANDBOX: "yes" }, agents: ["claude-acp"] },
  { name: "root-sandbox-unset", approve: "reject", prompts: [cases.ANSWER_PROMPT], replies: (a) => [a.api.answer(cases.ANSWER_CHUNKS)], env: { IS_SANDBOX: undefined }, agents: ["claude-acp"] },
  { name: "root-sandbox-1", approve: "reject", prompts: [cases.ANSWER_PROMPT], replies: (a) => [a.api.answer(cases.ANSWER_CHUNKS)], env: { IS_SANDBOX: "1" }, agents: ["claude-acp"] },
];

/** Each agent at the version the suites pin, and at any other version asked for. */
const AGENTS: Record<string, { pinned: RealAcpAgent; at: (version: string) => RealAcpAgent }> = {
  qwen: { pinned: QWEN, at: qwenAgent },
  gemini: { pinned: GEMINI, at: geminiAgent },
  opencode: { pinned: OPENCODE, at: opencodeAgent },
  codex: { pinned: CODEX_ACP, at: codexAcpAgent },
  "claude-acp": { pinned: CLAUDE_ACP, at: claudeAcpAgent },
};

async function record(agent: RealAcpAgent, only: readonly string[]): Promise<void> {
  const executable = ensureInstalled(agent.agent, agent.version);
  const folder = path.join(REPO, "test", "fixtures", "acp-recorded", agent.profile, agent.version);
  fs.mkdirSync(folder, { recursive: true });
  const mock = await MockModelServer.start();
  try {
    const chosen = CASES.filter((c) => (only.length === 0 || only.includes(c.name)) && (c.agents?.includes(agent.profile) ?? true));
    for (const trafficCase of chosen) {
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
      const stderrLog = path.join(root, "stderr.txt");
      const env: NodeJS.ProcessEnv = { ...agent.agent.env(places), ...trafficCase.env, ACP_TEE_LOG: log, ...(trafficCase.env === undefined ? {} : { ACP_TEE_STDERR: stderrLog }) };
      for (const [name, value] of Object.entries(trafficCase.env ?? {})) if (value === undefined) delete env[name];
      const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      // A failed turn exits non-zero; its output is what is recorded.
      await once(child, "close");
      const stable = (text: string) => text.split(workspace).join(STABLE_WORKSPACE);
      fs.writeFileSync(path.join(folder, `${trafficCase.name}.ndjson`), stable(withoutBulkyMeta(fs.readFileSync(log, "utf8"))));
      fs.writeFileSync(path.join(folder, `${trafficCase.name}.ask.ndjson`), stable(stdout));
      if (fs.existsSync(stderrLog)) fs.writeFileSync(path.join(folder, `${trafficCase.name}.stderr.txt`), stable(fs.readFileSync(stderrLog, "utf8")));
      console.log(`${agent.title} ${agent.version}: ${trafficCase.name} (${stdout.length} characters of ask --json)`);
      fs.rmSync(root, { recursive: true, force: true });
    }
  } finally {
    await mock.stop();
  }
}

/**
 * The log with each bulky `_meta` entry of an update replaced by a note of its size: Qwen Code 0.24.4 sends its
 * skills' whole text (over 500 KB) in `_meta.availableSkillDetails` of every `available_commands_update`.
 */
function withoutBulkyMeta(log: string): string {
  return log
    .split("\n")
    .map((line) => {
      if (line.length <= META_CHARS_KEPT || !line.includes('"_meta"')) return line;
      const message = JSON.parse(line) as { params?: { update?: { _meta?: Record<string, unknown> } } };
      const meta = message.params?.update?._meta;
      if (meta === undefined) return line;
      for (const [key, value] of Object.entries(meta)) {
        const chars = JSON.stringify(value).length;
        if (chars > META_CHARS_KEPT) meta[key] = `[${chars} characters of JSON not kept by the recorder]`;
      }
      return JSON.stringify(message);
    })
    .join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.flatMap((arg, i) => (args[i - 1] === "--case" ? [arg] : []));
  const names = args.filter((arg, i) => arg !== "--case" && args[i - 1] !== "--case");
  for (const name of names.length > 0 ? names : ["qwen"]) {
    const [agentName = "", version] = name.split("@");
    const known = AGENTS[agentName];
    if (known === undefined) throw new Error(`no recording set up for ${agentName} (known: ${Object.keys(AGENTS).join(", ")})`);
    await record(version === undefined ? known.pinned : known.at(version), only);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
