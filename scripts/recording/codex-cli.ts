// Codex (`codex exec --json "<prompt>"`) against the mock OpenAI Responses API.
// Facts behind the configuration and the environment: docs/real-acp-agents.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { isRecord } from "./mock-model-server";
import { openaiInvalidKey, openaiRateLimited, openaiServerError } from "./openai-replies";
import { responsesStream, type ResponsesItem } from "./responses-replies";
import { signalScenarios, type AgentCli, type RunPlaces, type Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const MODEL = "mock-model";
const message = (chunks: readonly string[]): ResponsesItem => ({ type: "message", chunks });
const answer = (chunks: readonly string[]) => responsesStream({ items: [message(chunks)] });
const turn = (...items: ResponsesItem[]) => responsesStream({ items });
const prompt = (words: string) => [words];

export const codexCli: AgentCli = {
  name: "codex",
  packageName: "@openai/codex",
  binary: path.join("node_modules", ".bin", "codex"),
  installFlags: [],
  commonArgs: ["exec", "--json", "--skip-git-repo-check"],
  env: (places) => ({
    PATH: [bundledBwrapFolder(places), process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin"].filter(Boolean).join(path.delimiter),
    HOME: places.home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    CODEX_HOME: path.join(places.home, ".codex"),
    MOCK_API_KEY: "mock-codex-key",
  }),
  prepareHome: ({ home, port }) => {
    const config = [
      `model = "${MODEL}"`,
      `model_provider = "mock"`,
      // exec never asks; workspace-write lets the edit scenario change files (through bwrap).
      `approval_policy = "never"`,
      `sandbox_mode = "workspace-write"`,
      ``,
      `[model_providers.mock]`,
      `name = "Mock"`,
      `base_url = "http://127.0.0.1:${port}/v1"`,
      `wire_api = "responses"`,
      `env_key = "MOCK_API_KEY"`,
      // The defaults retry for a long time; one retry shows the same shapes in seconds.
      `request_max_retries = 1`,
      `stream_max_retries = 1`,
      ``,
    ].join("\n");
    fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
    fs.writeFileSync(path.join(home, ".codex", "config.toml"), config);
  },
  scenarios: codexScenarios(),
};

/**
 * The bwrap that ships inside `@openai/codex`'s platform package, put first on PATH so that a recording uses the
 * same sandbox on every machine (Codex falls back to it by itself only when no bwrap is on PATH at all).
 */
function bundledBwrapFolder(places: RunPlaces): string | undefined {
  if (!places.executable) return undefined;
  const scope = path.join(path.dirname(fs.realpathSync(places.executable)), "..", "..");
  for (const platformPackage of fs.readdirSync(scope).filter((name) => name.startsWith("codex-"))) {
    const vendor = path.join(scope, platformPackage, "vendor");
    if (!fs.existsSync(vendor)) continue;
    for (const target of fs.readdirSync(vendor)) {
      const folder = path.join(vendor, target, "codex-resources");
      if (fs.existsSync(path.join(folder, "bwrap"))) return folder;
    }
  }
  return undefined;
}

/** A call of Codex's shell tool, `exec_command` (argument keys from the schema Codex sends). */
const exec = (callId: string, cmd: string): ResponsesItem => ({ type: "function_call", callId, name: "exec_command", arguments: { cmd, yield_time_ms: 10_000 } });

/** Codex intercepts an `apply_patch` heredoc given to its shell tool and applies it as a patch: a `file_change` item. */
const EDIT_PATCH = [
  "apply_patch <<'EOF'",
  "*** Begin Patch",
  `*** Update File: ${texts.NOTES_FILE}`,
  "@@",
  `-Remember: ${texts.EDIT_FROM}`,
  `+Remember: ${texts.EDIT_TO}`,
  `*** Add File: ${texts.NEW_FILE}`,
  ...texts.NEW_FILE_TEXT.trimEnd().split("\n").map((line) => `+${line}`),
  "*** End Patch",
  "EOF",
].join("\n");

function codexScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => prompt(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "A reasoning item (summary text deltas) before the text answer; Codex asks for `reasoning.summary: auto`.",
      args: () => prompt(texts.THINKING_PROMPT),
      replies: () => [turn({ type: "reasoning", summary: texts.THINKING_CHUNKS }, message(texts.THINKING_ANSWER_CHUNKS))],
    },
    {
      name: "tool-use",
      description: "Three model turns: exec_command `cat notes.txt`, then exec_command `echo hi`, then the answer.",
      args: () => prompt(texts.TOOL_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: () => [
        turn(message(texts.TOOL_INTRO_CHUNKS), exec("call_mock_cat_01", `cat ${texts.NOTES_FILE}`)),
        turn(message(texts.TOOL_MIDDLE_CHUNKS), exec("call_mock_echo_02", "echo hi")),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description: "exec_command with an apply_patch heredoc (update notes.txt, add todo.md), then the answer: a file_change item.",
      args: () => prompt(texts.EDIT_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: () => [turn(message(texts.EDIT_INTRO_CHUNKS), exec("call_mock_patch_01", EDIT_PATCH)), answer(texts.EDIT_ANSWER_CHUNKS)],
    },
    {
      name: "tool-error",
      description: "exec_command `cat missing.txt`: the command fails (exit 1), then the model answers.",
      args: () => prompt(texts.TOOL_ERROR_PROMPT),
      replies: () => [turn(exec("call_mock_cat_missing", `cat ${texts.MISSING_FILE}`)), answer(texts.TOOL_ERROR_ANSWER_CHUNKS)],
    },
    {
      name: "auth-error",
      description: "Every request answered 401 invalid_api_key.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiInvalidKey("mock-codex-key"),
    },
    {
      name: "server-error-give-up",
      description: "Every request answered 500, until Codex gives up (request_max_retries 1).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiServerError(),
    },
    {
      name: "rate-limited",
      description: "One 429 rate_limit_exceeded with retry-after: 1, then a good answer.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [openaiRateLimited(), answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    ...signalScenarios({
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [turn(message(["Let me wait."]), exec("call_mock_sleep_01", "sleep 30"))],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      after: isCommandStarted,
      when: "once the command_execution of `sleep 30` has started (Codex prints no text until a message is whole)",
    }),
  ];
}

function isCommandStarted(line: unknown): boolean {
  return isRecord(line) && line.type === "item.started" && isRecord(line.item) && line.item.type === "command_execution";
}
