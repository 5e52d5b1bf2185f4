// Claude Code (`claude -p --output-format stream-json`) against the mock Anthropic Messages API.
// Facts behind the flags and the environment: docs/real-cli-recording.md.
import * as path from "node:path";
import { anthropicError, anthropicStream, type AnthropicBlock } from "./anthropic-replies";
import type { CliRun } from "./cli-run";
import { isRecord, type MockReply, type ModelRequest, type SideRequest } from "./mock-model-server";
import type { AgentCli, DriveLog, Scenario } from "./scenario";
import * as texts from "./scenario-texts";

const text = (chunks: readonly string[]): AnthropicBlock => ({ type: "text", chunks });
const answer = (chunks: readonly string[]) => anthropicStream({ blocks: [text(chunks)], stopReason: "end_turn" });
const slowAnswer = () => anthropicStream({ blocks: [text(texts.slowAnswerChunks())], stopReason: "end_turn", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS });
const prompt = (words: string) => ["--", words];

/** Stream-json input, as a host that keeps one process for a conversation runs it (protocols/claude-stream-json.md). */
const STREAM_JSON_INPUT = ["--input-format", "stream-json", "--replay-user-messages"];

export const claudeCli: AgentCli = {
  name: "claude",
  packageName: "@anthropic-ai/claude-code",
  binary: path.join("node_modules", ".bin", "claude"),
  installFlags: ["--engine-strict=false"],
  commonArgs: ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages"],
  env: ({ home, port }) => ({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: "sk-ant-mock-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    // The default retries for minutes; two retries show the same shapes in seconds.
    CLAUDE_CODE_MAX_RETRIES: "2",
  }),
  prepareHome: () => undefined,
  scenarios: claudeScenarios(),
};

/**
 * The request in which newer Claude Code (2.1.318, inside claude-agent-acp 0.101) asks the model to name the session
 * before the conversation's first request: answered apart, so it never takes a scenario's reply.
 */
export function claudeSessionTitleRequest(reply: MockReply): SideRequest {
  return { name: "title", matches: isSessionTitleRequest, reply };
}

function isSessionTitleRequest(request: ModelRequest): boolean {
  if (!isRecord(request.body) || !Array.isArray(request.body.system)) return false;
  return request.body.system.some((block) => isRecord(block) && typeof block.text === "string" && block.text.startsWith("You are naming a coding session"));
}

function claudeScenarios(): Scenario[] {
  return [
    {
      name: "plain-answer",
      description: "One streamed text answer with emoji, CJK and a fenced code block.",
      args: () => prompt(texts.PLAIN_PROMPT),
      replies: () => [answer(texts.PLAIN_ANSWER_CHUNKS)],
    },
    {
      name: "thinking",
      description: "A thinking block (thinking_delta, signature_delta) before the text answer; MAX_THINKING_TOKENS asks for thinking.",
      args: () => prompt(texts.THINKING_PROMPT),
      env: { MAX_THINKING_TOKENS: "2048" },
      replies: () => [
        anthropicStream({
          blocks: [{ type: "thinking", chunks: texts.THINKING_CHUNKS, signature: "bW9jay1zaWduYXR1cmUtZm9yLXRoaW5raW5n" }, text(texts.THINKING_ANSWER_CHUNKS)],
          stopReason: "end_turn",
        }),
      ],
    },
    {
      name: "tool-use",
      description: "Three model turns: Read notes.txt, then Bash `echo hi` (both allowed), then the answer.",
      args: () => ["--allowedTools", "Read,Bash(echo hi)", ...prompt(texts.TOOL_PROMPT)],
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        anthropicStream({
          blocks: [text(texts.TOOL_INTRO_CHUNKS), { type: "tool_use", id: "toolu_mock_read_01", name: "Read", input: { file_path: path.join(workspace, texts.NOTES_FILE) } }],
          stopReason: "tool_use",
        }),
        anthropicStream({
          blocks: [text(texts.TOOL_MIDDLE_CHUNKS), { type: "tool_use", id: "toolu_mock_bash_02", name: "Bash", input: { command: "echo hi", description: "Print hi" } }],
          stopReason: "tool_use",
        }),
        answer(texts.TOOL_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-edit",
      description:
        "Read notes.txt, Edit it (green → red), Write todo.md, NotebookEdit a cell, Bash `cat fence.md` (output with a code fence), Read pixel.png (an image result), then the answer; all allowed.",
      args: () => ["--allowedTools", "Read,Edit,Write,NotebookEdit,Bash(cat fence.md)", ...prompt(texts.EDIT_MORE_PROMPT)],
      workspaceFiles: {
        [texts.NOTES_FILE]: texts.NOTES_TEXT,
        [texts.FENCE_FILE]: texts.FENCE_TEXT,
        [texts.PIXEL_FILE]: texts.PIXEL_PNG,
        [texts.NOTEBOOK_FILE]: texts.NOTEBOOK_TEXT,
      },
      replies: ({ workspace }) => {
        const file = (name: string) => path.join(workspace, name);
        const use = (id: string, name: string, input: unknown) => anthropicStream({ blocks: [{ type: "tool_use", id, name, input }], stopReason: "tool_use" });
        return [
          anthropicStream({
            blocks: [text(texts.EDIT_INTRO_CHUNKS), { type: "tool_use", id: "toolu_mock_read_01", name: "Read", input: { file_path: file(texts.NOTES_FILE) } }],
            stopReason: "tool_use",
          }),
          use("toolu_mock_edit_02", "Edit", { file_path: file(texts.NOTES_FILE), old_string: texts.EDIT_FROM, new_string: texts.EDIT_TO, replace_all: false }),
          use("toolu_mock_write_03", "Write", { file_path: file(texts.NEW_FILE), content: texts.NEW_FILE_TEXT }),
          use("toolu_mock_read_04", "Read", { file_path: file(texts.NOTEBOOK_FILE) }),
          use("toolu_mock_notebook_05", "NotebookEdit", { notebook_path: file(texts.NOTEBOOK_FILE), cell_id: "cell-one", new_source: "print('red')\n", edit_mode: "replace" }),
          use("toolu_mock_bash_06", "Bash", { command: "cat fence.md", description: "Show fence.md" }),
          use("toolu_mock_read_07", "Read", { file_path: file(texts.PIXEL_FILE) }),
          answer(texts.EDIT_ANSWER_CHUNKS),
        ];
      },
    },
    {
      name: "tool-error",
      description: "Read of a file that does not exist: the tool_result comes back as an error, then the model answers.",
      args: () => ["--allowedTools", "Read", ...prompt(texts.TOOL_ERROR_PROMPT)],
      replies: ({ workspace }) => [
        anthropicStream({
          blocks: [{ type: "tool_use", id: "toolu_mock_read_missing", name: "Read", input: { file_path: path.join(workspace, texts.MISSING_FILE) } }],
          stopReason: "tool_use",
        }),
        answer(texts.TOOL_ERROR_ANSWER_CHUNKS),
      ],
    },
    {
      name: "tool-permission-denied",
      description: "Bash `touch made-by-model.txt` without --allowedTools: print mode denies it, the model answers, the result lists the denial.",
      args: () => prompt("Create a file called made-by-model.txt."),
      replies: () => [
        anthropicStream({
          blocks: [{ type: "tool_use", id: "toolu_mock_bash_denied", name: "Bash", input: { command: "touch made-by-model.txt", description: "Create the file" } }],
          stopReason: "tool_use",
        }),
        answer(["I wasn't allowed ", "to run that command."]),
      ],
    },
    {
      name: "auth-error",
      description: "Every request answered 401 authentication_error.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: anthropicError(401, "authentication_error", "invalid x-api-key"),
    },
    {
      name: "server-error-retry",
      description: "Two 500 api_error answers, then a good one (CLAUDE_CODE_MAX_RETRIES=2).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [anthropicError(500, "api_error", "Internal server error"), anthropicError(500, "api_error", "Internal server error"), answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "server-error-give-up",
      description: "Every request answered 500 api_error, until the CLI gives up (CLAUDE_CODE_MAX_RETRIES=2).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: anthropicError(500, "api_error", "Internal server error"),
    },
    {
      name: "overloaded",
      description: "Every request answered 529 overloaded_error, until the CLI gives up (CLAUDE_CODE_MAX_RETRIES=2).",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [],
      otherwise: anthropicError(529, "overloaded_error", "Overloaded"),
    },
    {
      name: "rate-limited",
      description: "One 429 rate_limit_error with retry-after: 1, then a good answer.",
      args: () => prompt(texts.SHORT_PROMPT),
      replies: () => [
        anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", { "retry-after": "1" }),
        answer(texts.SHORT_ANSWER_CHUNKS),
      ],
    },
    {
      name: "startup-error",
      description: "stream-json output without --verbose: the CLI refuses the command line before any model request.",
      args: () => prompt(texts.SHORT_PROMPT),
      omitCommonArgs: ["--verbose"],
      replies: () => [answer(texts.SHORT_ANSWER_CHUNKS)],
    },
    {
      name: "long-answer",
      description: "One answer of 2,000 text deltas, sent as fast as the socket takes them.",
      args: () => prompt(texts.LONG_PROMPT),
      replies: () => [answer(texts.longAnswerChunks())],
    },
    {
      name: "sigint",
      description: "SIGINT to the CLI once the first text delta of a slow answer is on stdout.",
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => signalAfterFirstDelta(run, log, "SIGINT"),
    },
    {
      name: "sigterm",
      description: "SIGTERM to the CLI once the first text delta of a slow answer is on stdout.",
      args: () => prompt(texts.SLOW_PROMPT),
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => signalAfterFirstDelta(run, log, "SIGTERM"),
    },
    {
      name: "interrupt",
      description:
        "Stream-json input: one user message, then a control_request interrupt once the first text delta is out; stdin is closed after the result.",
      args: () => STREAM_JSON_INPUT,
      stdin: "pipe",
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage(texts.SLOW_PROMPT));
        await run.waitForLine(isTextDelta);
        send(run, log, { type: "control_request", request_id: "req_interrupt_1", request: { subtype: "interrupt" } });
        await run.waitForLine(isResult, { timeoutMs: 30_000 }).catch((error: Error) => log.note(`no result after the interrupt: ${error.message}`));
        log.note("stdin closed");
        run.endInput();
      },
    },
    {
      name: "two-messages",
      description: "Stream-json input: a user message, its result, a second user message, its result, then stdin closed.",
      args: () => STREAM_JSON_INPUT,
      stdin: "pipe",
      replies: () => [answer(texts.FIRST_ANSWER_CHUNKS), answer(texts.SECOND_ANSWER_CHUNKS)],
      drive: async (run, log) => {
        send(run, log, userMessage(texts.FIRST_MESSAGE));
        await run.waitForLine(isResult);
        send(run, log, userMessage(texts.SECOND_MESSAGE));
        await run.waitForLine(isResult, { nth: 2 });
        log.note("stdin closed");
        run.endInput();
      },
    },
    {
      name: "two-messages-queued",
      description: "Stream-json input: two user messages written at once, before the first answer; stdin closed after the second result.",
      args: () => STREAM_JSON_INPUT,
      stdin: "pipe",
      replies: () => [answer(texts.FIRST_ANSWER_CHUNKS), answer(texts.SECOND_ANSWER_CHUNKS)],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage(texts.FIRST_MESSAGE));
        send(run, log, userMessage(texts.SECOND_MESSAGE));
        await run.waitForLine(isResult, { nth: 2, timeoutMs: 30_000 }).catch((error: Error) => log.note(`no second result: ${error.message}`));
        log.note("stdin closed");
        run.endInput();
      },
    },
    ...steerScenarios(),
    ...permissionScenarios(),
    ...initializeScenarios(),
  ];
}

/**
 * The control protocol's `initialize` request (the Claude Agent SDK's first line; its answer is the SDK's
 * `supportedCommands()`, models and more): what it answers, when, and whether it must come first.
 */
function initializeScenarios(): Scenario[] {
  const initialize = (id: string) => ({ type: "control_request", request_id: id, request: { subtype: "initialize" } });
  const isAnswerTo = (id: string) => (line: unknown) => isRecord(line) && line.type === "control_response" && isRecord(line.response) && line.response.request_id === id;
  const closeAfterResult = async (run: CliRun, log: DriveLog) => {
    await run.waitForLine(isResult, { timeoutMs: 60_000 }).catch((error: Error) => log.note(`no result: ${error.message}`));
    log.note("stdin closed");
    run.endInput();
  };
  return [
    {
      name: "initialize",
      description:
        "--permission-prompt-tool stdio, as Agent Stream runs it: a control_request initialize before any message, its answer awaited, then a user message; stdin closed after the result.",
      args: () => PERMISSION_INPUT,
      stdin: "pipe",
      replies: () => [answer(texts.SHORT_ANSWER_CHUNKS)],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, initialize("req_initialize_1"));
        await run.waitForLine(isAnswerTo("req_initialize_1"), { timeoutMs: 30_000 }).catch((error: Error) => log.note(`no answer to initialize: ${error.message}`));
        send(run, log, userMessage(texts.SHORT_PROMPT));
        await closeAfterResult(run, log);
      },
    },
    {
      name: "initialize-with-message",
      description:
        "--permission-prompt-tool stdio: a control_request initialize and the user message written at once (the message not waiting for the answer); stdin closed after the result.",
      args: () => PERMISSION_INPUT,
      stdin: "pipe",
      replies: () => [answer(texts.SHORT_ANSWER_CHUNKS)],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, initialize("req_initialize_1"));
        send(run, log, userMessage(texts.SHORT_PROMPT));
        await closeAfterResult(run, log);
      },
    },
    {
      name: "initialize-after-message",
      description:
        "--permission-prompt-tool stdio: the user message first, then a control_request initialize once the init line is out (mid-turn, as a run already started would ask); stdin closed after the result.",
      args: () => PERMISSION_INPUT,
      stdin: "pipe",
      replies: () => [slowAnswer()],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage(texts.SLOW_PROMPT));
        await run.waitForLine((line) => isRecord(line) && line.type === "system" && line.subtype === "init");
        send(run, log, initialize("req_initialize_1"));
        await closeAfterResult(run, log);
      },
    },
  ];
}

/** A second user message written while the first one's turn is still running: does it join that turn or make a turn of its own? */
function steerScenarios(): Scenario[] {
  const waitForResults = async (run: CliRun, log: DriveLog) => {
    await run.waitForLine(isResult, { timeoutMs: 60_000 }).catch((error: Error) => log.note(`no result: ${error.message}`));
    // A second result, if Claude makes one for the steered message; its absence is the finding, not a failure.
    await run.waitForLine(isResult, { nth: 2, timeoutMs: 10_000 }).catch(() => log.note("no second result within 10 s"));
    log.note("stdin closed");
    run.endInput();
  };
  return [
    {
      name: "steer-mid-tool",
      description:
        "Stream-json input: a user message whose answer streams slowly and calls Read; a second user message is written after the first text delta, while that turn runs; stdin closed after the results.",
      args: () => STREAM_JSON_INPUT,
      stdin: "pipe",
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        anthropicStream({
          blocks: [text(texts.STEER_INTRO_CHUNKS), { type: "tool_use", id: "toolu_mock_read_steer", name: "Read", input: { file_path: path.join(workspace, texts.NOTES_FILE) } }],
          stopReason: "tool_use",
          deltaDelayMs: texts.SLOW_DELTA_DELAY_MS,
        }),
        answer(texts.STEER_ANSWER_CHUNKS),
      ],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage(texts.STEER_FIRST_MESSAGE));
        await run.waitForLine(isTextDelta);
        send(run, log, userMessage(texts.STEER_MESSAGE));
        await waitForResults(run, log);
      },
    },
    {
      name: "steer-mid-answer",
      description:
        "Stream-json input: a user message answered by slow text only; a second user message is written after the first text delta; stdin closed after the results.",
      args: () => STREAM_JSON_INPUT,
      stdin: "pipe",
      replies: () => [
        anthropicStream({ blocks: [text(texts.STEER_INTRO_CHUNKS)], stopReason: "end_turn", deltaDelayMs: texts.SLOW_DELTA_DELAY_MS }),
        answer(texts.STEER_ANSWER_CHUNKS),
      ],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage(texts.STEER_FIRST_MESSAGE));
        await run.waitForLine(isTextDelta);
        send(run, log, userMessage(texts.STEER_MESSAGE));
        await waitForResults(run, log);
      },
    },
  ];
}

/** Claude's own permission channel: with `--permission-prompt-tool stdio` each tool that needs approval is a `can_use_tool` control_request on stdout. */
const PERMISSION_INPUT = [...STREAM_JSON_INPUT, "--permission-prompt-tool", "stdio"];
const NEW_FILE = "made-by-model.txt";
const OUTSIDE_FILE = "/etc/hostname";

function permissionScenarios(): Scenario[] {
  const toolTurn = (id: string, name: string, input: unknown) =>
    anthropicStream({ blocks: [{ type: "tool_use", id, name, input }], stopReason: "tool_use" });
  return [
    {
      name: "permission-prompt",
      description:
        "--permission-prompt-tool stdio: Write allowed (updatedInput), Read of notes.txt, its Edit denied (message), Bash `echo hi` (not asked), Bash `touch always.txt` allowed always (the addRules suggestions as updatedPermissions, destination session), the same command again, Bash `touch` denied, a Read outside the workspace allowed, then the answer.",
      args: () => PERMISSION_INPUT,
      stdin: "pipe",
      workspaceFiles: { [texts.NOTES_FILE]: texts.NOTES_TEXT },
      replies: ({ workspace }) => [
        toolTurn("toolu_mock_write_01", "Write", { file_path: path.join(workspace, NEW_FILE), content: "Made by the model.\n" }),
        // Claude refuses an Edit of a file it has not read before asking anyone: a Read inside the workspace is asked of no one.
        toolTurn("toolu_mock_read_02", "Read", { file_path: path.join(workspace, texts.NOTES_FILE) }),
        toolTurn("toolu_mock_edit_02", "Edit", { file_path: path.join(workspace, texts.NOTES_FILE), old_string: "green", new_string: "red", replace_all: false }),
        // A read-only command (`echo hi`) is allowed without asking; `touch` is asked, then allowed "always" for the session.
        toolTurn("toolu_mock_bash_03", "Bash", { command: "echo hi", description: "Print hi" }),
        toolTurn("toolu_mock_bash_04", "Bash", { command: "touch always.txt", description: "Create a file" }),
        toolTurn("toolu_mock_bash_04b", "Bash", { command: "touch always.txt", description: "Create the file again" }),
        toolTurn("toolu_mock_bash_05", "Bash", { command: "touch denied.txt", description: "Create a file" }),
        toolTurn("toolu_mock_read_06", "Read", { file_path: OUTSIDE_FILE }),
        answer(["Done: some tools ", "were refused."]),
      ],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) =>
        answerPermissionRequests(run, log, "Write a file, edit notes, run echo hi, touch a file twice, touch another, read /etc/hostname.", (request) => {
          if (request.tool_name === "Edit") return { behavior: "deny", message: "The user rejected this edit." };
          if (request.tool_name === "Bash" && isRecord(request.input) && request.input.command === "touch denied.txt") {
            return { behavior: "deny", message: "The user rejected this command." };
          }
          // "Always" for exactly this command: Claude's own rule suggestions, kept for the session only (not its settings file).
          const rules = request.tool_name === "Bash" && Array.isArray(request.permission_suggestions) ? request.permission_suggestions.filter(isAddRules) : [];
          const updatedPermissions = rules.map((suggestion) => ({ ...suggestion, destination: "session" }));
          return { behavior: "allow", updatedInput: request.input, ...(rules.length > 0 ? { updatedPermissions } : {}) };
        }),
    },
    {
      name: "permission-interrupt",
      description: "--permission-prompt-tool stdio: a Bash request left waiting, then a control_request interrupt; stdin closed after the result.",
      args: () => PERMISSION_INPUT,
      stdin: "pipe",
      replies: () => [toolTurn("toolu_mock_bash_wait", "Bash", { command: "touch waiting.txt", description: "Create a file" })],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: async (run, log) => {
        send(run, log, userMessage("Create waiting.txt."));
        await run.waitForLine(isCanUseTool);
        send(run, log, { type: "control_request", request_id: "req_interrupt_1", request: { subtype: "interrupt" } });
        await run.waitForLine(isResult, { timeoutMs: 30_000 }).catch((error: Error) => log.note(`no result after the interrupt: ${error.message}`));
        log.note("stdin closed");
        run.endInput();
      },
    },
    {
      name: "permission-plan",
      description: "--permission-prompt-tool stdio --permission-mode plan: the model calls ExitPlanMode with a plan; the request is denied.",
      args: () => [...PERMISSION_INPUT, "--permission-mode", "plan"],
      stdin: "pipe",
      replies: () => [
        toolTurn("toolu_mock_plan_01", "ExitPlanMode", { plan: "# Plan\n\n1. Create `plan.txt`.\n2. Write *hello* in it." }),
        answer(["I will stay ", "in plan mode."]),
      ],
      otherwise: answer(texts.SHORT_ANSWER_CHUNKS),
      drive: (run, log) => answerPermissionRequests(run, log, "Plan how to create plan.txt.", () => ({ behavior: "deny", message: "The user wants to keep planning." })),
    },
  ];
}

/** Sends one user message, answers each `can_use_tool` request with `decide`, and closes stdin after the result. */
async function answerPermissionRequests(
  run: CliRun,
  log: DriveLog,
  words: string,
  decide: (request: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  send(run, log, userMessage(words));
  const result = run.waitForLine(isResult, { timeoutMs: 90_000 }).then(
    () => "result" as const,
    (error: Error) => (log.note(`no result: ${error.message}`), "result" as const),
  );
  for (let nth = 1; ; nth++) {
    const next = await Promise.race([run.waitForLine(isCanUseTool, { nth, timeoutMs: 90_000 }).catch(() => "result" as const), result]);
    if (next === "result" || !isRecord(next) || !isRecord(next.request)) break;
    send(run, log, { type: "control_response", response: { subtype: "success", request_id: next.request_id, response: decide(next.request) } });
  }
  log.note("stdin closed");
  run.endInput();
}

function isAddRules(suggestion: unknown): suggestion is Record<string, unknown> {
  return isRecord(suggestion) && suggestion.type === "addRules";
}

function isCanUseTool(line: unknown): boolean {
  return isRecord(line) && line.type === "control_request" && isRecord(line.request) && line.request.subtype === "can_use_tool";
}

async function signalAfterFirstDelta(run: CliRun, log: DriveLog, signal: NodeJS.Signals): Promise<void> {
  await run.waitForLine(isTextDelta);
  log.signal(signal);
  run.signal(signal);
}

function userMessage(words: string): unknown {
  return { type: "user", message: { role: "user", content: [{ type: "text", text: words }] } };
}

function send(run: CliRun, log: DriveLog, line: unknown): void {
  log.stdin(line);
  run.writeLine(line);
}

function isTextDelta(line: unknown): boolean {
  if (!isRecord(line) || line.type !== "stream_event" || !isRecord(line.event)) return false;
  return line.event.type === "content_block_delta" && isRecord(line.event.delta) && line.event.delta.type === "text_delta";
}

function isResult(line: unknown): line is Record<string, unknown> {
  return isRecord(line) && line.type === "result";
}
