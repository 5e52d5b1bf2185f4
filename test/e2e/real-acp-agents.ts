// The real, published ACP agents as `agent-stream ask` runs them against our scripted mock model server on
// 127.0.0.1: their settings (the recorder's, docs/real-acp-agents.md) and the mock's side of each case, in the model
// API each one speaks, with tool names and argument keys from the tool schemas each agent sends.
import * as path from "node:path";
import type { MockReply, SideRequest } from "../../scripts/recording/mock-model-server";
import { openaiInvalidKey, openaiStream, type OpenAIToolCall } from "../../scripts/recording/openai-replies";
import { qwenCli } from "../../scripts/recording/qwen-cli";
import type { AgentCli } from "../../scripts/recording/scenario";
import { SHORT_ANSWER_CHUNKS, SLOW_DELTA_DELAY_MS, slowAnswerChunks } from "../../scripts/recording/scenario-texts";

export const ANSWER_PROMPT = "Say hi.";
export const ANSWER_CHUNKS = SHORT_ANSWER_CHUNKS;
export const WRITE_PROMPT = "Create todo.md with one item.";
export const WRITTEN_FILE = "todo.md";
export const WRITTEN_TEXT = "# Todo\n\n- fix the build\n";
export const SHELL_PROMPT = "Run a command that creates ran.txt.";
/** What the shell command creates: there, it ran; absent, it did not. */
export const SHELL_FILE = "ran.txt";
export const SHELL_COMMAND = `echo ran > ${SHELL_FILE}`;
export const FIRST_PROMPT = "Say hi, and remember the word kumquat.";
const FIRST_ANSWER_CHUNKS = ["Hi! I will ", "remember quince-jam."];
export const FIRST_ANSWER = FIRST_ANSWER_CHUNKS.join("");
export const FOLLOW_UP_PROMPT = "Which word did I ask you to remember?";
const FOLLOW_UP_CHUNKS = ["You asked me ", "to remember kumquat."];
export const SLOW_PROMPT = "Tell me a long story.";
const DONE_CHUNKS = ["Done."];

/** What the agent's environment and settings need, where the case runs. */
export interface AgentPlaces {
  readonly home: string;
  readonly workspace: string;
  readonly port: number;
}

/** One real ACP agent, and the mock model's replies for each case, in its API. */
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
  readonly answer: () => MockReply;
  readonly firstAnswer: () => MockReply;
  readonly followUpAnswer: () => MockReply;
  /** A long answer, one word per delta, paced so that Stop lands in the middle of it. */
  readonly slowAnswer: () => MockReply;
  /** A call of the agent's write tool creating WRITTEN_FILE; then (if it goes on) `done`. */
  readonly writeFile: (workspace: string) => MockReply;
  /** A call of the agent's shell tool running SHELL_COMMAND. */
  readonly runShell: (workspace: string) => MockReply;
  /** Any later request: a short answer, not a 500. */
  readonly done: () => MockReply;
  readonly invalidKey: () => MockReply;
}

const openaiAnswer = (content: readonly string[]) => openaiStream({ content, finishReason: "stop" });
const openaiCall = (toolCall: OpenAIToolCall) => openaiStream({ toolCalls: [toolCall], finishReason: "tool_calls" });

export const QWEN: RealAcpAgent = {
  title: "Qwen Code",
  agent: qwenCli,
  version: "0.15.10",
  profile: "qwen",
  args: ["--acp", "--auth-type", "openai"],
  sideRequests: qwenCli.sideRequests ?? [],
  answer: () => openaiAnswer(ANSWER_CHUNKS),
  firstAnswer: () => openaiAnswer(FIRST_ANSWER_CHUNKS),
  followUpAnswer: () => openaiAnswer(FOLLOW_UP_CHUNKS),
  slowAnswer: () => openaiStream({ content: slowAnswerChunks(), finishReason: "stop", deltaDelayMs: SLOW_DELTA_DELAY_MS }),
  writeFile: (workspace) =>
    openaiCall({ id: "call_e2e_write_01", name: "write_file", arguments: { file_path: path.join(workspace, WRITTEN_FILE), content: WRITTEN_TEXT } }),
  runShell: () => openaiCall({ id: "call_e2e_shell_01", name: "run_shell_command", arguments: { command: SHELL_COMMAND, description: "Create ran.txt" } }),
  done: () => openaiAnswer(DONE_CHUNKS),
  invalidKey: () => openaiInvalidKey("test-key"),
};
