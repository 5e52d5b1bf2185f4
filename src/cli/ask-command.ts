// `agent-stream ask`: runs an agent exactly as the panel does (its profile: stream CLIs and ACP agents alike), one
// conversation, each PROMPT one turn, and prints every turn as `run` does (readable, or normalized NDJSON).
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { ChosenSettings } from "../acp/session-setup";
import { NodeWorkspaceFiles } from "../acp/workspace-files";
import { AgentLauncher, type LaunchAgent } from "../launch/agent-launcher";
import type { AutoAnswer, AutoAnswerPolicy } from "../permissions/permission-policy";
import { TOOL_KINDS } from "../permissions/permission-request";
import { summarizeParameters } from "../common/tool-summary";
import type { CliStreamEvent } from "../protocol/events";
import type { Transcript } from "../protocol/transcript";
import { escapeJson } from "../protocol/visible-text";
import { acpTransportOf, type CliProfile } from "../profiles/cli-profile";
import { isProfileSetting, PROFILE_SETTING_VALUES, resolveCli, type ProfileSetting } from "../profiles/profile-registry";
import { unknownModeProblem } from "../profiles/setting-flags";
import { clampInactivityTimeoutMs } from "../session/run-limits";
import type { PromptPart } from "../protocol/prompt-parts";
import { attachedParts } from "./attached-paths";
import { BackpressuredStdout } from "./backpressured-stdout";
import { createLivePrinter, createStderrPassthrough } from "./live-printer";
import { TerminalQuestions } from "./terminal-questions";
import { UsageError } from "./usage-error";

export const ASK_USAGE = `  agent-stream ask [--profile NAME] [--cli PATH] [--arg ARG]... [--extra-arg ARG]... [--cwd DIR]
                   [--approve ask|allow|reject] [--json] [--timeout-ms N] [--mode ID] [--model ID]
                   [--config ID=VALUE]... [--attach PATH]... -- PROMPT [PROMPT]...
      Run an agent as the panel does (its profile: ${PROFILE_SETTING_VALUES.join(", ")}; default auto), in --cwd
      (default this folder), one conversation: each PROMPT is a turn, the later ones follow-ups. --cli, --arg and
      --extra-arg are agentStream.cli.path, cli.args (in place of the profile's arguments) and cli.extraArgs (added
      after them); --arg=VALUE for a value that starts with -. --approve answers an agent's
      permission requests: allow or reject once, or ask on the terminal (the default there; with no terminal, reject).
      --mode and --model choose an ACP agent's session mode and model by the ids it offers (an unknown one fails the
      turn, listing them), or Claude Code's --permission-mode and --model at each turn; without --mode the session
      runs in the agent's mode that asks first (Claude's default). --config sets one of an ACP agent's other
      config options (session/set_config_option) to one of its values; an unknown option or value fails the turn,
      listing what the agent offers. --attach sends a file, folder or image (PNG, JPEG, GIF, WebP by its bytes; 5 MB
      at most) of the workspace with the first PROMPT, as the panel's @ and paste do: an ACP agent gets a
      resource_link (an image only if it takes images), a stream CLI an @path reference; an agent that takes no
      images is refused before anything is sent.
      Output as run's; exit code of the last turn's done.`;

const APPROVALS = ["ask", "allow", "reject"] as const;
type Approval = (typeof APPROVALS)[number];

interface AskOptions {
  profile: CliProfile;
  command: string;
  userArgs: readonly string[] | null;
  extraArgs: readonly string[];
  cwd: string;
  approve: Approval;
  json: boolean;
  inactivityTimeoutMs: number | undefined;
  chosen: ChosenSettings;
  prompts: string[];
  /** `--attach`: sent with the first prompt. */
  parts: PromptPart[];
}

/** A turn under way, whatever runs it: stopped in band first, killed on a second signal. */
interface RunningTurn {
  stop(): Promise<Transcript>;
  kill(): void;
  readonly finished: Promise<Transcript>;
}

export async function askCommand(args: readonly string[]): Promise<number> {
  const options = parseAsk(args);
  const output = new AskOutput(options.json);
  const stopper = new TurnStopper();
  try {
    return await askTurns(options, output, stopper);
  } finally {
    stopper.dispose();
  }
}

function parseAsk(args: readonly string[]): AskOptions {
  const separator = args.indexOf("--");
  if (separator === -1) throw new UsageError("ask needs -- before the prompts: agent-stream ask [options] -- PROMPT [PROMPT]...");
  let parsed;
  try {
    parsed = parseArgs({
      args: args.slice(0, separator),
      options: {
        profile: { type: "string", default: "auto" },
        cli: { type: "string" },
        arg: { type: "string", multiple: true },
        "extra-arg": { type: "string", multiple: true },
        cwd: { type: "string" },
        approve: { type: "string" },
        json: { type: "boolean", default: false },
        "timeout-ms": { type: "string" },
        mode: { type: "string" },
        model: { type: "string" },
        attach: { type: "string", multiple: true },
        config: { type: "string", multiple: true },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])} before --`);
  const prompts = args.slice(separator + 1);
  if (prompts.length === 0) throw new UsageError("no prompt after --");
  const setting = values.profile;
  if (!isProfileSetting(setting)) throw new UsageError(`unknown profile ${JSON.stringify(setting)} (known: ${PROFILE_SETTING_VALUES.join(", ")})`);
  const cwd = path.resolve(values.cwd ?? ".");
  if (!fs.statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${JSON.stringify(values.cwd)} is not a folder`);
  const cliPath = values.cli === undefined ? null : commandOf(values.cli);
  const { profile, command } = resolveCli({ cliPath, cliProfile: setting as ProfileSetting });
  const chosen = { ...chosenSettingsOf(values.mode, values.model, profile), ...configOf(values.config ?? [], profile) };
  return {
    profile,
    command,
    userArgs: values.arg ?? null,
    extraArgs: values["extra-arg"] ?? [],
    cwd,
    approve: approvalOf(values.approve),
    json: values.json,
    inactivityTimeoutMs: timeoutOf(values["timeout-ms"]),
    chosen,
    prompts,
    parts: attachedParts(values.attach ?? [], cwd),
  };
}

/** `./x` typed in the user's shell means this folder; a bare name is looked up in PATH's absolute folders only. */
function commandOf(typed: string): string {
  if (typed === "") throw new UsageError("--cli is empty");
  return typed.includes("/") || (process.platform === "win32" && typed.includes("\\")) ? path.resolve(typed) : typed;
}

/** No flag: ask at a terminal; with no terminal to ask at, reject. Never "always". */
function approvalOf(flag: string | undefined): Approval {
  if (flag !== undefined && !(APPROVALS as readonly string[]).includes(flag)) {
    throw new UsageError(`--approve must be ask, allow or reject, got ${JSON.stringify(flag)}`);
  }
  const wanted = (flag ?? "ask") as Approval;
  return wanted === "ask" && process.stdin.isTTY !== true ? "reject" : wanted;
}

/**
 * An ACP agent says which modes and models it has once its session opens; here, only that they are for an agent that
 * takes them. A stream CLI that takes them as flags (Claude Code) has its modes known: an unknown one is refused now.
 */
function chosenSettingsOf(mode: string | undefined, model: string | undefined, profile: CliProfile): ChosenSettings {
  const flags = profile.settingFlags;
  for (const [flag, value] of [["--mode", mode], ["--model", model]] as const) {
    if (value === "") throw new UsageError(`${flag} is empty`);
    if (value !== undefined && acpTransportOf(profile) === undefined && flags === undefined) {
      throw new UsageError(`${flag} is for ACP agents and Claude Code; profile ${profile.name} takes neither`);
    }
  }
  const unknown = mode === undefined || flags === undefined ? undefined : unknownModeProblem(flags, mode);
  if (unknown !== undefined) throw new UsageError(`--mode: ${unknown}`);
  return { ...(mode === undefined ? {} : { mode }), ...(model === undefined ? {} : { model }) };
}

/** `--config ID=VALUE`, each option once: only an ACP agent has config options, known once its session opens. */
function configOf(given: readonly string[], profile: CliProfile): Pick<ChosenSettings, "config"> {
  if (given.length === 0) return {};
  if (acpTransportOf(profile) === undefined) throw new UsageError(`--config is for ACP agents; profile ${profile.name} has no config options`);
  const config: Record<string, string> = {};
  for (const each of given) {
    const equals = each.indexOf("=");
    const [id, value] = equals === -1 ? [each, ""] : [each.slice(0, equals), each.slice(equals + 1)];
    if (id === "" || value === "") throw new UsageError(`--config needs ID=VALUE, got ${JSON.stringify(each)}`);
    if (Object.hasOwn(config, id)) throw new UsageError(`--config sets ${JSON.stringify(id)} twice`);
    config[id] = value;
  }
  return { config };
}

function timeoutOf(option: string | undefined): number | undefined {
  if (option === undefined) return undefined;
  const n = Number(option);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--timeout-ms must be a non-negative integer, got ${JSON.stringify(option)}`);
  return clampInactivityTimeoutMs(n);
}

/** Every turn through the launcher the panel uses: one session, its agent warm between the turns where it can be. */
async function askTurns(options: AskOptions, output: AskOutput, stopper: TurnStopper): Promise<number> {
  const questions = new TerminalQuestions(process.stdin, process.stderr, (toolCallId) => output.toolDetails(toolCallId));
  // What the agent was refused (a file outside the workspace, a request answered cancelled unseen) is for the user.
  const problem = (message: string) => process.stderr.write(`agent-stream: ${message}\n`);
  const launcher = new AgentLauncher({
    files: (roots) => new NodeWorkspaceFiles(roots),
    log: { info: () => {}, warn: problem, trace: () => {}, tracing: () => false },
    decide: options.approve === "ask" ? questions.decide : () => Promise.resolve("cancelled"),
    // The agent's stderr is the terminal's as it comes (none with --json).
    onStderr: output.stderr ?? (() => {}),
  });
  // A CLI that keeps its conversation in a file of ours (pi) keeps it here for the run's life.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-ask-"));
  const sessionId = randomUUID();
  const id = randomUUID();
  let exitCode = 0;
  try {
    for (const [turn, prompt] of options.prompts.entries()) {
      if (stopper.stopped) break;
      const agent: LaunchAgent = { kind: "cli", choice: { cliPath: options.command, cliArgs: options.userArgs, cliExtraArgs: options.extraArgs, cliProfile: options.profile.name as ProfileSetting, dialect: "auto" }, env: {} };
      const parts = turn === 0 ? options.parts : [];
      // A stream CLI that takes no images is known now: nothing runs. An ACP agent says so in its first turn.
      const refusal = launcher.imagesRefusal({ sessionId, agent, parts });
      if (refusal !== null) throw new UsageError(`--attach: ${refusal}`);
      const run = launcher.start({
        sessionId,
        agent,
        prompt,
        parts,
        conversation: { id, continues: turn > 0, stateDir },
        cwd: options.cwd,
        workspaceRoots: [options.cwd],
        inactivityTimeoutMs: options.inactivityTimeoutMs,
        autoAnswer: policyOf(options.approve),
        chosenSettings: options.chosen,
        keepBlocks: false,
        onEvent: output.onEvent,
        onChange: output.printer(),
      });
      output.stdout.attach(run);
      exitCode = (await stopper.watch(run)).done.exitCode;
    }
    await output.stdout.flushed();
    return exitCode;
  } finally {
    await launcher.endSession(sessionId);
    questions.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/** `allow`/`reject`: a standing answer, as the panel's setting gives, for every kind of tool; `ask` leaves it open. */
function policyOf(approve: Approval): AutoAnswerPolicy {
  if (approve === "ask") return {};
  const rule: AutoAnswer = approve;
  return Object.fromEntries(TOOL_KINDS.map((kind) => [kind, rule])) as AutoAnswerPolicy;
}

const DIFF_LINES_SHOWN = 20;
const DIFF_LINE_CHARS_SHOWN = 200;

/**
 * The first lines of a diff's new text, each cut and copied: a piece of a string keeps all of it in memory, so lines
 * kept from every call's diff held every diff whole (600 calls of a 1 MB diff took `ask` to 800 MB).
 */
function firstLines(text: string): string[] {
  const head = text.slice(0, DIFF_LINES_SHOWN * (DIFF_LINE_CHARS_SHOWN + 1));
  return head.split("\n", DIFF_LINES_SHOWN).map((line) => Buffer.from(line.slice(0, DIFF_LINE_CHARS_SHOWN), "utf16le").toString("utf16le"));
}

/** Calls under way whose details a permission question can show; an agent that never ends its calls forgets the oldest. */
const MAX_TOOLS_DESCRIBED = 1000;

/**
 * Where every turn goes: NDJSON or the live printer, on a stdout that holds back each turn's agent while its reader is
 * behind; and what the tools said, for a permission question.
 */
class AskOutput {
  private readonly tools = new Map<string, string[]>();
  readonly stdout = new BackpressuredStdout();
  readonly stderr: ((chunk: Buffer) => void) | undefined;

  constructor(private readonly json: boolean) {
    this.stderr = json ? undefined : createStderrPassthrough(process.stderr);
  }

  readonly onEvent = (event: CliStreamEvent): void => {
    this.noteTool(event);
    if (this.json) this.stdout.write(escapeJson(JSON.stringify(event)) + "\n");
  };

  printer(): ReturnType<typeof createLivePrinter> | undefined {
    if (this.json) return undefined;
    return createLivePrinter({ out: this.stdout, err: process.stderr, color: process.stdout.isTTY === true && !process.env.NO_COLOR });
  }

  /** The command, path, URL and diffs known of a tool call (raw: the caller escapes). */
  toolDetails(toolId: string): string[] {
    return this.tools.get(toolId) ?? [];
  }

  /** Only calls that have not ended, and at most MAX_TOOLS_DESCRIBED of them: a question is about a call under way. */
  private noteTool(event: CliStreamEvent): void {
    if (event.type === "tool_started" && event.payload.toolId !== undefined) {
      const summary = summarizeParameters(event.payload.parameters ?? null);
      this.describe(event.payload.toolId, summary === "" ? [] : [summary]);
    }
    if (event.type === "tool_updated" && event.payload.diffs !== undefined && event.payload.diffs.length > 0) {
      const known = this.tools.get(event.payload.toolId) ?? [];
      const diffs = event.payload.diffs.flatMap((diff) => [`--- ${diff.path}`, ...firstLines(diff.newText).map((line) => `+ ${line}`)]);
      this.describe(event.payload.toolId, [...known.filter((line) => !line.startsWith("--- ") && !line.startsWith("+ ")), ...diffs]);
    }
    const ended = (event.type === "tool_updated" && (event.payload.status === "completed" || event.payload.status === "failed")) || event.type === "tool_completed";
    if (ended && event.payload.toolId !== undefined) this.tools.delete(event.payload.toolId);
  }

  private describe(toolId: string, details: string[]): void {
    this.tools.delete(toolId);
    this.tools.set(toolId, details);
    if (this.tools.size > MAX_TOOLS_DESCRIBED) this.tools.delete(this.tools.keys().next().value as string);
  }
}

/**
 * Ctrl-C, SIGTERM, SIGHUP: the turn under way is stopped in band first and no later prompt runs; twice: killed. A
 * reader that went away (`| head`), or a closed terminal, kills it at once, as for `run`: not a crash.
 */
class TurnStopper {
  private current: RunningTurn | undefined;
  private signals = 0;
  private readonly onSignal = () => {
    this.signals++;
    if (this.signals === 1) void this.current?.stop();
    else this.current?.kill();
  };
  private readonly onOutputGone = () => {
    this.signals = Math.max(this.signals, 2);
    this.current?.kill();
  };
  private static readonly SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

  constructor() {
    for (const signal of TurnStopper.SIGNALS) process.on(signal, this.onSignal);
    process.stdout.on("error", this.onOutputGone);
    process.stderr.on("error", this.onOutputGone);
  }

  get stopped(): boolean {
    return this.signals > 0;
  }

  async watch(turn: RunningTurn): Promise<Transcript> {
    this.current = turn;
    // A signal that came while the turn was being set up stops it as soon as it exists.
    if (this.signals > 1) turn.kill();
    else if (this.signals > 0) void turn.stop();
    try {
      return await turn.finished;
    } finally {
      this.current = undefined;
    }
  }

  dispose(): void {
    // The output listeners stay: a write the gone reader never took still fails after the run, and is no crash.
    for (const signal of TurnStopper.SIGNALS) process.off(signal, this.onSignal);
  }
}
