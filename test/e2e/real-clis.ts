// The real, published Claude Code and pi as the end-to-end suites run them against our scripted mock model server on
// 127.0.0.1: their settings, their own command lines, and the mock's replies for each scenario. Facts behind their
// flags and environment: docs/real-cli-recording.md.
import * as path from "node:path";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { openaiStream } from "../../scripts/recording/openai-replies";
import { piCli } from "../../scripts/recording/pi-cli";
import type { AgentCli } from "../../scripts/recording/scenario";
import { NOTES_FILE, SHORT_ANSWER_CHUNKS, SLOW_DELTA_DELAY_MS, slowAnswerChunks } from "../../scripts/recording/scenario-texts";

export const READ_PROMPT = `Read ${NOTES_FILE} and tell me what it says.`;
const READ_INTRO_CHUNKS = ["I'll read ", `${NOTES_FILE} first.`];
const READ_ANSWER_CHUNKS = ["The notes say ", "the build is green."];
export const READ_ANSWER = READ_ANSWER_CHUNKS.join("");
export const FIRST_PROMPT = "Say hi, and remember the word kumquat.";
export const FOLLOW_UP_PROMPT = "Which word did I ask you to remember?";
const FOLLOW_UP_CHUNKS = ["You asked me ", "to remember kumquat."];
export const FOLLOW_UP_ANSWER = FOLLOW_UP_CHUNKS.join("");

/** One real CLI as the extension runs it, and the mock model's side of each scenario. */
export interface RealCli {
  readonly title: string;
  readonly agent: AgentCli;
  /** The versions `npm run record-fixtures` recorded, so these runs match the committed fixtures. */
  readonly version: string;
  /** `agentStream.cli.args`: the profile adds how the prompt is passed, stopped and continued. */
  readonly args: readonly string[];
  /** The CLI's own one-shot JSON command line for a prompt, as a script gives it to `agent-stream run`. */
  readonly ownCommandLine: (prompt: string) => string[];
  /** The tool's name as the CLI reports it, on its card. */
  readonly readTool: string;
  /** A text, then a call of the read tool on notes.txt; then the answer. */
  readonly readThenAnswer: (workspace: string) => MockReply[];
  /** A long answer, one word per delta, paced so that Stop lands in the middle of it. */
  readonly slowAnswer: () => MockReply;
  /** Any request after the scripted ones: a CLI that asked again gets a short answer, not a 500. */
  readonly shortAnswer: () => MockReply;
  readonly followUpAnswer: () => MockReply;
  /**
   * Measured: whether the CLI's saved conversation holds a prompt whose answer a window reload cut short, so that the
   * next prompt, continuing that conversation, still carries it to the model.
   */
  readonly keepsAnInterruptedPrompt: boolean;
}

export const CLAUDE: RealCli = {
  title: "Claude Code",
  agent: claudeCli,
  version: "2.1.330",
  args: [...claudeCli.commonArgs, "--allowedTools", "Read"],
  ownCommandLine: (prompt) => [...claudeCli.commonArgs, "--allowedTools", "Read", "--", prompt],
  readTool: "Read",
  keepsAnInterruptedPrompt: true,
  readThenAnswer: (workspace) => [
    anthropicStream({
      blocks: [
        { type: "text", chunks: READ_INTRO_CHUNKS },
        // Claude Code's Read wants an absolute path.
        { type: "tool_use", id: "toolu_e2e_read_01", name: "Read", input: { file_path: path.join(workspace, NOTES_FILE) } },
      ],
      stopReason: "tool_use",
    }),
    anthropicStream({ blocks: [{ type: "text", chunks: READ_ANSWER_CHUNKS }], stopReason: "end_turn" }),
  ],
  slowAnswer: () => anthropicStream({ blocks: [{ type: "text", chunks: slowAnswerChunks() }], stopReason: "end_turn", deltaDelayMs: SLOW_DELTA_DELAY_MS }),
  shortAnswer: () => anthropicStream({ blocks: [{ type: "text", chunks: SHORT_ANSWER_CHUNKS }], stopReason: "end_turn" }),
  followUpAnswer: () => anthropicStream({ blocks: [{ type: "text", chunks: FOLLOW_UP_CHUNKS }], stopReason: "end_turn" }),
};

export const PI: RealCli = {
  title: "pi",
  agent: piCli,
  version: "0.73.1",
  args: [...piCli.commonArgs, "--model", "mock-model"],
  ownCommandLine: (prompt) => ["--mode", "json", ...piCli.commonArgs, "--model", "mock-model", prompt],
  readTool: "read",
  // pi writes the turn to its session file when the turn ends; a reload mid-answer leaves the file as it was.
  keepsAnInterruptedPrompt: false,
  readThenAnswer: () => [
    openaiStream({ content: READ_INTRO_CHUNKS, toolCalls: [{ id: "call_e2e_read_01", name: "read", arguments: { path: NOTES_FILE } }], finishReason: "tool_calls" }),
    openaiStream({ content: READ_ANSWER_CHUNKS, finishReason: "stop" }),
  ],
  slowAnswer: () => openaiStream({ content: slowAnswerChunks(), finishReason: "stop", deltaDelayMs: SLOW_DELTA_DELAY_MS }),
  shortAnswer: () => openaiStream({ content: SHORT_ANSWER_CHUNKS, finishReason: "stop" }),
  followUpAnswer: () => openaiStream({ content: FOLLOW_UP_CHUNKS, finishReason: "stop" }),
};
