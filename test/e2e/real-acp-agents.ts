// The real, published ACP agents as `agent-stream ask` runs them against our scripted mock model server on
// 127.0.0.1: their settings (the recorder's, docs/real-acp-agents.md) and the mock's side of each case, in the model
// API each one speaks, with tool names and argument keys from the tool schemas each agent sends.
import * as fs from "node:fs";
import * as path from "node:path";
import type { MockReply, SideRequest } from "../../scripts/recording/mock-model-server";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicError, anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
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
}

/** How one model API says each thing the cases need. */
export interface ModelApi {
  /** A streamed text answer, a pause before each delta when `deltaDelayMs` is given. */
  readonly answer: (chunks: readonly string[], deltaDelayMs?: number) => MockReply;
  readonly call: (toolCall: ToolCall) => MockReply;
  readonly invalidKey: () => MockReply;
}

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
}

export const DONE_CHUNKS: readonly string[] = ["Done."];

/** The recorder's settings take a scenario; none of theirs depends on it. */
const AS_RECORDED: RecordedScenario = { name: "ask", description: "", args: () => [], replies: () => [] };

const openai: ModelApi = {
  answer: (content, deltaDelayMs) => openaiStream({ content, finishReason: "stop", deltaDelayMs }),
  call: ({ name, args }) => openaiStream({ toolCalls: [{ id: `call_e2e_${name}`, name, arguments: args }], finishReason: "tool_calls" }),
  invalidKey: () => openaiInvalidKey("test-key"),
};

const gemini: ModelApi = {
  answer: (text, deltaDelayMs) => geminiStream({ text, deltaDelayMs }),
  call: (functionCall) => geminiStream({ functionCalls: [functionCall] }),
  invalidKey: () => geminiError(401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key."),
};

export const QWEN: RealAcpAgent = {
  title: "Qwen Code",
  agent: qwenCli,
  version: "0.15.10",
  profile: "qwen",
  args: ["--acp", "--auth-type", "openai"],
  sideRequests: qwenCli.sideRequests ?? [],
  prepareHome: (places) => qwenCli.prepareHome(places, AS_RECORDED),
  api: openai,
  writeOver: null,
  writeFile: (workspace) => openai.call({ name: "write_file", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
  runShell: () => openai.call({ name: "run_shell_command", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
};

export const GEMINI: RealAcpAgent = {
  title: "Gemini CLI",
  agent: geminiCli,
  version: "0.61.0",
  profile: "gemini",
  args: ["--acp", "-m", "gemini-2.5-flash"],
  sideRequests: [],
  prepareHome: (places) => geminiCli.prepareHome(places, AS_RECORDED),
  api: gemini,
  writeOver: OLD_TEXT,
  writeFile: (workspace) => gemini.call({ name: "write_file", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
  runShell: () => gemini.call({ name: "run_shell_command", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
};

export const OPENCODE: RealAcpAgent = {
  title: "opencode",
  agent: opencodeCli,
  version: "1.18.33",
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
};

const CODEX_VERSION = "0.169.0";

/**
 * codex-acp, Codex's engine behind ACP; the recorder's Codex settings minus `approval_policy` and `sandbox_mode`, so
 * the adapter's own default preset (read-only, ask on escalation) applies. Its sandbox needs bwrap: the copy inside
 * `@openai/codex`'s vendor folder, which is installed for that alone.
 */
const codexAcpCli: AgentCli = {
  name: "codex-acp",
  packageName: "@zed-industries/codex-acp",
  binary: path.join("node_modules", ".bin", "codex-acp"),
  installFlags: [],
  commonArgs: [],
  env: (places) => codexCli.env({ ...places, executable: ensureInstalled(codexCli, CODEX_VERSION) }),
  prepareHome: (places, scenario) => {
    codexCli.prepareHome(places, scenario);
    const file = path.join(places.home, ".codex", "config.toml");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    fs.writeFileSync(file, lines.filter((line) => !/^(approval_policy|sandbox_mode) =/.test(line)).join("\n"));
  },
  scenarios: [],
};

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
  call: ({ name, args }) => responsesStream({ items: [{ type: "function_call", callId: `call_e2e_${name}`, name, arguments: args }] }),
  invalidKey: () => openaiInvalidKey("mock-codex-key"),
};

export const CODEX_ACP: RealAcpAgent = {
  title: "codex-acp",
  agent: codexAcpCli,
  version: "0.16.0",
  profile: "codex",
  args: [],
  sideRequests: [],
  prepareHome: (places) => codexAcpCli.prepareHome(places, AS_RECORDED),
  api: responses,
  writeOver: null,
  // Codex intercepts an apply_patch heredoc given to its shell tool and applies it as a patch, asking first: the
  // read-only preset has no writable root.
  writeFile: () => responses.call({ name: "exec_command", args: { cmd: ADD_FILE_PATCH, yield_time_ms: 10_000 } }),
  // The read-only preset runs commands in the sandbox without asking; escalation out of it asks.
  runShell: () =>
    responses.call({ name: "exec_command", args: { cmd: SHELL_COMMAND, sandbox_permissions: "require_escalated", justification: "Create ran.txt", yield_time_ms: 10_000 } }),
};

/** claude-agent-acp, Claude Code's engine behind ACP, with Claude Code's environment. */
const claudeAcpCli: AgentCli = {
  name: "claude-agent-acp",
  packageName: "@zed-industries/claude-agent-acp",
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

const anthropic: ModelApi = {
  answer: (chunks, deltaDelayMs) => anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn", deltaDelayMs }),
  call: ({ name, args }) => anthropicStream({ blocks: [{ type: "tool_use", id: `toolu_e2e_${name}`, name, input: args }], stopReason: "tool_use" }),
  invalidKey: () => anthropicError(401, "authentication_error", "invalid x-api-key"),
};

/** 0.23.1: newer versions start in a mode that approves by itself (docs/real-acp-agents.md). */
export const CLAUDE_ACP: RealAcpAgent = {
  title: "claude-agent-acp",
  agent: claudeAcpCli,
  version: "0.23.1",
  profile: "claude-acp",
  args: [],
  sideRequests: [],
  prepareHome: () => undefined,
  api: anthropic,
  writeOver: null,
  writeFile: (workspace) => anthropic.call({ name: "Write", args: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
  runShell: () => anthropic.call({ name: "Bash", args: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
};
