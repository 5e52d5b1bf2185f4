// Real agent CLIs, installed from npm into a cache outside the repository, one folder per package version.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AgentCli } from "./scenario";

/**
 * Under AGENT_STREAM_CACHE when set, as scripts/ensure-code-server.sh does: CI points it at an empty temporary cache,
 * and what the suites install must land there, not in the runner's home.
 */
export const AGENT_CLI_CACHE = path.join(
  process.env.AGENT_STREAM_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "agent-stream"),
  "agent-clis",
);

/** The version npm calls `latest` for the package. */
export function latestVersion(packageName: string): string {
  return npm(["view", packageName, "version"], os.tmpdir()).trim();
}

/** Installs `version` unless that exact version is already in the cache; returns the executable's path. */
export function ensureInstalled(cli: AgentCli, version: string): string {
  const folder = path.join(AGENT_CLI_CACHE, `${cli.packageName.split("/").pop() ?? cli.name}-${version}`);
  const executable = path.join(folder, cli.binary);
  if (installedVersion(folder, cli.packageName) === version && fs.existsSync(executable)) return executable;
  console.log(`Installing ${cli.packageName}@${version} into ${folder}`);
  fs.mkdirSync(folder, { recursive: true });
  // A package.json of its own, so npm installs here and not into a parent project.
  fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify({ private: true }, null, 2));
  npm(["install", "--no-audit", "--no-fund", "--loglevel=error", ...cli.installFlags, `${cli.packageName}@${version}`], folder);
  const got = installedVersion(folder, cli.packageName);
  if (got !== version || !fs.existsSync(executable)) throw new Error(`npm installed ${cli.packageName}@${got ?? "nothing"} into ${folder}, not ${version}`);
  return executable;
}

function installedVersion(folder: string, packageName: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(fs.readFileSync(path.join(folder, "node_modules", packageName, "package.json"), "utf8"));
    return typeof manifest === "object" && manifest !== null && "version" in manifest ? String(manifest.version) : undefined;
  } catch {
    return undefined;
  }
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}
