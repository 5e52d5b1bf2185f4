// pi (`pi --mode json`, and `--mode rpc` for the in-band abort) against the mock OpenAI chat completions API.
// Facts behind the provider configuration: docs/real-cli-recording.md.
import * as fs from "node:fs";
import * as path from "node:path";
import type { CliRun } from "./cli-run";
import { isRecord } from "./mock-model-server";
import { openaiError, openaiInvalidKey, openaiRateLimited, openaiServerError, openaiStream } from "./openai-replies";
import { signalIfStillRunning, type AgentCli, type DriveLog, type Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const MODEL = "mock-model";
/** The same mock, declared with reasoning so that `--thinking` asks for it. */
const THINKING_MODEL = "mock-thinker";

const answer = (content: readonly string[]) => openaiStream({ content, finishReason: "stop" });
const slowAnswer = () => openaiStream({ content: texts.slowAnswerChunks(), finishReason: "stop", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS });
const jsonMode = (...messages: string[]) => ["--mode", "json", "--model", MODEL, ...messages];
const serverError = openaiServerError();

export const piCli: AgentCli = {
  name: "pi",
  packageName: "@mariozechner/pi-coding-agent",
  binary: path.join("node_modules", ".bin", "pi"),
  installFlags: [],
  commonArgs: ["--provider", "mock"],
  env: ({ home }) => ({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    PI_OFFLINE: "1",
  }),
  prepareHome: ({ home, port }) => {
    const agentDir = path.join(home, ".pi", "agent");
    fs.mkdirSync(agentDir, { recursive: true });
    const provider = {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      api: "openai-completions",
      apiKey: "test-key",
      compat: { supportsDeveloperRole: false },
      models: [
        { id: MODEL, reasoning: false },
        { id: THINKING_MODEL, reasoning: true },
      ],
    };
    fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify({ providers: { mock: provider } }, null, 2));
  },
  scenarios: piScenarios(),
};

function piScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => jsonMode(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "Reasoning deltas (delta.reasoning_content) before the text answer; a reasoning model and --thinking low.",
      args: () => ["--mode", "json", "--model", THINKING_MODEL, "--thinking", "low", texts.THINKING_PROMPT],
      replies: () => [openaiStream({ reasoning: texts.THINKING_CHUNKS, content: texts.THINKING_ANSWER_CHUNKS, finishReason: "stop" })],
    },
    {
      name: "tool-use",
      description: "Three model turns: read notes.txt, then bash `echo hi`, then the answer.",
      args: () => jsonMode(texts.TOOL_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: () => [
        openaiStream({ content: texts.TOOL_INTRO_CHUNKS, toolCalls: [{ id: "call_mock_read_01", name: "read", arguments: { path: texts.NOTES_FILE } }], finishReason: "tool_calls" }),
        openaiStream({ content: texts.TOOL_MIDDLE_CHUNKS, toolCalls: [{ id: "call_mock_bash_02", name: "bash", arguments: { command: "echo hi" } }], finishReason: "tool_calls" }),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description: "edit notes.txt (green → red, as edits[]), write todo.md, bash `cat fence.md` (output with a code fence), then the answer.",
      args: () => jsonMode(texts.EDIT_PROMPT),
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT, [texts.FENCE_FILE]: texts.FENCE_TEXT },
      replies: () => [
        openaiStream({
          content: texts.EDIT_INTRO_CHUNKS,
          toolCalls: [{ id: "call_mock_edit_01", name: "edit", arguments: { path: texts.NOTES_FILE, edits: [{ oldText: texts.EDIT_FROM, newText: texts.EDIT_TO }] } }],
          finishReason: "tool_calls",
        }),
        openaiStream({ toolCalls: [{ id: "call_mock_write_02", name: "write", arguments: { path: texts.NEW_FILE, content: texts.NEW_FILE_TEXT } }], finishReason: "tool_calls" }),
        openaiStream({ toolCalls: [{ id: "call_mock_bash_03", name: "bash", arguments: { command: "cat fence.md" } }], finishReason: "tool_calls" }),
        answer(texts.EDIT_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-error",
      description: "read of a file that does not exist: the tool ends with isError, then the model answers.",
      args: () => jsonMode(texts.TOOL_ERROR_PROMPT),
      replies: () => [
        openaiStream({ toolCalls: [{ id: "call_mock_read_missing", name: "read", arguments: { path: texts.MISSING_FILE } }], finishReason: "tool_calls" }),
        answer(texts.TOOL_ERROR_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-permission-denied",
      unsupported: "pi has no permission system: every tool call runs (there is nothing to deny in --mode json).",
    },
    {
      name: "auth-error",
      description: "Every request answered 401 invalid_api_key.",
      args: () => jsonMode(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiInvalidKey("test-key"),
    },
    {
      name: "server-error-retry",
      description:
        "Three 500s (the OpenAI SDK's own two retries use up the first three), so pi itself retries once (auto_retry_start/end), then a good answer.",
      args: () => jsonMode(texts.SHORT_PROMPT),
      replies: () => [serverError, serverError, serverError, answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "server-error-give-up",
      description: "Every request answered 500, until pi gives up (its default 3 retries, each after the SDK's own 2).",
      args: () => jsonMode(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: serverError,
      timeoutMs: 180_000,
    },
    {
      name: "overloaded",
      description: "Every request answered 529 overloaded_error, until pi gives up.",
      args: () => jsonMode(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: openaiError(529, "overloaded_error", null, "Overloaded"),
      timeoutMs: 180_000,
    },
    {
      name: "rate-limited",
      description: "429 rate_limit_exceeded with retry-after: 1, three times (past the SDK's own retries), then a good answer.",
      args: () => jsonMode(texts.SHORT_PROMPT),
      replies: () => {
        const limited = openaiRateLimited();
        return [limited, limited, limited, answer(texts.SHORT_ANSWER_CHUNKS)];
      },
    },
    {
      name: "startup-error",
      description: "A provider that models.json does not define: pi refuses before any model request.",
      args: () => ["--provider", "no-such-provider", ...jsonMode(texts.SHORT_PROMPT)],
      omitCommonArgs: ["--provider", "mock"],
      replies: () => [answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "long-answer",
      description: "One answer of 2,000 content deltas, sent as fast as the socket takes them.",
      args: () => jsonMode(texts.LONG_PROMPT),
      replies: () => [answer(texts.longAnswerChunks())],
    },
    {
      name: "sigint",
      description: "SIGINT to the CLI once the first text delta of a slow answer is on stdout.",
      args: () => jsonMode(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => signalAfterFirstDelta(run, log, "SIGINT"),
    },
    {
      name: "sigterm",
      description: "SIGTERM to the CLI once the first text delta of a slow answer is on stdout.",
      args: () => jsonMode(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => signalAfterFirstDelta(run, log, "SIGTERM"),
    },
    {
      name: "interrupt",
      description: "--mode rpc: a prompt command, then an abort command once the first text delta is out; then stdin is closed.",
      args: () => ["--mode", "rpc", "--model", MODEL],
      stdin: "pipe",
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, { id: "1", type: "prompt", message: texts.SLOW_PROMPT });
        await run.waitForLine(isTextDelta);
        send(run, log, { id: "2", type: "abort" });
        await run.waitForLine((line) => isRecord(line) && line.type === "agent_end", { timeoutMs: 30_000 });
        log.note("stdin closed");
        run.endInput();
        await signalIfStillRunning(run, log, 5_000, "SIGTERM", "stdin closed");
      },
    },
    {
      name: "steer-mid-tool",
      description: "--mode rpc: a prompt whose slow answer calls read; a steer command once the first text delta is out; stdin closed after agent_end.",
      args: () => ["--mode", "rpc", "--model", MODEL],
      stdin: "pipe",
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: () => [openaiStream({ content: texts.STEER_INTRO_CHUNKS, toolCalls: [{ id: "call_mock_read_steer", name: "read", arguments: { path: texts.NOTES_FILE } }], finishReason: "tool_calls", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS }), answer(texts.STEER_ANSWER_CHUNKS)],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, { id: "1", type: "prompt", message: texts.STEER_FIRST_MESSAGE });
        await run.waitForLine(isTextDelta);
        send(run, log, { id: "2", type: "steer", message: texts.STEER_MESSAGE });
        await run.waitForLine((line) => isRecord(line) && line.type === "agent_end", { timeoutMs: 30_000 }).catch((error: Error) => log.note(`no agent_end: ${error.message}`));
        // A second agent_end, if pi gave the steered message a run of its own; its absence is the finding.
        await run.waitForLine((line) => isRecord(line) && line.type === "agent_end", { nth: 2, timeoutMs: 5_000 }).catch(() => log.note("no second agent_end within 5 s"));
        log.note("stdin closed");
        run.endInput();
        await signalIfStillRunning(run, log, 5_000, "SIGTERM", "stdin closed");
      },
    },
    {
      name: "steer-mid-answer",
      description: "--mode rpc: a prompt answered by slow text only; a steer command once the first text delta is out; stdin closed after agent_end.",
      args: () => ["--mode", "rpc", "--model", MODEL],
      stdin: "pipe",
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: () => [openaiStream({ content: texts.STEER_INTRO_CHUNKS, finishReason: "stop", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS }), answer(texts.STEER_ANSWER_CHUNKS)],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, { id: "1", type: "prompt", message: texts.STEER_FIRST_MESSAGE });
        await run.waitForLine(isTextDelta);
        send(run, log, { id: "2", type: "steer", message: texts.STEER_MESSAGE });
        await run.waitForLine((line) => isRecord(line) && line.type === "agent_end", { timeoutMs: 30_000 }).catch((error: Error) => log.note(`no agent_end: ${error.message}`));
        // A second agent_end, if pi gave the steered message a run of its own; its absence is the finding.
        await run.waitForLine((line) => isRecord(line) && line.type === "agent_end", { nth: 2, timeoutMs: 5_000 }).catch(() => log.note("no second agent_end within 5 s"));
        log.note("stdin closed");
        run.endInput();
        await signalIfStillRunning(run, log, 5_000, "SIGTERM", "stdin closed");
      },
    },
    {
      name: "two-messages",
      description: "Two positional messages: pi answers the first, then sends the second in the same session.",
      args: () => jsonMode(texts.FIRST_MESSAGE, texts.SECOND_MESSAGE),
      replies: () => [answer(texts.FIRST_ANSWER_CHUNKS), answer(texts.SECOND_ANSWER_CHUNKS)],
    },
  ];
}

async function signalAfterFirstDelta(run: CliRun, log: DriveLog, signal: NodeJS.Signals): Promise<void> {
  await run.waitForLine(isTextDelta);
  log.signal(signal);
  run.signal(signal);
}

function send(run: CliRun, log: DriveLog, line: unknown): void {
  log.stdin(line);
  run.writeLine(line);
}

function isTextDelta(line: unknown): boolean {
  return isRecord(line) && line.type === "message_update" && isRecord(line.assistantMessageEvent) && line.assistantMessageEvent.type === "text_delta";
}
