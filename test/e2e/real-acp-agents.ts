// The real, published ACP agents as `agent-stream ask` runs them against our scripted mock model server on
// 127.0.0.1: their settings (the recorder's, docs/real-acp-agents.md) and the mock's side of each case, in the model
// API each one speaks, with tool names and argument keys from the tool schemas each agent sends. Each agent at the
// version the suites pin, or at the one `npm view` gives today (AGENT_STREAM_ACP_VERSIONS=latest).
import * as fs from "node:fs";
import * as path from "node:path";
import type { MockReply, SideRequest } from "../../scripts/recording/mock-model-server";
import { ensureInstalled, latestVersion } from "../../scripts/recording/agent-cli-cache";
import { anthropicError, anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli, claudeSessionTitleRequest } from "../../scripts/recording/claude-cli";
import { codexCli } from "../../scripts/recording/codex-cli";
import { geminiCli } from "../../scripts/recording/gemini-cli";
import { geminiError, geminiStream } from "../../scripts/recording/gemini-replies";
import { openaiInvalidKey, openaiStream } from "../../scripts/recording/openai-replies";
import { responsesStream } from "../../scripts/recording/responses-replies";
import { qwenCli } from "../../scripts/recording/qwen-cli";
import { opencodeCli } from "../../scripts/recording/opencode-cli";
import type { AgentCli, RecordedScenario, RunPlaces } from "../../scripts/recording/scenario";
import { SHORT_ANSWER_CHUNKS } from "../../scripts/recording/scenario-texts";

export const ANSWER_PROMPT = "Say hi.";
export const ANSWER_CHUNKS = SHORT_ANSWER_CHUNKS;
export const WRITE_PROMPT = "Create todo.md with one item.";
export const WRITTEN_FILE = "todo.md";
/** WRITTEN_FILE's text before an agent that only overwrites writes it. */
export const OLD_TEXT = "# Todo\n";
export const WRITTEN_TEXT = "# Todo\n\n- fix the build\n";
export const SHELL_PROMPT = "Run a command that creates ran.txt.";
/** What the shell command creates: there, it ran; absent, it did not. */
export const SHELL_FILE = "ran.txt";
export const SHELL_COMMAND = `echo ran > ${SHELL_FILE}`;
/** What a command prints for its card to show; it writes a file too, so that every agent asks before it runs. */
export const PRINTED_TEXT = "printed for the card";
export const PRINTING_COMMAND = `echo ${PRINTED_TEXT} | tee printed.txt`;
export const FIRST_PROMPT = "Say hi, and remember the word kumquat.";
export const FIRST_ANSWER_CHUNKS: readonly string[] = ["Hi! I will ", "keep that word in mind."];
export const FIRST_ANSWER = FIRST_ANSWER_CHUNKS.join("");
export const FOLLOW_UP_PROMPT = "Which word did I ask you to remember?";
export const FOLLOW_UP_CHUNKS: readonly string[] = ["You asked me ", "to remember kumquat."];
export const SLOW_PROMPT = "Tell me a long story.";

/** A tool call as the model asks for it: the agent's own tool name and argument keys. */
export interface ToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's id; by default one made of the tool's name (two calls of one tool in one turn need their own). */
  readonly id?: string;
}

/** How one model API says each thing the cases need. */
export interface ModelApi {
  /** A streamed text answer, a pause before each delta when `deltaDelayMs` is given. */
  readonly answer: (chunks: readonly string[], deltaDelayMs?: number) => MockReply;
  readonly call: (toolCall: ToolCall) => MockReply;
  readonly invalidKey: () => MockReply;
}

/** What a new session remembers when a new agent process continues it (a window reload's follow-up). */
export type ReloadOutcome = "remembers the first turn" | "loads the prompts but not the answers";

/** One real ACP agent: how it is installed and set up, the API it speaks, and its tools' names. */
export interface RealAcpAgent {
  readonly title: string;
  /** Its package, environment and settings: the recorder's (scripts/recording). */
  readonly agent: AgentCli;
  readonly version: string;
  /** `agent-stream ask --profile`. */
  readonly profile: string;
  /** `--arg`s: the profile's own plus what this offline setup needs. */
  readonly args: readonly string[];
  readonly sideRequests: readonly SideRequest[];
  /** Writes its settings under the throwaway HOME: the recorder's, made to ask before writes and commands. */
  readonly prepareHome: (places: RunPlaces) => void;
  readonly api: ModelApi;
  /**
   * WRITTEN_FILE's text before the write, or null where the write creates it. Gemini CLI 0.61.0 cannot create a file
   * over ACP, Qwen Code refuses to overwrite one not read first (docs/acp-agents.md).
   */
  readonly writeOver: string | null;
  /** The model's call of the agent's write tool writing WRITTEN_TEXT into WRITTEN_FILE. */
  readonly writeFile: (workspace: string) => MockReply;
  /** The model's call of the agent's shell tool running SHELL_COMMAND. */
  readonly runShell: (workspace: string) => MockReply;
  /** The same tool running PRINTING_COMMAND, asking first as `runShell` does (its own call id). */
  readonly runPrintingCommand: (workspace: string) => MockReply;
  /**
   * A mode the agent offers in which it approves its own edits, for `ask --mode`, and why the agent refuses to switch
   * to it when it does; null where it offers none.
   */
  readonly selfApprovingMode: { readonly id: string; readonly refused?: string } | null;
  /** Measured, per version: a new release that changes one fails its test, so the docs can follow. */
  readonly measured: {
    readonly reload: ReloadOutcome;
    /**
     * Gemini CLI names a session's file by the minute the session began, and its `session/load` empties that file
     * when it comes in the same minute: a session loaded then is lost.
     */
    readonly losesSessionLoadedInItsFirstMinute: boolean;
    /** Whether it asks before writing outside the workspace; null: its writes cannot name a file outside. */
    readonly asksBeforeWritingOutside: boolean | null;
    /** Whether a command's card shows what it printed. */
    readonly showsCommandOutput: boolean;
  };
}

/** Which versions the suite runs: the pinned ones, or `latest`, what `npm view` gives today (its own CI step). */
export type AgentVersions = "pinned" | "latest";

export function agentVersionsOf(env: NodeJS.ProcessEnv = process.env): AgentVersions {
  const value = env.AGENT_STREAM_ACP_VERSIONS ?? "pinned";
  if (value === "pinned" || value === "latest") return value;
  throw new Error(`AGENT_STREAM_ACP_VERSIONS must be pinned or latest, got ${JSON.stringify(value)}`);
}

/** Every real agent the suite runs, at the versions asked for (`latest` asks npm for each). */
export function realAcpAgents(versions: AgentVersions): RealAcpAgent[] {
  if (versions === "pinned") return [QWEN, GEMINI, OPENCODE, CODEX_ACP, CLAUDE_ACP];
  return [
    qwenAgent(latestVersion(qwenCli.packageName)),
    geminiAgent(latestVersion(geminiCli.packageName)),
    opencodeAgent(latestVersion(opencodeCli.packageName)),
    codexAcpAgent(latestVersion(CODEX_ACP_PACKAGE)),
    claudeAcpAgent(latestVersion(CLAUDE_ACP_PACKAGE)),
  ];
}

/** Whether `version` (x.y.z) is at least `least`. */
function atLeast(version: string, least: string): boolean {
  const parts = (v: string) => v.split(/[.-]/).slice(0, 3).map((part) => parseInt(part, 10) || 0);
  const [a, b] = [parts(version), parts(least)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

export const DONE_CHUNKS: readonly string[] = ["Done."];

/** The recorder's settings take a scenario; none of theirs depends on it. */
const AS_RECORDED: RecordedScenario = { name: "ask", description: "", args: () => [], replies: () => [] };

const openai: ModelApi = {
  answer: (content, deltaDelayMs) => openaiStream({ content, finishReason: "stop", deltaDelayMs }),
  call: ({ name, args, id }) => openaiStream({ toolCalls: [{ id: id ?? `call_e2e_${name}`, name, arguments: args }], finishReason: "tool_calls" }),
  invalidKey: () => openaiInvalidKey("test-key"),
};

const gemini: ModelApi = {
  answer: (text, deltaDelayMs) => geminiStream({ text, deltaDelayMs }),
  // Gemini's function calls carry no id.
  call: ({ name, args }) => geminiStream({ functionCalls: [{ name, args }] }),
  invalidKey: () => geminiError(401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key."),
};

/** Qwen Code: 0.24 starts its sessions in mode `auto` (a classifier approves edits); the client puts them in `default`. */
export function qwenAgent(version: string): RealAcpAgent {
  return {
    title: "Qwen Code",
    agent: qwenCli,
    version,
    profile: "qwen",
    args: ["--acp", "--auth-type", "openai"],
    sideRequests: qwenCli.sideRequests ?? [],
    prepareHome: (places) => qwenCli.prepareHome(places, AS_RECORDED),
    api: openai,
    writeOver: null,
    writeFile: (workspace) => openai.call({ name: "write_file", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
    runShell: () => openai.call({ name: "run_shell_command", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
    runPrintingCommand: () => openai.call({ id: "call_e2e_printing", name: "run_shell_command", args: { command: PRINTING_COMMAND, description: "Print" } }),
    selfApprovingMode: { id: "yolo" },
    measured: {
      // 0.15.10 offers session/resume but answers it "Method not found"; its session/load replays the prompts only.
      reload: atLeast(version, "0.24.0") ? "remembers the first turn" : "loads the prompts but not the answers",
      losesSessionLoadedInItsFirstMinute: false,
      asksBeforeWritingOutside: true,
      showsCommandOutput: true,
    },
  };
}

export const QWEN = qwenAgent("0.15.10");

export function geminiAgent(version: string): RealAcpAgent {
  return {
    title: "Gemini CLI",
    agent: geminiCli,
    version,
    profile: "gemini",
    args: ["--acp", "-m", "gemini-2.5-flash"],
    sideRequests: [],
    prepareHome: (places) => geminiCli.prepareHome(places, AS_RECORDED),
    api: gemini,
    writeOver: OLD_TEXT,
    writeFile: (workspace) => gemini.call({ name: "write_file", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
    runShell: () => gemini.call({ name: "run_shell_command", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
    runPrintingCommand: () => gemini.call({ name: "run_shell_command", args: { command: PRINTING_COMMAND, description: "Print" } }),
    // Its approval modes need a trusted folder, and the test's workspace is not one.
    selfApprovingMode: { id: "yolo", refused: "Cannot enable privileged approval modes in an untrusted folder." },
    measured: {
      reload: "remembers the first turn",
      losesSessionLoadedInItsFirstMinute: true,
      // It refuses a path outside the workspace itself ("Path not in workspace"), without asking.
      asksBeforeWritingOutside: false,
      // The command's finished update has empty content: over ACP its output is never shown.
      showsCommandOutput: false,
    },
  };
}

export const GEMINI = geminiAgent("0.61.0");

export function opencodeAgent(version: string): RealAcpAgent {
  return {
  title: "opencode",
  agent: opencodeCli,
  version,
  profile: "opencode",
  args: ["acp"],
  sideRequests: opencodeCli.sideRequests ?? [],
  prepareHome: (places) => {
    opencodeCli.prepareHome(places, AS_RECORDED);
    // The recorder's run mode allows everything, since it cannot ask; over ACP it asks before edits and commands.
    const file = path.join(places.home, ".config", "opencode", "opencode.json");
    const config = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...config, permission: { bash: "ask", edit: "ask" } }, null, 2));
  },
  api: openai,
  writeOver: null,
  writeFile: (workspace) => openai.call({ name: "write", args: { filePath: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
  runShell: () => openai.call({ name: "bash", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
  runPrintingCommand: () => openai.call({ id: "call_e2e_printing", name: "bash", args: { command: PRINTING_COMMAND, description: "Print" } }),
  // Its modes (`build`, `plan`) are agents; its `permission` setting says what asks.
  selfApprovingMode: null,
  // It asks about the folder as an "external directory", naming the file and the folder.
  measured: { reload: "remembers the first turn", losesSessionLoadedInItsFirstMinute: false, asksBeforeWritingOutside: true, showsCommandOutput: true },
  };
}

export const OPENCODE = opencodeAgent("1.18.33");

const CODEX_VERSION = "0.169.0";
/** From 1.0 the adapter is published under the protocol's own scope: 2.6 is a node package running the Codex it bundles. */
const CODEX_ACP_PACKAGE = "@agentclientprotocol/codex-acp";
const OLD_CODEX_ACP_PACKAGE = "@zed-industries/codex-acp";

/**
 * codex-acp, Codex's engine behind ACP; the recorder's Codex settings minus `approval_policy` and `sandbox_mode`, so
 * the adapter's own modes decide. Its sandbox needs bwrap: 0.16 takes the copy inside `@openai/codex`'s vendor folder,
 * installed for that alone; the newer ones the copy inside the Codex they bundle.
 */
function codexAcpCli(version: string): AgentCli {
  const bundlesCodex = atLeast(version, "1.0.0");
  const cli: AgentCli = {
    name: "codex-acp",
    packageName: bundlesCodex ? CODEX_ACP_PACKAGE : OLD_CODEX_ACP_PACKAGE,
    binary: path.join("node_modules", ".bin", "codex-acp"),
    installFlags: [],
    commonArgs: [],
    env: (places) => {
      const codex = bundlesCodex ? path.join(path.dirname(ensureInstalled(cli, version)), "codex") : ensureInstalled(codexCli, CODEX_VERSION);
      return codexCli.env({ ...places, executable: codex });
    },
    prepareHome: (places, scenario) => {
      codexCli.prepareHome(places, scenario);
      const file = path.join(places.home, ".codex", "config.toml");
      const lines = fs.readFileSync(file, "utf8").split("\n");
      fs.writeFileSync(file, lines.filter((line) => !/^(approval_policy|sandbox_mode) =/.test(line)).join("\n"));
    },
    scenarios: [],
  };
  return cli;
}

const ADD_FILE_PATCH = [
  "apply_patch <<'EOF'",
  "*** Begin Patch",
  `*** Add File: ${WRITTEN_FILE}`,
  ...WRITTEN_TEXT.trimEnd().split("\n").map((line) => `+${line}`),
  "*** End Patch",
  "EOF",
].join("\n");

const responses: ModelApi = {
  answer: (chunks, deltaDelayMs) => responsesStream({ items: [{ type: "message", chunks }], deltaDelayMs }),
  call: ({ name, args, id }) => responsesStream({ items: [{ type: "function_call", callId: id ?? `call_e2e_${name}`, name, arguments: args }] }),
  invalidKey: () => openaiInvalidKey("mock-codex-key"),
};

/** A command run outside the read-only sandbox, which is what makes codex-acp ask in its read-only mode. */
const escalated = (command: string, justification: string) => ({ cmd: command, sandbox_permissions: "require_escalated", justification, yield_time_ms: 10_000 });

/** codex-acp: 0.16 starts read-only, 2.6 in `agent` (a reviewer model approves); the client puts 2.6 in `read-only`. */
export function codexAcpAgent(version: string): RealAcpAgent {
  const cli = codexAcpCli(version);
  return {
    title: "codex-acp",
    agent: cli,
    version,
    profile: "codex",
    args: [],
    sideRequests: [],
    prepareHome: (places) => cli.prepareHome(places, AS_RECORDED),
    api: responses,
    writeOver: null,
    // Codex intercepts an apply_patch heredoc given to its shell tool and applies it as a patch, asking first: the
    // read-only mode has no writable root.
    writeFile: () => responses.call({ name: "exec_command", args: { cmd: ADD_FILE_PATCH, yield_time_ms: 10_000 } }),
    // The read-only mode runs commands in the sandbox without asking; escalation out of it asks.
    runShell: () => responses.call({ name: "exec_command", args: escalated(SHELL_COMMAND, "Create ran.txt") }),
    runPrintingCommand: () => responses.call({ id: "call_e2e_printing", name: "exec_command", args: escalated(PRINTING_COMMAND, "Print") }),
    selfApprovingMode: { id: atLeast(version, "1.0.0") ? "agent-full-access" : "full-access" },
    measured: {
      reload: "remembers the first turn",
      losesSessionLoadedInItsFirstMinute: false,
      // Its apply_patch names files relative to the workspace: a write cannot be sent elsewhere.
      asksBeforeWritingOutside: null,
      // 0.16 puts a command's output only in the finished update's rawOutput (`formatted_output`), which no card shows;
      // 2.6 in `_meta.terminal_output_delta`, which the card shows.
      showsCommandOutput: atLeast(version, "1.0.0"),
    },
  };
}

export const CODEX_ACP = codexAcpAgent("0.16.0");

/** From 0.24 the adapter is published under the protocol's own scope (the old one stops at 0.23.1). */
const CLAUDE_ACP_PACKAGE = "@agentclientprotocol/claude-agent-acp";

/** claude-agent-acp, Claude Code's engine behind ACP, with Claude Code's environment. */
function claudeAcpCli(version: string): AgentCli {
  return {
    name: "claude-agent-acp",
    packageName: atLeast(version, "0.24.0") ? CLAUDE_ACP_PACKAGE : "@zed-industries/claude-agent-acp",
    binary: path.join("node_modules", ".bin", "claude-agent-acp"),
    installFlags: ["--engine-strict=false"],
    commonArgs: [],
    // 0.23.1 takes any IS_SANDBOX as leave to run as root with permissions bypassable, and starts Claude Code so; Claude
    // Code accepts only IS_SANDBOX=1 and exits ("Query closed before response received"). The panel's agents inherit
    // the extension host's environment, which on a machine with IS_SANDBOX=yes has it: empty, the adapter reads it as unset.
    env: (places) => ({ ...claudeCli.env(places), IS_SANDBOX: "" }),
    prepareHome: () => undefined,
    scenarios: [],
  };
}

const anthropic: ModelApi = {
  answer: (chunks, deltaDelayMs) => anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn", deltaDelayMs }),
  call: ({ name, args, id }) => anthropicStream({ blocks: [{ type: "tool_use", id: id ?? `toolu_e2e_${name}`, name, input: args }], stopReason: "tool_use" }),
  invalidKey: () => anthropicError(401, "authentication_error", "invalid x-api-key"),
};

/** claude-agent-acp: 0.101 starts its sessions in mode `auto` (Claude decides approvals); the client puts them in `default`. */
export function claudeAcpAgent(version: string): RealAcpAgent {
  const cli = claudeAcpCli(version);
  return {
    title: "claude-agent-acp",
    agent: cli,
    version,
    profile: "claude-acp",
    args: [],
    // The Claude Code that 0.101 runs asks the model for a session title first.
    sideRequests: [claudeSessionTitleRequest(anthropic.answer(["Mock session title"]))],
    prepareHome: () => undefined,
    api: anthropic,
    writeOver: null,
    writeFile: (workspace) => anthropic.call({ name: "Write", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
    runShell: () => anthropic.call({ name: "Bash", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
    runPrintingCommand: () => anthropic.call({ id: "toolu_e2e_printing", name: "Bash", args: { command: PRINTING_COMMAND, description: "Print" } }),
    selfApprovingMode: { id: "acceptEdits" },
    measured: { reload: "remembers the first turn", losesSessionLoadedInItsFirstMinute: false, asksBeforeWritingOutside: true, showsCommandOutput: true },
  };
}

export const CLAUDE_ACP = claudeAcpAgent("0.23.1");
