// Gemini CLI (`gemini -p "<prompt>" --output-format stream-json`) against the mock Gemini API.
// Facts behind the flags, settings and environment: docs/real-acp-agents.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { geminiError, geminiStream, type GeminiTurn } from "./gemini-replies";
import { isRecord } from "./mock-model-server";
import { signalScenarios, type AgentCli, type Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const MODEL = "gemini-2.5-flash";
const answer = (text: readonly string[]) => geminiStream({ text });
const slowAnswer = () => geminiStream({ text: texts.slowAnswerChunks(), deltaDelayMs: texts.SLOW_DELTA_DELAY_MS });
const calls = (turn: GeminiTurn) => geminiStream(turn);
const prompt = (words: string) => ["-p", words];

export const geminiCli: AgentCli = {
  name: "gemini",
  packageName: "@google/gemini-cli",
  binary: path.join("node_modules", ".bin", "gemini"),
  installFlags: [],
  commonArgs: ["--output-format", "stream-json", "--skip-trust", "--yolo", "-m", MODEL],
  env: ({ home, port }) => ({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    GEMINI_API_KEY: "mock-gemini-key",
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
  }),
  prepareHome: ({ home }) => {
    const settings = {
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      // Two attempts show the retry and the give-up in seconds; the default retries for much longer.
      general: { maxAttempts: 2 },
    };
    fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
    fs.writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
  },
  scenarios: geminiScenarios(),
};

function geminiScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => prompt(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "Thought parts (`thought: true`) before the text answer.",
      args: () => prompt(texts.THINKING_PROMPT),
      replies: () => [geminiStream({ thoughts: texts.THINKING_CHUNKS, text: texts.THINKING_ANSWER_CHUNKS })],
    },
    {
      name: "tool-use",
      description: "Three model turns: read_file notes.txt, then run_shell_command `echo hi`, then the answer (--yolo approves both).",
      args: () => prompt(texts.TOOL_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        calls({ text: texts.TOOL_INTRO_CHUNKS, functionCalls: [{ name: "read_file", args: { file_path: path.join(workspace, texts.NOTES_FILE) } }] }),
        calls({ text: texts.TOOL_MIDDLE_CHUNKS, functionCalls: [{ name: "run_shell_command", args: { command: "echo hi", description: "Print hi" } }] }),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description: "replace in notes.txt, then write_file todo.md, then the answer: what an edit's tool_result carries (no diff, as it turns out).",
      args: () => prompt(texts.EDIT_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        calls({
          text: texts.EDIT_INTRO_CHUNKS,
          functionCalls: [
            {
              name: "replace",
              args: { file_path: path.join(workspace, texts.NOTES_FILE), instruction: "Say red", old_string: texts.EDIT_FROM, new_string: texts.EDIT_TO },
            },
          ],
        }),
        calls({ functionCalls: [{ name: "write_file", args: { file_path: path.join(workspace, texts.NEW_FILE), content: texts.NEW_FILE_TEXT } }] }),
        answer(texts.EDIT_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-error",
      description: "read_file of a file that does not exist: the tool_result has status error, then the model answers.",
      args: () => prompt(texts.TOOL_ERROR_PROMPT),
      replies: ({ workspace }) => [
        calls({ functionCalls: [{ name: "read_file", args: { file_path: path.join(workspace, texts.MISSING_FILE) } }] }),
        answer(texts.TOOL_ERROR_ANSWER_CHUNKS),
      ],
    },
    {
      name: "auth-error",
      description: "Every request answered 401 UNAUTHENTICATED.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: geminiError(401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key."),
    },
    {
      name: "server-error-give-up",
      description: "Every request answered 500 INTERNAL, until the CLI gives up (general.maxAttempts 2).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: geminiError(500, "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"),
    },
    {
      name: "rate-limited",
      description: "One 429 RESOURCE_EXHAUSTED, then a good answer.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [geminiError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."), answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "long-answer",
      description: "One answer of 2,000 text chunks, sent as fast as the socket takes them.",
      args: () => prompt(texts.LONG_PROMPT),
      replies: () => [answer(texts.longAnswerChunks())],
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

function isTextDelta(line: unknown): boolean {
  return isRecord(line) && line.type === "message" && line.role === "assistant";
}
