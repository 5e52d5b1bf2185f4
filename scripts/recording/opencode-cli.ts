// opencode (`opencode run --format json "<prompt>"`) against the mock OpenAI chat completions API, through the
// `@ai-sdk/openai-compatible` provider. Facts behind the configuration: docs/real-acp-agents.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { isRecord, type ModelRequest } from "./mock-model-server";
import { openaiInvalidKey, openaiRateLimited, openaiServerError, openaiStream, type OpenAIToolCall } from "./openai-replies";
import { signalGroupAfter, signalIfStillRunning, type AgentCli, type Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const MODEL = "mock-model";
const answer = (content: readonly string[]) => openaiStream({ content, finishReason: "stop" });
const slowAnswer = () => openaiStream({ content: texts.slowAnswerChunks(), finishReason: "stop", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS });
const call = (content: readonly string[] | undefined, ...toolCalls: OpenAIToolCall[]) => openaiStream({ content, toolCalls, finishReason: "tool_calls" });
const prompt = (words: string) => [words];

export const opencodeCli: AgentCli = {
  name: "opencode",
  packageName: "opencode-ai",
  binary: path.join("node_modules", ".bin", "opencode"),
  installFlags: [],
  commonArgs: ["run", "--format", "json"],
  env: ({ home }) => ({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
  }),
  prepareHome: ({ home, port }) => {
    const config = {
      model: `mock/${MODEL}`,
      small_model: `mock/${MODEL}`,
      autoupdate: false,
      share: "disabled",
      // Run mode cannot ask: every tool is allowed, as with Gemini's --yolo.
      permission: "allow",
      provider: {
        mock: {
          npm: "@ai-sdk/openai-compatible",
          name: "Mock",
          options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "test-key" },
          models: { [MODEL]: { name: "Mock", limit: { context: 128000, output: 8192 } } },
        },
      },
    };
    const folder = path.join(home, ".config", "opencode");
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "opencode.json"), JSON.stringify(config, null, 2));
  },
  sideRequests: [{ name: "title", matches: isTitleRequest, reply: answer(["Mock session title"]) }],
  scenarios: opencodeScenarios(),
};

function opencodeScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => prompt(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "Reasoning deltas (delta.reasoning_content) before the text answer; --thinking shows them.",
      args: () => ["--thinking", texts.THINKING_PROMPT],
      replies: () => [openaiStream({ reasoning: texts.THINKING_CHUNKS, content: texts.THINKING_ANSWER_CHUNKS, finishReason: "stop" })],
    },
    {
      name: "tool-use",
      description: "Three model turns: read notes.txt, then bash `echo hi`, then the answer.",
      args: () => prompt(texts.TOOL_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        call(texts.TOOL_INTRO_CHUNKS, { id: "call_mock_read_01", name: "read", arguments: { filePath: path.join(workspace, texts.NOTES_FILE) } }),
        call(texts.TOOL_MIDDLE_CHUNKS, { id: "call_mock_bash_02", name: "bash", arguments: { command: "echo hi", description: "Print hi" } }),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description: "edit notes.txt, then write todo.md, then the answer: the tool states carry diffs.",
      args: () => prompt(texts.EDIT_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        call(texts.EDIT_INTRO_CHUNKS, {
          id: "call_mock_edit_01",
          name: "edit",
          arguments: { filePath: path.join(workspace, texts.NOTES_FILE), oldString: texts.EDIT_FROM, newString: texts.EDIT_TO },
        }),
        call(undefined, { id: "call_mock_write_02", name: "write", arguments: { filePath: path.join(workspace, texts.NEW_FILE), content: texts.NEW_FILE_TEXT } }),
        answer(texts.EDIT_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-error",
      description: "read of a file that does not exist: the tool part ends in state error, then the model answers.",
      args: () => prompt(texts.TOOL_ERROR_PROMPT),
      replies: ({ workspace }) => [
        call(undefined, { id: "call_mock_read_missing", name: "read", arguments: { filePath: path.join(workspace, texts.MISSING_FILE) } }),
        answer(texts.TOOL_ERROR_ANSWER_CHUNKS),
      ],
    },
    {
      name: "auth-error",
      description: "Every request answered 401 invalid_api_key (opencode does not retry it).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiInvalidKey("test-key"),
    },
    {
      name: "server-error-give-up",
      description:
        "Every request answered 500 with retry-after-ms: 100 (opencode honours it; without it the same 5 retries take 80 s), until opencode gives up.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiServerError({ "retry-after-ms": "100" }),
    },
    {
      name: "rate-limited",
      description: "One 429 rate_limit_exceeded with retry-after: 1, then a good answer.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [openaiRateLimited(), answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "sigint",
      description: "SIGINT to the process group once a slow answer's step has started; SIGTERM if it still runs 5 s later.",
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        await signalGroupAfter(run, log, isStepStart, "SIGINT");
        await signalIfStillRunning(run, log, 5_000, "SIGTERM", "SIGINT");
      },
    },
    {
      name: "sigterm",
      description: "SIGTERM to the process group once a slow answer's step has started.",
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => signalGroupAfter(run, log, isStepStart, "SIGTERM"),
    },
  ];
}

/** opencode's title request: its own system prompt, sent to the small model alongside the conversation. */
function isTitleRequest(request: ModelRequest): boolean {
  if (!isRecord(request.body) || !Array.isArray(request.body.messages)) return false;
  const first: unknown = request.body.messages[0];
  return isRecord(first) && first.role === "system" && typeof first.content === "string" && first.content.startsWith("You are a title generator");
}

/** opencode prints a text part only once it is whole: a slow answer shows only its `step_start` while it streams. */
function isStepStart(line: unknown): boolean {
  return isRecord(line) && line.type === "step_start";
}
