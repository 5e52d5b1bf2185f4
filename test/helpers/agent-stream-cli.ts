// Runs the built `agent-stream` command (dist/cli.js) as a script author would, and collects what it printed.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";
import { repoRoot } from "./repo";

export const AGENT_STREAM_CLI = path.join(repoRoot, "dist", "cli.js");

export interface AgentStreamResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface AgentStreamOptions {
  /** The whole environment; default this process's. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Starts `agent-stream …`; its stdin is a pipe the caller ends (finishAgentStream does). */
export function startAgentStream(args: readonly string[], options: AgentStreamOptions = {}): ChildProcess {
  return spawn(process.execPath, [AGENT_STREAM_CLI, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
}

/** Gives the child `stdin` (or an empty one), and resolves with everything it printed once it has closed. */
export async function finishAgentStream(child: ChildProcess, stdin?: string): Promise<AgentStreamResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin?.end(stdin);
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

export function agentStream(args: readonly string[], options: AgentStreamOptions & { stdin?: string } = {}): Promise<AgentStreamResult> {
  return finishAgentStream(startAgentStream(args, options), options.stdin);
}
