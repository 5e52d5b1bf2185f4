// `agent-stream`: the pipeline from a terminal — check a recorded stream, print its transcript, or run a CLI live.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as zlib from "node:zlib";
import { DIALECT_NAMES, createAdapter, isDialectName, type DialectName } from "../dialects/registry";
import { LiveSession } from "../session/live-session";
import { replayStream } from "../session/replay";
import { clampInactivityTimeoutMs, clampMaxLineBytes, MAX_LINE_BYTES } from "../session/run-limits";
import { DEFAULT_MAX_LINE_BYTES } from "../stream/line-reader";
import { BackpressuredStdout } from "./backpressured-stdout";
import { createLivePrinter, createStderrPassthrough } from "./live-printer";
import { transcriptToMarkdown, type TurnEnd } from "../common/transcript-markdown";
import { escapeForLog, escapeForTerminal, escapeJson } from "../protocol/visible-text";
import type { SessionChange } from "../protocol/messages";
import { ASK_USAGE, askCommand } from "./ask-command";
import { UsageError } from "./usage-error";

const USAGE = `Usage:
  agent-stream check [FILE|-] [--dialect NAME (default locus)] [--max-line-bytes N]
      Validate a recorded stream. Prints "line N: CODE message" per problem.
      Exit 0 when clean, 1 when there are problems.
  agent-stream transcript [FILE|-] [--format json|markdown] [--dialect NAME] [--max-line-bytes N]
      Decode a whole stream and print its final transcript (default: json).
  agent-stream run [--json] [--timeout-ms N] [--dialect NAME] [--max-line-bytes N] -- <command> [args...]
      Run a CLI, print its events as they arrive (--json: normalized protocol-1 NDJSON),
      and exit with its done's exit code. Ctrl-C, SIGTERM or SIGHUP stops it (twice: at once).
      A bare <command> is looked up in PATH's absolute folders only; ./x is relative to this folder.
${ASK_USAGE}

FILE defaults to standard input (a .gz file is decompressed). Dialects: ${DIALECT_NAMES.join(", ")};
transcript and run default to auto, which recognises the stream's dialect from its first lines.
--max-line-bytes is at most ${MAX_LINE_BYTES} (more is that); --timeout-ms above 2147483647 is 0 (off).
Exit code 2: the command line or the input file was wrong.`;


interface CommonOptions {
  dialect: DialectName;
  maxLineBytes: number;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "check":
        return await checkCommand(rest);
      case "transcript":
        return await transcriptCommand(rest);
      case "run":
        return await runCommand(rest);
      case "ask":
        return await askCommand(rest);
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(USAGE + "\n");
        return 0;
      default:
        throw new UsageError(command === undefined ? "no command given" : `unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`agent-stream: ${escapeForTerminal(error.message)}\n\n${USAGE}\n`);
      return 2;
    }
    if (isFileError(error)) {
      process.stderr.write(`agent-stream: cannot read ${escapeForTerminal(error.path)}: ${error.code}\n`);
      return 2;
    }
    throw error;
  }
}

const COMMON_OPTIONS = {
  dialect: { type: "string" },
  "max-line-bytes": { type: "string" },
} as const;

function parse<T extends Record<string, { type: "string" | "boolean"; default?: string | boolean }>>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `check` validates protocol 1, so it reads Locus unless told otherwise; `transcript` and `run` recognise the
 * dialect from the stream.
 */
function commonOptions(values: { dialect?: string | boolean; "max-line-bytes"?: string | boolean }, defaultDialect: DialectName): CommonOptions {
  const dialect = String(values.dialect ?? defaultDialect);
  if (!isDialectName(dialect)) throw new UsageError(`unknown dialect ${JSON.stringify(dialect)} (known: ${DIALECT_NAMES.join(", ")})`);
  const option = values["max-line-bytes"];
  // A positive integer is never nonsense here, so the clamp always has a value.
  const maxLineBytes = option === undefined ? DEFAULT_MAX_LINE_BYTES : (clampMaxLineBytes(positiveInteger("--max-line-bytes", option)) ?? DEFAULT_MAX_LINE_BYTES);
  return { dialect, maxLineBytes };
}

function positiveInteger(name: string, value: string | boolean, allowZero = false): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || (n === 0 && !allowZero)) throw new UsageError(`${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${JSON.stringify(value)}`);
  return n;
}

function inputOf(positionals: string[]): AsyncIterable<Uint8Array> {
  if (positionals.length > 1) throw new UsageError(`one input at most, got ${positionals.length}`);
  const file = positionals[0] ?? "-";
  if (file === "-") return process.stdin;
  fs.accessSync(file, fs.constants.R_OK);
  // Long recordings are kept gzipped (test/fixtures/*-recorded).
  return file.endsWith(".gz") ? fs.createReadStream(file).pipe(zlib.createGunzip()) : fs.createReadStream(file);
}

async function checkCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  const { dialect, maxLineBytes } = commonOptions(values, "locus");
  const session = await replayStream(inputOf(positionals), { adapter: createAdapter(dialect), maxLineBytes, severalTurns: true });
  for (const problem of session.problems) {
    process.stdout.write(`${problem.line !== null ? `line ${problem.line}` : "end of stream"}: ${problem.code} ${escapeForLog(problem.message)}\n`);
  }
  return session.problems.length === 0 ? 0 : 1;
}

async function transcriptCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parse(args, { format: { type: "string", default: "json" } });
  const { dialect, maxLineBytes } = commonOptions(values, "auto");
  const format = values.format;
  if (format !== "json" && format !== "markdown") throw new UsageError(`--format must be json or markdown, got ${JSON.stringify(format)}`);
  // A recording may hold several turns (`ask --json` writes one start…done per prompt): one transcript of them all,
  // whose markdown shows each turn's usage where it ended.
  const turnEnds: TurnEnd[] = [];
  let blocks = 0;
  const onChange = (change: SessionChange): void => {
    if (change.kind === "block-added") blocks = Math.max(blocks, change.index + 1);
    else if (change.kind === "done") turnEnds.push({ blocks, done: change.done });
  };
  const session = await replayStream(inputOf(positionals), { adapter: createAdapter(dialect), maxLineBytes, severalTurns: true, onChange });
  const transcript = session.toTranscript();
  process.stdout.write(format === "json" ? escapeJson(JSON.stringify(transcript, null, 2)) + "\n" : escapeForTerminal(transcriptToMarkdown(transcript, turnEnds)));
  return 0;
}

async function runCommand(args: readonly string[]): Promise<number> {
  const separator = args.indexOf("--");
  if (separator === -1) throw new UsageError("run needs -- before the command: agent-stream run [options] -- <command> [args...]");
  const { values, positionals } = parse(args.slice(0, separator), {
    json: { type: "boolean", default: false },
    "timeout-ms": { type: "string" },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])} before --`);
  const [typed, ...commandArgs] = args.slice(separator + 1);
  if (typed === undefined || typed === "") throw new UsageError("no command after --");
  // `./x` typed in the user's own shell means this folder, as the shell would read it. A bare name is still looked up
  // in PATH's absolute folders only (by CliProcess), so it never becomes a file of this folder.
  const command = typed.includes("/") || (process.platform === "win32" && typed.includes("\\")) ? path.resolve(typed) : typed;
  const { dialect, maxLineBytes } = commonOptions(values, "auto");
  const timeoutOption = values["timeout-ms"];
  const inactivityTimeoutMs = timeoutOption === undefined ? undefined : clampInactivityTimeoutMs(positiveInteger("--timeout-ms", timeoutOption, true));

  const out = new BackpressuredStdout();
  const printer = values.json
    ? undefined
    : createLivePrinter({ out, err: process.stderr, color: process.stdout.isTTY === true && !process.env.NO_COLOR });
  const live = LiveSession.start({
    adapter: createAdapter(dialect),
    maxLineBytes,
    process: { command, args: commandArgs, cwd: process.cwd(), env: process.env, inactivityTimeoutMs },
    // Every event is printed as it comes; only the done is needed after, so memory stays flat however long the run.
    keepBlocks: false,
    onEvent: values.json ? (event) => out.write(escapeJson(JSON.stringify(event)) + "\n") : undefined,
    onChange: printer,
    onStderr: values.json ? undefined : createStderrPassthrough(process.stderr),
  });
  out.attach(live);

  // A reader that went away (`| head`), or a closed terminal, ends the run like Ctrl-C would, not with a crash.
  process.stdout.on("error", () => live.kill());
  process.stderr.on("error", () => live.kill());

  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) void live.stop();
    else live.kill();
  };
  // SIGHUP (the terminal closed) stops the run like SIGTERM does, instead of killing us and leaving the CLI running.
  const stopSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const signal of stopSignals) process.on(signal, onInterrupt);
  try {
    const transcript = await live.finished;
    await out.flushed();
    return transcript.done.exitCode;
  } finally {
    for (const signal of stopSignals) process.off(signal, onInterrupt);
  }
}

function isFileError(error: unknown): error is NodeJS.ErrnoException & { path: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string" && typeof (error as { path?: unknown }).path === "string";
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`agent-stream: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
