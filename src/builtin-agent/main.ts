// The built-in workspace agent's command line: `exec --json-stream [--] <prompt>`, answered from the current
// folder as protocol-1 NDJSON on stdout. It reads the workspace and never writes to it.
import { answerRequest } from "./agent";
import { ProtocolEmitter } from "./emitter";
import { DEFAULT_DELAY_MS } from "./text-pacer";

export const AGENT_MODEL = "builtin-workspace-agent";
const DELAY_ENV = "AGENT_STREAM_BUILTIN_DELAY_MS";

const USAGE = `Usage: builtin-agent exec --json-stream [--] <prompt>

Answers questions about the workspace in the current folder, offline, as Agent Stream protocol-1 NDJSON:
summarise it, find text, explain a file, list TODO and FIXME comments.

Environment: ${DELAY_ENV}  pause between text deltas in ms (default ${DEFAULT_DELAY_MS}; 0 = none).
Exit codes: 0 answered, 1 interrupted or failed, 2 wrong command line.`;

export type CommandLine = { kind: "exec"; prompt: string; delayMs: number } | { kind: "help" } | { kind: "usage-error"; message: string };

export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): CommandLine {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") return { kind: "help" };
  if (command !== "exec") return usageError(command === undefined ? "no command given" : `unknown command ${JSON.stringify(command)}`);
  let jsonStream = false;
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      words.push(...rest.slice(i + 1));
      break;
    }
    if (arg === "--json-stream") jsonStream = true;
    else if (arg === "--help" || arg === "-h") return { kind: "help" };
    else if (arg.startsWith("-") && arg !== "-") return usageError(`unknown option ${JSON.stringify(arg)}`);
    else words.push(arg);
  }
  if (!jsonStream) return usageError("only --json-stream output is supported");
  const prompt = words.join(" ").trim();
  if (prompt === "") return usageError("no prompt given");
  const delay = env[DELAY_ENV];
  const delayMs = delay === undefined || delay === "" ? DEFAULT_DELAY_MS : Number(delay);
  if (!Number.isInteger(delayMs) || delayMs < 0) return usageError(`${DELAY_ENV} must be a non-negative integer, got ${JSON.stringify(delay)}`);
  return { kind: "exec", prompt, delayMs };
}

function usageError(message: string): CommandLine {
  return { kind: "usage-error", message };
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const commandLine = parseCommandLine(argv, env);
  if (commandLine.kind === "help") {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (commandLine.kind === "usage-error") {
    process.stderr.write(`builtin-agent: ${commandLine.message}\n\n${USAGE}\n`);
    return 2;
  }
  const workspace = process.cwd();
  const abort = new AbortController();
  const emitter = new ProtocolEmitter(process.stdout, () => abort.abort());
  void emitter.start({ command: "exec", model: AGENT_MODEL, provider: "agent-stream", cwd: workspace });
  // The protocol's promise on a signal: error, then done with exit code 1 — once, whichever signals arrive.
  // The handlers stay installed until the process exits, so a late second signal cannot kill it mid-flush.
  const onSignal = (signal: NodeJS.Signals) => {
    if (emitter.isDone) return;
    abort.abort();
    void emitter.error({ code: "UNKNOWN", message: `interrupted by ${signal}`, recoverable: false });
    void emitter.done(1);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await answerRequest({ prompt: commandLine.prompt, workspace, delayMs: commandLine.delayMs }, emitter, abort.signal);
    void emitter.done(abort.signal.aborted ? 1 : 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`builtin-agent: internal error: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
    void emitter.error({ code: "UNKNOWN", message: `internal error: ${message}`, recoverable: false });
    void emitter.done(1);
  }
  await emitter.finished();
  emitter.dispose();
  return emitter.exitCode ?? 1;
}

if (require.main === module) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`builtin-agent: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
