// Qwen Code (`qwen --output-format stream-json --include-partial-messages`) against the mock OpenAI chat completions
// API. Its stream is Claude-shaped. Facts behind the flags, settings and environment: docs/real-acp-agents.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { isRecord, type ModelRequest } from "./mock-model-server";
import { openaiInvalidKey, openaiRateLimited, openaiServerError, openaiStream, type OpenAIToolCall } from "./openai-replies";
import { signalScenarios, type AgentCli, type Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const MODEL = "mock-model";
const answer = (content: readonly string[]) => openaiStream({ content, finishReason: "stop" });
const slowAnswer = () => openaiStream({ content: texts.slowAnswerChunks(), finishReason: "stop", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS });
const call = (content: readonly string[] | undefined, ...toolCalls: OpenAIToolCall[]) => openaiStream({ content, toolCalls, finishReason: "tool_calls" });
const prompt = (words: string) => [words];

export const qwenCli: AgentCli = {
  name: "qwen",
  packageName: "@qwen-code/qwen-code",
  binary: path.join("node_modules", ".bin", "qwen"),
  // Newer versions declare node >= 22 and still run on node 20.
  installFlags: ["--engine-strict=false"],
  commonArgs: ["--output-format", "stream-json", "--include-partial-messages", "--auth-type", "openai", "--yolo"],
  env: ({ home, port }) => ({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    OPENAI_API_KEY: "test-key",
    OPENAI_MODEL: MODEL,
  }),
  prepareHome: ({ home }) => {
    const settings = {
      security: { auth: { selectedType: "openai" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      // The default retries a 500 for over a minute; one quick retry shows the same shapes.
      model: { generationConfig: { maxRetries: 1, retryInitialDelayMs: 200 } },
    };
    fs.mkdirSync(path.join(home, ".qwen"), { recursive: true });
    fs.writeFileSync(path.join(home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
  },
  sideRequests: [{ name: "memory", matches: isMemoryExtraction, reply: answer(["Nothing to remember."]) }],
  scenarios: qwenScenarios(),
};

function qwenScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => prompt(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "Reasoning deltas (delta.reasoning_content) before the text answer.",
      args: () => prompt(texts.THINKING_PROMPT),
      replies: () => [openaiStream({ reasoning: texts.THINKING_CHUNKS, content: texts.THINKING_ANSWER_CHUNKS, finishReason: "stop" })],
    },
    {
      name: "tool-use",
      description: "Three model turns: read_file notes.txt, then run_shell_command `echo hi`, then the answer (--yolo approves both).",
      args: () => prompt(texts.TOOL_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        call(texts.TOOL_INTRO_CHUNKS, { id: "call_mock_read_01", name: "read_file", arguments: { file_path: path.join(workspace, texts.NOTES_FILE) } }),
        call(texts.TOOL_MIDDLE_CHUNKS, { id: "call_mock_bash_02", name: "run_shell_command", arguments: { command: "echo hi", description: "Print hi" } }),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description: "read_file notes.txt (Qwen Code's edit refuses a file not read in the session), edit it, write_file todo.md, then the answer.",
      args: () => prompt(texts.EDIT_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        call(texts.EDIT_INTRO_CHUNKS, { id: "call_mock_read_01", name: "read_file", arguments: { file_path: path.join(workspace, texts.NOTES_FILE) } }),
        call(undefined, {
          id: "call_mock_edit_02",
          name: "edit",
          arguments: { file_path: path.join(workspace, texts.NOTES_FILE), old_string: texts.EDIT_FROM, new_string: texts.EDIT_TO },
        }),
        call(undefined, { id: "call_mock_write_03", name: "write_file", arguments: { file_path: path.join(workspace, texts.NEW_FILE), content: texts.NEW_FILE_TEXT } }),
        answer(texts.EDIT_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-error",
      description: "read_file of a file that does not exist: the tool_result is an error, then the model answers.",
      args: () => prompt(texts.TOOL_ERROR_PROMPT),
      replies: ({ workspace }) => [
        call(undefined, { id: "call_mock_read_missing", name: "read_file", arguments: { file_path: path.join(workspace, texts.MISSING_FILE) } }),
        answer(texts.TOOL_ERROR_ANSWER_CHUNKS),
      ],
    },
    {
      name: "auth-error",
      description: "Every request answered 401 invalid_api_key: the result says success, its text is [API Error: …].",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiInvalidKey("test-key"),
    },
    {
      name: "server-error-give-up",
      description: "Every request answered 500, until Qwen Code gives up (model.generationConfig.maxRetries 1).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiServerError(),
      timeoutMs: 180_000,
    },
    {
      name: "rate-limited",
      description: "One 429 rate_limit_exceeded with retry-after: 1, then a good answer.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [openaiRateLimited(), answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    ...signalScenarios({
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      after: isTextDelta,
      when: "once the first text delta of a slow answer is on stdout",
    }),
  ];
}

/** Qwen Code's background memory extraction, which runs after an answer and holds the `result` back until it ends. */
function isMemoryExtraction(request: ModelRequest): boolean {
  if (!isRecord(request.body) || !Array.isArray(request.body.messages)) return false;
  const first: unknown = request.body.messages[0];
  return isRecord(first) && first.role === "system" && typeof first.content === "string" && first.content.includes("memory extraction subagent");
}

function isTextDelta(line: unknown): boolean {
  if (!isRecord(line) || line.type !== "stream_event" || !isRecord(line.event)) return false;
  return line.event.type === "content_block_delta" && isRecord(line.event.delta) && line.event.delta.type === "text_delta";
}

