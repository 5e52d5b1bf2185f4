// `npm run record-fixtures`: records real agent CLIs (Claude Code, pi, Gemini CLI, Codex, opencode, Qwen Code) against our scripted mock model server and
// writes each run to test/fixtures/<cli>-recorded/<version>/<scenario>.ndjson (stdout byte for byte) with a
// <scenario>.meta.json beside it. Usage: scripts/recording/README.md.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { ensureInstalled, latestVersion } from "./agent-cli-cache";
import { claudeCli } from "./claude-cli";
import { CliRun, type CliExit } from "./cli-run";
import { MockModelServer, type RequestLogEntry } from "./mock-model-server";
import { codexCli } from "./codex-cli";
import { geminiCli } from "./gemini-cli";
import { opencodeCli } from "./opencode-cli";
import { piCli } from "./pi-cli";
import { qwenCli } from "./qwen-cli";
import { isUnsupported, type AgentCli, type DriveLog, type RecordedScenario, type RunPlaces } from "./scenario";

/** Larger recordings are stored gzipped (see where they are written). */
const MAX_PLAIN_FIXTURE_BYTES = 1024 * 1024;

const repoRoot = path.resolve(__dirname, __dirname.includes(`${path.sep}out${path.sep}`) ? "../../.." : "../..");
const CLIS: readonly AgentCli[] = [claudeCli, piCli, geminiCli, codexCli, opencodeCli, qwenCli];
/**
 * Besides `latest`: the last Claude Code that declares node >= 18, which a plain `npm install` on node 20 picks.
 * Its stream differs from the newest one's (see test/fixtures/claude-recorded/README.md).
 */
const DEFAULT_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  claude: ["latest", "2.1.197"],
  pi: ["latest"],
  // 0.15.10 reports a failed model call as a successful result; newer versions as an error result.
  qwen: ["latest", "0.15.10"],
};
const DEFAULT_TIMEOUT_MS = 120_000;

interface Options {
  readonly clis: readonly AgentCli[];
  readonly versions: Readonly<Record<string, readonly string[]>>;
  readonly scenarios: readonly string[] | undefined;
  readonly list: boolean;
  /** Where to write every model request, body and all, one folder per scenario (`--dump-requests`). */
  readonly dumpFolder: string | undefined;
}

interface Outcome {
  readonly cli: string;
  readonly version: string;
  readonly scenario: string;
  readonly result: string;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.list) return listScenarios(options.clis);
  const startedAt = Date.now();
  const outcomes: Outcome[] = [];
  const server = await MockModelServer.start();
  try {
    for (const cli of options.clis) {
      for (const wanted of options.versions[cli.name] ?? ["latest"]) {
        const version = wanted === "latest" ? latestVersion(cli.packageName) : wanted;
        const executable = ensureInstalled(cli, version);
        outcomes.push(...(await recordVersion(cli, version, executable, server, options)));
      }
    }
  } finally {
    await server.stop();
  }
  console.log(`\n${outcomes.map((outcome) => `${outcome.cli} ${outcome.version} ${outcome.scenario.padEnd(24)} ${outcome.result}`).join("\n")}`);
  console.log(`\nRecorded in ${Math.round((Date.now() - startedAt) / 1000)} s.`);
}

async function recordVersion(
  cli: AgentCli,
  version: string,
  executable: string,
  server: MockModelServer,
  options: Options,
): Promise<Outcome[]> {
  const only = options.scenarios;
  const folder = path.join(repoRoot, "test", "fixtures", `${cli.name}-recorded`, version);
  fs.mkdirSync(folder, { recursive: true });
  const outcomes: Outcome[] = [];
  for (const scenario of cli.scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    if (isUnsupported(scenario)) {
      outcomes.push({ cli: cli.name, version, scenario: scenario.name, result: `not recorded: ${scenario.unsupported}` });
      continue;
    }
    process.stdout.write(`${cli.name} ${version} ${scenario.name} … `);
    server.dumpRequestsTo(options.dumpFolder && path.resolve(options.dumpFolder, `${cli.name}-${version}`, scenario.name));
    const exit = await recordScenario(cli, version, executable, scenario, server, folder);
    const result = `exit ${exit.exitCode ?? "-"} signal ${exit.signal ?? "-"}${exit.timedOut ? " TIMED OUT" : ""} in ${exit.durationMs} ms`;
    console.log(result);
    outcomes.push({ cli: cli.name, version, scenario: scenario.name, result });
  }
  return outcomes;
}

async function recordScenario(
  cli: AgentCli,
  version: string,
  executable: string,
  scenario: RecordedScenario,
  server: MockModelServer,
  folder: string,
): Promise<CliExit> {
  const places: RunPlaces = {
    home: fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-${cli.name}-home-`)),
    workspace: fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-${cli.name}-workspace-`)),
    port: server.port,
    executable,
  };
  try {
    for (const [name, content] of Object.entries(scenario.workspaceFiles ?? {})) fs.writeFileSync(path.join(places.workspace, name), content);
    cli.prepareHome(places, scenario);
    server.script(scenario.replies(places), scenario.otherwise, cli.sideRequests);
    const args = [...cli.commonArgs.filter((arg) => !scenario.omitCommonArgs?.includes(arg)), ...scenario.args(places)];
    const env = { ...cli.env(places), ...scenario.env };
    const run = new CliRun({ command: executable, args, cwd: places.workspace, env, stdin: scenario.stdin ?? "ignore", timeoutMs: scenario.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const driveLog = new RecordedDriveLog();
    const driving = scenario.drive?.(run, driveLog).catch((error: Error) => driveLog.note(`driver failed: ${error.message}`));
    const exit = await run.exited;
    await driving;
    await server.idle(2_000);
    const hide = (text: string) => hidePlaces(text, places);
    // Streams over 1 MB (pi repeats the whole message twice on every update: 18 MB for 2,000 deltas) are kept
    // gzipped, so the repository stays small; the bytes inside are still exactly what the CLI wrote.
    const big = run.stdout.length > MAX_PLAIN_FIXTURE_BYTES;
    for (const stale of [`${scenario.name}.ndjson`, `${scenario.name}.ndjson.gz`]) fs.rmSync(path.join(folder, stale), { force: true });
    fs.writeFileSync(path.join(folder, `${scenario.name}.ndjson${big ? ".gz" : ""}`), big ? zlib.gzipSync(run.stdout, { level: 9 }) : run.stdout);
    const meta = {
      cli: cli.name,
      version,
      scenario: scenario.name,
      description: scenario.description,
      command: [path.basename(executable), ...args].map(hide),
      env: Object.fromEntries(Object.entries(env).map(([key, value]) => [key, hide(value)])),
      driver: driveLog.entries,
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: exit.timedOut,
      stderrTail: hide(run.stderrTailText),
      durationMs: exit.durationMs,
      recordedAt: new Date().toISOString(),
      modelRequests: server.requestLog.map((entry: RequestLogEntry) => ({ ...entry, summary: hide(entry.summary) })),
    };
    fs.writeFileSync(path.join(folder, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    return exit;
  } finally {
    fs.rmSync(places.home, { recursive: true, force: true });
    fs.rmSync(places.workspace, { recursive: true, force: true });
  }
}

/** The meta file names the throwaway folders and the random port by role, so it reads the same on every run. */
function hidePlaces(text: string, places: RunPlaces): string {
  return text
    .split(places.workspace)
    .join("$WORKSPACE")
    .split(places.home)
    .join("$HOME")
    .split(`127.0.0.1:${places.port}`)
    .join("127.0.0.1:PORT");
}

class RecordedDriveLog implements DriveLog {
  readonly entries: Array<{ atMs: number } & Record<string, unknown>> = [];
  private readonly startedAt = Date.now();
  stdin(line: unknown): void {
    this.entries.push({ atMs: this.elapsed(), stdin: line });
  }
  signal(signal: NodeJS.Signals, to?: "group"): void {
    this.entries.push({ atMs: this.elapsed(), signal, ...(to ? { to } : {}) });
  }
  note(text: string): void {
    this.entries.push({ atMs: this.elapsed(), note: text });
  }
  private elapsed(): number {
    return Date.now() - this.startedAt;
  }
}

function listScenarios(clis: readonly AgentCli[]): void {
  for (const cli of clis) {
    console.log(`${cli.name} (${cli.packageName}; versions ${(DEFAULT_VERSIONS[cli.name] ?? ["latest"]).join(", ")}):`);
    for (const scenario of cli.scenarios) {
      console.log(`  ${scenario.name.padEnd(24)} ${isUnsupported(scenario) ? `not recorded: ${scenario.unsupported}` : scenario.description}`);
    }
  }
}

const USAGE = `usage: npm run record-fixtures -- [--cli ${CLIS.map((cli) => cli.name).join("|")}]... [--scenario NAME]...
    [--versions CLI=V,V]... [--claude-versions V,V] [--pi-versions V] [--dump-requests DIR] [--list]
  Versions are npm versions or "latest"; defaults: ${Object.entries(DEFAULT_VERSIONS)
    .map(([cli, versions]) => `${cli} ${versions.join(",")}`)
    .join("; ")}; any other CLI latest.`;

function parseOptions(argv: readonly string[]): Options {
  const names: string[] = [];
  const scenarios: string[] = [];
  const versions: Record<string, readonly string[]> = { ...DEFAULT_VERSIONS };
  let list = false;
  let dumpFolder: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) fail(`${flag} needs a value`);
      return next;
    };
    if (flag === "--cli") names.push(value());
    else if (flag === "--scenario") scenarios.push(...value().split(","));
    else if (flag === "--claude-versions") versions.claude = value().split(",");
    else if (flag === "--pi-versions") versions.pi = value().split(",");
    else if (flag === "--versions") {
      const [cli, wanted] = value().split("=");
      if (!cli || !wanted) fail("--versions takes CLI=V,V");
      versions[cli] = wanted.split(",");
    } else if (flag === "--dump-requests") dumpFolder = value();
    else if (flag === "--list") list = true;
    else fail(`unknown argument ${flag}`);
  }
  const clis = names.length === 0 ? CLIS : names.map((name) => CLIS.find((cli) => cli.name === name) ?? fail(`no CLI called ${name}`));
  const known = new Set(clis.flatMap((cli) => cli.scenarios.map((scenario) => scenario.name)));
  for (const name of scenarios) if (!known.has(name)) fail(`no scenario called ${name}`);
  return { clis, versions, scenarios: scenarios.length > 0 ? scenarios : undefined, list, dumpFolder };
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
