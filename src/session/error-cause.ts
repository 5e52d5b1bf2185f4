// What the run knows that an agent's error does not say: that the API key it was given is the one refused, or that it
// refuses to run as root. Such an error gets its cause, which names the variable of the agent's environment that
// fixes it (the card then offers to open `agentStream.cli.env`), and a sentence saying so. A variable's value is never
// shown.
import { meaningfulPart } from "../dialects/error-meaning";
import type { ErrorCause, ProtocolError } from "../protocol/events";

/** A cause the agent's environment fixes. */
type EnvironmentCause = Extract<ErrorCause, { variable: string }>;

/** What an error's cause is read from. */
export interface RunEnvironment {
  /** The agent's whole environment: VS Code's (or the shell's), with `agentStream.cli.env` over it. */
  readonly env: NodeJS.ProcessEnv;
  /** The variables the agent takes an API key from instead of a login (its profile's). */
  readonly apiKeyVariables: readonly string[];
  readonly runsAsRoot: boolean;
}

/** The run of an agent with this environment, as this process's user (the agent's: it inherits it). */
export function runEnvironment(env: NodeJS.ProcessEnv, apiKeyVariables: readonly string[] = []): RunEnvironment {
  return { env, apiKeyVariables, runsAsRoot: process.getuid?.() === 0 };
}

/**
 * The error with its cause when the run knows it; else the error as it was. The explanation follows the error's first
 * line, before what comes after it (a stack, the agent's stderr).
 */
export function withCause(error: ProtocolError, run: RunEnvironment): ProtocolError {
  if (error.cause !== undefined) return error;
  const cause = apiKeyRejected(error, run) ?? rootRefused(error, run);
  if (cause === undefined) return error;
  const lineEnd = error.message.indexOf("\n");
  const [first, rest] = lineEnd === -1 ? [error.message, ""] : [error.message.slice(0, lineEnd), error.message.slice(lineEnd)];
  return { ...error, message: `${first}\n${explanation(cause)}${rest}`, cause };
}

function apiKeyRejected(error: ProtocolError, run: RunEnvironment): EnvironmentCause | undefined {
  if (error.code !== "AUTH_EXPIRED") return undefined;
  const variable = run.apiKeyVariables.find((name) => (run.env[name] ?? "") !== "");
  return variable === undefined ? undefined : { kind: "api-key-rejected", variable };
}

/**
 * Claude Code refuses to let its permission checks be skipped as root unless IS_SANDBOX is 1. claude-agent-acp 0.101
 * says so (`startupFailureReason: "bypass_root"`); 0.23.1 asks for it whenever IS_SANDBOX is set at all, and then says
 * only that the query closed, as Claude Code exited.
 */
function rootRefused(error: ProtocolError, run: RunEnvironment): EnvironmentCause | undefined {
  const text = meaningfulPart(error.message);
  if (text.includes("bypass_root") || text.includes("cannot be used with root/sudo privileges")) return { kind: "root-refused", variable: "IS_SANDBOX" };
  const sandbox = run.env.IS_SANDBOX ?? "";
  if (run.runsAsRoot && sandbox !== "" && sandbox !== "1" && text.includes("Query closed before response received")) {
    return { kind: "root-refused", variable: "IS_SANDBOX" };
  }
  return undefined;
}

function explanation(cause: EnvironmentCause): string {
  switch (cause.kind) {
    case "api-key-rejected":
      return `The agent was given the API key in ${cause.variable} (set in agentStream.cli.env or the environment), and it was refused: correct it there, or remove it and log in.`;
    case "root-refused":
      return "Claude Code refuses to run as root with its permission checks skippable unless IS_SANDBOX is 1: set IS_SANDBOX to 1 in agentStream.cli.env if this machine is a sandbox or container, or run the agent as a user other than root.";
  }
}
