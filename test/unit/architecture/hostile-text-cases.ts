// Each path by which agent text (a CLI's lines and errors, a tool's title and output, a recorded file, a workspace's
// files for the built-in agent) reaches a regular expression of src/, with texts of about a megabyte built against
// those expressions: a pattern's beginning repeated without its end, long runs of one character. The adversarial
// suite runs every case; the linearity test counts the expressions covered here as examined.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { approvesItself, askingModeOf } from "../../../src/acp/session-modes";
import { NO_MODE_RULE } from "../../../src/acp/session-setup";
import { answerExplainFile } from "../../../src/builtin-agent/answers/explain-file";
import { answerFindText } from "../../../src/builtin-agent/answers/find-text";
import { buildInstructions } from "../../../src/builtin-agent/answers/build-instructions";
import { keyFilesIn } from "../../../src/builtin-agent/answers/key-files";
import { firstParagraph } from "../../../src/builtin-agent/answers/readme-paragraph";
import { answerSummary } from "../../../src/builtin-agent/answers/summary";
import { answerTodos } from "../../../src/builtin-agent/answers/todos";
import { IgnoreRules, IgnoreStack } from "../../../src/workspace/gitignore";
import { intentOf } from "../../../src/builtin-agent/intents";
import { escapeMarkdown, tableRow } from "../../../src/builtin-agent/markdown";
import { outlineOf } from "../../../src/builtin-agent/outline";
import { splitIntoDeltas } from "../../../src/builtin-agent/text-pacer";
import { createLivePrinter } from "../../../src/cli/live-printer";
import { blockToMarkdown } from "../../../src/common/transcript-markdown";
import { protocolErrorOfRpcError } from "../../../src/dialects/acp/turn-outcome";
import { AgentCodeAdapter } from "../../../src/dialects/agent-code-adapter";
import { ClaudeAdapter } from "../../../src/dialects/claude-adapter";
import { readClaudePermissionLine } from "../../../src/dialects/claude-permission-request";
import { CodexAdapter } from "../../../src/dialects/codex-adapter";
import { errorCodeFor } from "../../../src/dialects/error-meaning";
import { GeminiAdapter } from "../../../src/dialects/gemini-adapter";
import { LocusFlatAdapter } from "../../../src/dialects/locus-flat-adapter";
import { PiAdapter } from "../../../src/dialects/pi-adapter";
import { qwenDialect } from "../../../src/dialects/qwen-adapter";
import { pointsToLocalNetwork } from "../../../src/panel/local-address";
import { statusOf } from "../../../src/panel/status-model";
import { formatCommandLine } from "../../../src/process/command-line";
import { indusagiProfile, piProfile } from "../../../src/profiles/pi-profile";
import { CliConversationSchema } from "../../../src/protocol/messages";
import { SessionIdSchema } from "../../../src/protocol/sessions";
import { escapeForLog, escapeForTerminal, escapeJson, logLines } from "../../../src/protocol/visible-text";
import { Session } from "../../../src/session/session";
import { claudeProjectFolderName } from "../../../src/sessions/claude-project-folder";
import { titleFromPrompt } from "../../../src/common/session-title";
import { MarkdownSegmenter } from "../../../src/webview/markdown-segments";
import { answerContextIn } from "../../helpers/answer-context";
import { decodeAll } from "../../helpers/dialect-harness";
import { repeated } from "../../helpers/hostile-text";
import { toolBlock, turnWith } from "../../helpers/turn-builder";
import { sitesIn, type RegexSite } from "./regex-sites";

export interface HostileTextCase {
  /** The code that takes the text, as a reader of src/ names it. */
  through: string;
  /** The regular expressions on that path, as written in src/. */
  covers: readonly RegexSite[];
  /** Beginnings of the patterns: the limits sweep puts each before long runs of every troublesome character. */
  leads: readonly string[];
  /** Texts of about `chars` characters built against the patterns, by what they are. */
  attacks(chars: number): Record<string, string>;
  /** Gives the text to the code as agent text reaches it. */
  run(text: string): unknown;
}

/** A folder of its own for one call of a built-in agent answer: the workspace holds the hostile text. */
async function inWorkspace<T>(files: Record<string, string>, answer: (root: string) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-hostile-"));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), text);
    }
    return await answer(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Under ReadFile's 1 MiB, so the built-in agent reads the file rather than skipping it as too large. */
const READABLE = 1_000_000;

export const HOSTILE_TEXT_CASES: readonly HostileTextCase[] = [
  {
    through: "a transcript written as markdown (blockToMarkdown): tool titles, commands, paths, error messages",
    covers: [
      ...sitesIn("common/code-fence.ts", /\s+/g),
      ...sitesIn("common/tool-summary.ts", /\s+/g),
      ...sitesIn("common/transcript-markdown.ts", /\n/g),
    ],
    leads: ["`", " ", "\n"],
    attacks: (chars) => ({
      "spaces in a title": `a${repeated(" ", chars)}b`,
      "spaces and line breaks": repeated(" \n", chars),
      "backtick runs": repeated("` ", chars),
      "CR LF": repeated("\r\n", chars),
    }),
    run: (text) => [
      blockToMarkdown(toolBlock({ title: text, status: "failed", error: text })),
      blockToMarkdown(toolBlock({ parameters: { command: text } })),
      blockToMarkdown(toolBlock({ diffs: [{ path: text, oldText: null, newText: "a\n" }] })),
      blockToMarkdown({ kind: "error", code: "UNKNOWN", message: text, recoverable: false }),
    ],
  },
  {
    through: "what another CLI's error means (errorCodeFor)",
    covers: sitesIn(
      "dialects/error-meaning.ts",
      /\b(authenticat|unauthori[sz]ed|invalid[ _-]?(api[ _-]?key|x-api-key|token|credential)|api[ _-]?key|credential|expired[ _-]?token|token[ _-]?(has )?expired|log ?in again|please (run )?\/?login|permission_error|oauth)/i,
      /\b(context[ _-]?(window|length|limit)|prompt is too long|too many tokens|maximum context|input is too long|request_too_large|(context|request) too large|exceeds? the (model's )?(context|token))/i,
      /\b(overloaded|rate[ _-]?limit(ed)?|too many requests|timed? ?out|timeout|ETIMEDOUT|ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|socket hang up|network|connection (error|refused|reset)|fetch failed|internal server error|high demand|bad gateway|service unavailable|gateway timeout|api_error|5\d\d)\b/i,
      /\bno conversation found\b/i,
    ),
    leads: ["invalid ", "api ", "token ", "please run ", "context ", "exceeds the model's ", "rate ", "connection ", "no conversation "],
    attacks: (chars) => ({
      "'invalid api ' repeated": repeated("invalid api ", chars),
      "'exceeds the model's ' repeated": repeated("exceeds the model's ", chars),
      "'connection ' repeated": repeated("connection ", chars),
      "digits": repeated("5", chars),
    }),
    run: (text) => errorCodeFor(text),
  },
  {
    through: "an ACP agent's JSON-RPC error (protocolErrorOfRpcError), its message and data",
    covers: sitesIn(
      "dialects/acp/turn-outcome.ts",
      /\b(session\b.{0,80}\bnot found|unknown session|no such session|session does not exist|no conversation found)/i,
      /\b(?:status(?:[ _]?code)?|http)["']?\s*(?:[:=]\s*)?(\d{3})\b/i,
      /auth/i,
    ),
    leads: ["session ", "status", "status_code\"", "http ", "auth"],
    attacks: (chars) => ({
      "'session ' repeated": repeated("session ", chars),
      "'status' then blanks": `status${repeated(" ", chars)}x`,
      "'status: ' repeated": repeated("status: ", chars),
      "'http \"' then blanks": `http "${repeated(" ", chars)}`,
    }),
    run: (text) => [protocolErrorOfRpcError({ code: -32000, message: text, data: text }), protocolErrorOfRpcError({ code: -32603, message: text })],
  },
  {
    through: "an ACP agent's session modes (approvesItself, askingModeOf): the ids, names and descriptions it sends",
    covers: sitesIn(
      "acp/session-modes.ts",
      /auto|yolo|bypass|full.?access|accept.?edits|workspace.?write/i,
      /automatically (approve|accept)|auto-?(approve|accept)|without (asking|approval)|handles permission decisions/i,
      /\b(always ask|ask before|prompts? for|requires? approval|approval is required)\b/i,
    ),
    leads: ["full", "accept", "workspace", "automatically ", "without ", "handles ", "always ", "ask ", "prompts ", "requires ", "approval "],
    attacks: (chars) => ({
      "'full ' repeated": repeated("full ", chars),
      "'automatically ' repeated": repeated("automatically ", chars),
      "'without ' repeated": repeated("without ", chars),
      "'requires ' repeated": repeated("requires ", chars),
      "'approval is ' repeated": repeated("approval is ", chars),
    }),
    run: (text) => {
      const mode = { id: text, name: text, description: text };
      return [approvesItself(mode, NO_MODE_RULE), askingModeOf([mode], NO_MODE_RULE)];
    },
  },
  {
    through: "Codex's exec --json errors (CodexAdapter): its reconnect line and the status it names",
    covers: [
      ...sitesIn("dialects/codex-adapter.ts", /^Reconnecting\.\.\.\s*(\d+)\/(\d+)(?:\s*\(([\s\S]*)\))?\s*$/, /\bstatus:? (\d{3})\b/),
      ...sitesIn("dialects/kit/run-words.ts", /\.$/),
    ],
    leads: ["Reconnecting... 1/1", "Reconnecting... 1/1 (", "status: "],
    attacks: (chars) => ({
      "blanks after the count": `Reconnecting... 1/1${repeated(" ", chars)}x`,
      "a reason of brackets and blanks": `Reconnecting... 1/1 (${repeated(" )", chars)}`,
      "a reason of full stops": `Reconnecting... 1/1 (${repeated(".", chars)})`,
      "'status ' repeated": repeated("status ", chars),
    }),
    run: (text) =>
      decodeAll(new CodexAdapter(() => 0), [
        { type: "thread.started", thread_id: "t" },
        { type: "turn.started" },
        { type: "error", message: text },
        { type: "turn.failed" },
      ]),
  },
  {
    through: "Claude Code's and Qwen Code's stream-json (ClaudeAdapter): API errors as text, retries, tool errors",
    covers: sitesIn(
      "dialects/claude-adapter.ts",
      /^\[API Error: [\s\S]*\]$/,
      /_/g,
      /^\s*<tool_use_error>([\s\S]*)<\/tool_use_error>\s*$/,
      /\bAPI Error: (\d{3})\b/,
    ),
    leads: ["[API Error: ", "API Error: ", "<tool_use_error>", "_"],
    attacks: (chars) => ({
      "a tool error of blanks": `<tool_use_error>${repeated(" ", chars)}`,
      "blanks before a tool error": `${repeated(" ", chars)}<tool_use_error>x`,
      "an API error of closing brackets": `[API Error: ${repeated("]", chars)}x`,
      "'API Error: ' repeated": repeated("API Error: ", chars),
      "underscores": repeated("_", chars),
    }),
    run: (text) => {
      const sid = "0f8b5d2e-6c1a-4e7b-9a3d-2b7c4e9f1a60";
      const lines = [
        { type: "system", subtype: "init", session_id: sid, model: "m", cwd: "/w", tools: [] },
        { type: "system", subtype: "api_retry", error: text, error_status: 529, attempt: 1, retry_delay_ms: 10, session_id: sid },
        { type: "assistant", message: { id: "m1", role: "assistant", model: "m", content: [{ type: "tool_use", id: "t1", name: "Read", input: {} }] }, session_id: sid, parent_tool_use_id: null },
        { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: text, is_error: true }] }, session_id: sid, parent_tool_use_id: null },
        { type: "assistant", message: { id: "m2", role: "assistant", model: "<synthetic>", content: [{ type: "text", text }] }, session_id: sid, parent_tool_use_id: null },
        // Qwen Code reports a failed call as a successful result whose text is the error.
        { type: "result", subtype: "success", is_error: false, result: text, duration_ms: 1, num_turns: 1, session_id: sid },
      ];
      return [decodeAll(new ClaudeAdapter(() => 0), lines, null), decodeAll(qwenDialect.create(), lines, null)];
    },
  },
  {
    through: "Claude Code's can_use_tool rule suggestions (readClaudePermissionLine): the rules an \"always\" keeps for --allowedTools",
    covers: sitesIn("dialects/claude-permission-request.ts", /^[A-Za-z_][\w-]*$/, /[(),\\\r\n]/),
    leads: ["Bash", "("],
    attacks: (chars) => ({
      "a tool name of word characters then a space": `${repeated("a-", chars)} `,
      "a rule of spaces then a parenthesis": `${repeated(" ", chars)}(`,
    }),
    run: (text) =>
      readClaudePermissionLine({
        type: "control_request",
        request_id: "r1",
        request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: text }, permission_suggestions: [{ type: "addRules", behavior: "allow", rules: [{ toolName: text, ruleContent: text }, { toolName: "Bash", ruleContent: text }] }] },
      }),
  },
  {
    through: "Gemini CLI's stream-json result (GeminiAdapter): its \"[API Error: …]\"",
    covers: sitesIn("dialects/gemini-adapter.ts", /^\[API Error: ([\s\S]*)\]$/),
    leads: ["[API Error: "],
    attacks: (chars) => ({ "closing brackets": `[API Error: ${repeated("]", chars)}x`, "'[API Error: ' repeated": repeated("[API Error: ", chars) }),
    run: (text) => decodeAll(new GeminiAdapter(), [{ type: "init", session_id: "s", model: "m" }, { type: "result", status: "error", error: { type: "api", message: text } }], null),
  },
  {
    through: "agent-code's errors and warnings (AgentCodeAdapter)",
    covers: sitesIn("dialects/agent-code-adapter.ts", /^auth:/, /\b(retry|retrying|backoff|rate[ _-]?limit(ed)?|overloaded)\b/i),
    leads: ["rate ", "rate-limit", "auth"],
    attacks: (chars) => ({ "'rate ' repeated": repeated("rate ", chars), "'retr' repeated": repeated("retr", chars) }),
    run: (text) =>
      decodeAll(
        new AgentCodeAdapter(() => 0),
        [
          { type: "session_start", session_id: "s", model: "m", timestamp: "2026-04-16T03:22:41.512337+00:00" },
          { type: "warning", message: text, turn: 1 },
          { type: "error", message: text, turn: 1 },
        ],
        null,
      ),
  },
  {
    through: "pi's failed model calls and retries given up (PiAdapter)",
    covers: sitesIn("dialects/pi-adapter.ts", /^([1-5]\d\d)\b/, /[.!?]$/),
    leads: ["500", "."],
    attacks: (chars) => ({ "digits": repeated("5", chars), "full stops before more": `${repeated(".", chars)}x` }),
    run: (text) => {
      const failed = { type: "message_end", message: { role: "assistant", content: [], provider: "p", model: "m", stopReason: "error", errorMessage: text, timestamp: 1 } };
      return decodeAll(
        new PiAdapter("pi", () => 0),
        [
          { type: "session", version: 3, id: "0f8b5d2e-6c1a-4e7b-9a3d-2b7c4e9f1a60", timestamp: "2025-01-15T10:30:00.000Z", cwd: "/w" },
          { type: "agent_start" },
          failed,
          { type: "auto_retry_start", attempt: 1, maxAttempts: 1, delayMs: 1, errorMessage: text },
          failed,
          { type: "auto_retry_end", success: false, attempt: 1, finalError: text },
          { type: "agent_end", messages: [] },
        ],
        null,
      );
    },
  },
  {
    through: "pi's and indusagi's profiles: whether a failed run is retried, and the prompt as an argument",
    covers: sitesIn(
      "profiles/pi-profile.ts",
      /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i,
      /context.{0,20}(length|window|overflow)|too long/i,
      /^[-@]/,
    ),
    leads: ["provider ", "context", "connection ", "-"],
    attacks: (chars) => ({ "'provider returned ' repeated": repeated("provider returned ", chars), "'context' repeated": repeated("context", chars), "'overloaded context' repeated": repeated("overloaded context ", chars) }),
    run: (text) => {
      const conversation = { id: "0f8b5d2e-6c1a-4e7b-9a3d-2b7c4e9f1a60", continues: false, stateDir: os.tmpdir() };
      const agentEnd = { type: "agent_end", messages: [{ role: "assistant", stopReason: "error", errorMessage: text }] };
      return [
        piProfile.invocation({ prompt: text, userArgs: null, conversation }).input?.isRunOver?.(agentEnd),
        indusagiProfile.invocation({ prompt: text, userArgs: null, conversation }).args,
      ];
    },
  },
  {
    through: "Locus's flat stream: an error whose code is not protocol 1's (LocusFlatAdapter)",
    covers: sitesIn("dialects/locus-flat-adapter.ts", /_/g),
    leads: ["_"],
    attacks: (chars) => ({ underscores: repeated("_", chars) }),
    run: (text) => decodeAll(new LocusFlatAdapter(), [{ type: "error", code: text, message: "failed" }], null),
  },
  {
    through: "the status bar (statusOf): a running tool's name, a failed turn's first line",
    covers: sitesIn("panel/status-model.ts", /(?<!\.)\.+$/, /\$\(/g),
    leads: [".", "$("],
    attacks: (chars) => ({ "full stops": repeated(".", chars), "icons": repeated("$(", chars) }),
    run: (text) => [
      statusOf(turnWith(1, [toolBlock({ tool: text, status: "running" })])),
      statusOf({ ...turnWith(1, [{ kind: "error", code: "UNKNOWN", message: text, recoverable: false }], { done: true }), status: "failed" }),
    ],
  },
  {
    through: "a crashed CLI's message from its stderr tail (Session, stderrExcerpt)",
    covers: sitesIn("protocol/visible-text.ts", /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g),
    leads: ["\r", "\u001b[", "\u001b[1;"],
    attacks: (chars) => ({
      "blanks before a word": `${repeated(" ", chars)}x`,
      "carriage returns": repeated("\r", chars),
      "colours never closed": repeated("\u001b[1;", chars),
      "one line of escapes": repeated("\u001b[2J\u202e", chars),
    }),
    run: (text) => {
      const session = new Session({ dialect: "locus", onEvent: () => {} });
      session.begin();
      session.processEnded({ reason: "exited", exitCode: 1, signal: null, stderrTail: text });
      return session.toTranscript();
    },
  },
  {
    through: "text escaped for a terminal, a log and JSON (visible-text)",
    covers: sitesIn(
      "protocol/visible-text.ts",
      /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
      /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
      /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
      /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/,
      /\r?\n/,
    ),
    leads: ["\u001b[", "\r"],
    attacks: (chars) => ({ "escape sequences": repeated("\u001b[2J\u202e", chars), "carriage returns": repeated("\r", chars) }),
    run: (text) => [escapeForTerminal(text), escapeForLog(text), logLines(text), escapeJson(JSON.stringify(text))],
  },
  {
    through: "a command line written to the log (formatCommandLine), the prompt one of its arguments",
    covers: sitesIn("process/command-line.ts", /^[\w@%+=:,./-]+$/, /'/g),
    leads: ["'"],
    attacks: (chars) => ({ quotes: repeated("'", chars), "word characters then a blank": `${repeated("a", chars)} ` }),
    run: (text) => formatCommandLine("agent", [text]),
  },
  {
    through: "agent-stream run's live view of a tool's output and changed files (createLivePrinter)",
    covers: sitesIn("cli/live-printer.ts", /\n$/),
    leads: ["\n"],
    attacks: (chars) => ({ "line breaks": repeated("\n", chars), "line breaks before more": `${repeated("\n", chars)}x` }),
    run: (text) => {
      const ignored = { write: () => true };
      createLivePrinter({ out: ignored, err: ignored, color: false })({
        kind: "block-added",
        index: 0,
        block: toolBlock({ status: "succeeded", output: text, diffs: [{ path: "a", oldText: null, newText: text }] }),
      });
    },
  },
  {
    through: "a saved ACP session, CLI conversation and session id read back from the workspace's state (their schemas)",
    covers: [
      ...sitesIn("protocol/messages.ts", /^[0-9a-f-]{36}$/),
      ...sitesIn("protocol/session-id.ts", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    ],
    leads: ["0", "00000000-"],
    attacks: (chars) => ({ "hex digits": repeated("0", chars), "hyphens": repeated("-", chars), "a UUID's start repeated": repeated("00000000-0000-", chars) }),
    run: (text) => [
      CliConversationSchema.safeParse({ agent: "a", id: text }),
      SessionIdSchema.safeParse(text),
    ],
  },
  {
    through: "a workspace folder's path made the name of its folder in Claude Code's store (claudeProjectFolderName)",
    covers: sitesIn("sessions/claude-project-folder.ts", /[^a-zA-Z0-9]/g),
    leads: ["/"],
    attacks: (chars) => ({ "slashes": repeated("/", chars), "letters": repeated("a", chars), "emoji": repeated("🙂", chars) }),
    run: (text) => claudeProjectFolderName(text),
  },
  {
    through: "a prompt read from a CLI's session store made a session's title (titleFromPrompt)",
    covers: sitesIn("common/session-title.ts", /\s+/g),
    leads: [" "],
    attacks: (chars) => ({ "spaces": repeated(" ", chars), "spaces between words": repeated(" \tx", chars), "spaces, then a line break": `${repeated(" ", chars)}\n` }),
    run: (text) => titleFromPrompt(text),
  },
  {
    through: "a link a model wrote, checked for the local network (pointsToLocalNetwork)",
    covers: sitesIn("panel/local-address.ts", /^\d{1,3}$/),
    leads: ["1.1.1.", "1.1.1.a"],
    attacks: (chars) => ({ "a long last part": `1.1.1.${repeated("a", chars)}`, "a long first part": `${repeated("1", chars)}.1.1.a` }),
    run: (text) => pointsToLocalNetwork(`http://${text}/`),
  },
  {
    through: "streamed markdown cut into segments, and its open fence (MarkdownSegmenter)",
    covers: sitesIn("webview/markdown-segments.ts", /^( {0,3})(`{3,}(?!`)|~{3,}(?!~))([^\n]*)$/, /^ {0,3}(`{3,}|~{3,})[ \t]*$/, /\r\n?/g, /^[ \t]*$/),
    leads: ["```", "~~~", "\n```\n"],
    attacks: (chars) => ({
      "a fence of backticks": repeated("`", chars),
      "a fence, then blanks": `\`\`\`\n\`\`\`${repeated(" ", chars)}x`,
      "fence lines": repeated("```\n", chars),
      "carriage returns": repeated("\r", chars),
      "blank lines": repeated(" \n", chars),
    }),
    run: (text) => {
      const segmenter = new MarkdownSegmenter();
      return [segmenter.push(text), segmenter.openFence, segmenter.push("\n")];
    },
  },
  {
    through: "the built-in agent reading a prompt, which may carry the editor's selection (intentOf)",
    covers: sitesIn(
      "builtin-agent/intents.ts",
      /\b(?:find|search(?:\s+for)?|grep|look\s+for|where\s+(?:is|are|do|does)|occurrences?\s+of|usages?\s+of|mentions?\s+of)\b/i,
      /\b(?:todos?|fixmes?)\b/i,
      /\b(?:explain|outline|describe|summar(?:y|i[sz]e)|what(?:'s|\s+is|\s+does)|show|tell\s+me\s+about|walk\s+me\s+through)\b/i,
      /\b(?:summar(?:y|i[sz]e)|overview|workspace|project|repo(?:sitory)?|codebase|languages?|how\s+(?:do\s+i\s+|to\s+)?(?:build|test)|build|scripts?)\b/i,
      /"([^"]+)"|'([^']+)'|`([^`]+)`|“([^“”]+)”/,
      /[A-Za-z_-]\d*\.[A-Za-z][A-Za-z0-9]{0,9}$/,
      /\s+/,
      /^[("'`“]+/,
      /^[\w@.\-/]+$/,
      /^(?:for|all|the|text|string|word|occurrences?\s+of|usages?\s+of|mentions?\s+of)\b\s*/i,
      /(?<!\s)\s+(?:in|across|within|throughout)\s+(?:the|this|my)\s+(?:workspace|project|repo(?:sitory)?|code(?:base)?|files?)\s*[?.!]*$/i,
      /(?<!\s)\s+(?:(?:is|are)\s*)?(?:used|defined|called|mentioned|declared)\s*[?.!]*$/i,
    ),
    leads: ["find ", "find x", "search ", "look ", "where ", "what ", "how do ", "walk me ", "explain a", "find “", "find x in the "],
    attacks: (chars) => ({
      "opening curly quotes": `find ${repeated("“", chars)}`,
      "quotes ending a word": `explain a${repeated("'", chars)}x`,
      "full stops ending a word": `explain a${repeated(".", chars)}x`,
      "a long name": `explain ${repeated("a", chars)}`,
      "blanks in a search term": `find x${repeated(" ", chars)}y`,
      "'in the ' in a search term": `find x${repeated(" in the", chars)}`,
      "'is ' in a search term": `find x${repeated(" is", chars)}`,
      "'look ' repeated": repeated("look ", chars),
      "'walk me ' after a path": `a.ts ${repeated("walk me ", chars)}`,
    }),
    run: (text) => intentOf(text),
  },
  {
    through: "the built-in agent's outline of a TypeScript or JavaScript file (outlineOf)",
    covers: sitesIn(
      "builtin-agent/outline.ts",
      /\r?\n/,
      String.raw`new RegExp(^\\s*(export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+({IDENT}))`,
      String.raw`new RegExp(^\\s*(export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?function(?:\\s*\\*)?\\s*({IDENT}))`,
      String.raw`new RegExp( ^\\s*(export\\s+)?(?:const|let|var)\\s+({IDENT})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|{IDENT}\\s*=>), )`,
      String.raw`new RegExp(^\\s*(export\\s+)?(?:declare\\s+)?interface\\s+({IDENT}))`,
      String.raw`new RegExp(^\\s*(export\\s+)?(?:declare\\s+)?type\\s+({IDENT})\\s*(?:<[^=]*>\\s*)?=)`,
      String.raw`new RegExp(^\\s*(export\\s+)?(?:declare\\s+)?(?:const\\s+)?enum\\s+({IDENT}))`,
      String.raw`new RegExp(^\\s*(export\\s+)(?:const|let|var)\\s+({IDENT}))`,
      String.raw`new RegExp( ^\\s*(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set)\\s+)*(?:\\*\\s*)?(#?{IDENT})\\s*(?:<[^>]*>\\s*)?\\(, )`,
      /^\s*export\s+(?:type\s+)?\{([^}]*)\}/,
      /^type\s+/,
      /(?<!\s)\s+as\s+/,
      /^\s*export\s+default\b/,
      /^\s*export\s+default\s+(?:abstract\s+)?(?:class|function|async)\b/,
      /^\s*export\s+\*/,
      /^\s*export\s+\*\s+(?:as\s+(\w+)\s+)?from\s+["']([^"']+)["']/,
      /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/,
      /^\s*module\.exports\s*=/,
    ),
    leads: ["export ", "export const f", "const f = (", "export type T<", "class A {\n", "export * as ", "exports."],
    attacks: (chars) => ({
      "escaped quotes": `const s = "${repeated('\\"', chars)}`,
      "opened comments": `x ${repeated("/* ", chars)}`,
      "blanks after 'function'": `export function${repeated(" ", chars)}!`,
      "blanks after a type's name": `export type T${repeated(" ", chars)}!`,
      "blanks in an export list": `export { a${repeated(" ", chars)}b }`,
      "blanks in a class body": `class A {\n${repeated(" ", chars)}!\n}`,
      "modifiers in a class body": `class A {\n${repeated("public ", chars)}`,
      "blanks after 'export default'": `export default${repeated(" ", chars)}x`,
      "blanks after 'export * as'": `export * as a${repeated(" ", chars)}x`,
    }),
    run: (text) => outlineOf("a.ts", text),
  },
  {
    through: "the built-in agent's outline of a Python file (outlineOf)",
    covers: sitesIn("builtin-agent/outline.ts", /^(\s*)class\s+([A-Za-z_]\w*)/, /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)/, /^__all__\s*=\s*[[(]([^\])]*)/, /["']([^"']+)["']/g),
    leads: ["class ", "    def ", "__all__ = ["],
    attacks: (chars) => ({ "quotes in __all__": `__all__ = [${repeated("'a", chars)}`, "blanks before 'def'": `class A:\n${repeated(" ", chars)}def` }),
    run: (text) => outlineOf("a.py", text),
  },
  {
    through: "the built-in agent's outline of a Go file (outlineOf)",
    covers: sitesIn(
      "builtin-agent/outline.ts",
      /^[A-Z]/,
      /^func\s+\(\s*(?:\w+(?:\s+|\s*\*\s*)|\*\s*)?(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)/,
      /^func\s+(\w+)/,
      /^type\s+(\w+)(?:\[[^\]]*\])?\s+(struct|interface)?/,
    ),
    leads: ["func (", "func (a", "type T"],
    attacks: (chars) => ({ "blanks in a receiver": `func (${repeated(" ", chars)}!`, "a function's long name": `func ${repeated("A", chars)}`, "blanks after a type": `type T${repeated(" ", chars)}!` }),
    run: (text) => outlineOf("a.go", text),
  },
  {
    through: "the built-in agent's outline of a Rust file (outlineOf)",
    covers: sitesIn(
      "builtin-agent/outline.ts",
      /^\s*impl\b(?:<[^>]*>)?\s+(?:[\w:<>,]+(?: +[\w:<>,]+)*\s+for\s+)?(\w+)/,
      /^\s*(pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)/,
      /^\s*(pub(?:\([^)]*\))?\s+)?(struct|enum|trait|type)\s+(\w+)/,
    ),
    leads: ["impl A", "impl<", "pub(", "pub "],
    attacks: (chars) => ({ "blanks after an impl's trait": `impl A${repeated(" ", chars)}!`, "words of an impl's trait": `impl A${repeated(" B", chars)}`, "an open pub(": `pub(${repeated("a", chars)}` }),
    run: (text) => outlineOf("a.rs", text),
  },
  {
    through: "the built-in agent's outline of a Markdown file (outlineOf)",
    covers: sitesIn("builtin-agent/outline.ts", /^\s*(```|~~~)/, /^(#{1,6})\s+/),
    leads: ["# a", "```"],
    attacks: (chars) => ({ "blanks in a heading": `# a${repeated(" ", chars)}x`, "closing hashes": `# a${repeated(" #", chars)}x` }),
    run: (text) => outlineOf("a.md", text),
  },
  {
    through: "the built-in agent's first paragraph of a README (firstParagraph)",
    covers: sitesIn(
      "builtin-agent/answers/readme-paragraph.ts",
      /\r?\n/,
      /^(```|~~~)/,
      /^(=+|-+)$/,
      /^(#|<|!\[|\[!\[|\||>|```|~~~|={3,}$|-{3,}$|\*{3,}$|\[[^\]]+\]:)/,
      /^([-*+]|\d+[.)])\s/,
    ),
    leads: ["=", "-", "[", "1"],
    attacks: (chars) => ({
      "equals signs before more": `a\n${repeated("=", chars)}x`,
      "a setext underline": `a\n${repeated("=", chars)}`,
      "a quoted line of equals signs": `a\n>${repeated("=", chars)}`,
      "an open link label": `[${repeated("a", chars)}`,
      "digits": repeated("1", chars),
      "asterisks": repeated("*", chars),
    }),
    run: (text) => firstParagraph(text),
  },
  {
    through: "the built-in agent reading a workspace's .gitignore (IgnoreRules)",
    covers: sitesIn("workspace/gitignore.ts", /\r?\n/),
    leads: ["[", "*a"],
    attacks: (chars) => ({ "opening brackets": repeated("[", chars), "stars": `${repeated("*a", chars)}b`, "globstars": `${repeated("**/a/", chars)}b` }),
    run: (text) => IgnoreStack.empty.with("", IgnoreRules.parse(text)).ignores(`src/a/b/${"a".repeat(40)}.ts`, false),
  },
  {
    through: "the built-in agent's key files among a workspace's paths (keyFilesIn)",
    covers: sitesIn(
      "builtin-agent/answers/key-files.ts",
      /^readme(\.\w+)?$/i,
      /^package\.json$/,
      /^tsconfig\.json$/,
      /^pyproject\.toml$/,
      /^requirements\.txt$/,
      /^setup\.py$/,
      /^go\.mod$/,
      /^Cargo\.toml$/,
      /^(GNUmakefile|[Mm]akefile)$/,
      /^(Dockerfile|Containerfile)$/,
      /^(docker-)?compose\.ya?ml$/,
      /^\.github\/workflows\/[^/]+\.ya?ml$/,
      /^\.gitignore$/,
      /^(LICENSE|LICENCE|COPYING)(\.\w+)?$/i,
      /^CONTRIBUTING(\.\w+)?$/i,
      /^CHANGELOG(\.\w+)?$/i,
      /^(src\/)?(index|main|extension|app|server|cli)\.(ts|js|mjs|cjs)$/,
      /^(main|app|__main__)\.py$/,
      /^(main\.go|cmd\/[^/]+\/main\.go)$/,
      /^src\/(main|lib)\.rs$/,
    ),
    leads: [".github/workflows/", "readme.", "cmd/"],
    attacks: (chars) => ({ "a workflow's long name": `.github/workflows/${repeated("a.yml", chars)}x`, "a long extension": `readme.${repeated("a", chars)}/` }),
    run: (text) => keyFilesIn([{ path: text, size: 1 }]),
  },
  {
    through: "the built-in agent's build instructions from a Makefile and the paths (buildInstructions)",
    covers: sitesIn("builtin-agent/answers/build-instructions.ts", /\r?\n/, /^([A-Za-z0-9][\w.-]*)\s*:(?!=)/, /(^|\/)(test_[^/]*|[^/]*_test)\.py$/),
    leads: ["a", "test_"],
    attacks: (chars) => ({ "a target's long name": `a${repeated(".", chars)}`, "blanks before a colon": `a${repeated(" ", chars)}:=`, "a test file's long name": `${repeated("a_test", chars)}.py/` }),
    run: (text) => buildInstructions({ paths: new Set([text, "requirements.txt", "Makefile"]), makefile: text }),
  },
  {
    through: "markdown pieces the built-in agent writes around a workspace's text (tableRow, escapeMarkdown)",
    covers: sitesIn("builtin-agent/markdown.ts", /\|/g, /\n/g, /[\\*_[\]<>#|~]/g),
    leads: ["|"],
    attacks: (chars) => ({ pipes: repeated("|\n", chars), "markdown characters": repeated("\\*_[]<>#|~", chars) }),
    run: (text) => [tableRow([text]), escapeMarkdown(text)],
  },
  {
    through: "the built-in agent's answer paced as text deltas (splitIntoDeltas)",
    covers: sitesIn("builtin-agent/text-pacer.ts", /(?<!\s)\s*\S+/g),
    leads: [" "],
    attacks: (chars) => ({ "trailing blanks": `a${repeated(" ", chars)}`, "one-letter words": repeated(" a", chars) }),
    run: (text) => splitIntoDeltas(text),
  },
  {
    through: "the built-in agent's summary of a workspace whose README and Makefile are the text (answerSummary)",
    covers: sitesIn("builtin-agent/answers/summary.ts", /^readme(\.(md|markdown|mdx|txt|rst))?$/i, /^(GNUmakefile|[Mm]akefile)$/),
    leads: ["# ", "a:"],
    attacks: (chars) => ({ "a README of blanks": `a${repeated(" ", Math.min(chars, READABLE))}`, "a Makefile of targets": repeated("a:\n", Math.min(chars, READABLE)) }),
    run: (text) => inWorkspace({ "README.md": text, Makefile: text, "notes.txt": text }, async (root) => answerSummary(await answerContextIn(root))),
  },
  {
    through: "the built-in agent explaining a workspace file that is the text (answerExplainFile)",
    covers: sitesIn("builtin-agent/answers/explain-file.ts", /^\.\//, /\r?\n/, /^\*\s?/, /^[/#!]*\s?/),
    leads: ["/**", "//", "#"],
    attacks: (chars) => ({ "a comment of slashes": `// a\n${repeated("/", Math.min(chars, READABLE))}`, "a block comment of stars": `/*\n${repeated("*", Math.min(chars, READABLE))}` }),
    run: (text) => inWorkspace({ "a.ts": text }, async (root) => answerExplainFile(await answerContextIn(root), "./a.ts")),
  },
  {
    through: "the built-in agent's TODO search over a workspace file that is the text (answerTodos, searchText)",
    covers: [
      ...sitesIn("builtin-agent/answers/todos.ts", /(?:(?<!\/)\/\/+|(?<!#)#+|\/\*+|^\s*\*+|<!--|--|(?<!;);+)\s*@?(TODO|FIXME)\b/, /^(\([^)]*\))?\s*(?:[:\-–—]\s*)?/, /(?:\*\/|-->|#\})$/),
      ...sitesIn("builtin-agent/tools/search-text.ts", /\r?\n/, String.raw`new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""))`),
    ],
    leads: ["#", "//", ";", "// TODO"],
    attacks: (chars) => ({ "a line of #": repeated("#", Math.min(chars, READABLE)), "a line of /": repeated("/", Math.min(chars, READABLE)), "a line of ;": repeated(";", Math.min(chars, READABLE)), "notes of blanks": repeated("// TODO: a   \n", Math.min(chars, READABLE)) }),
    run: (text) => inWorkspace({ "a.py": text }, async (root) => answerTodos(await answerContextIn(root))),
  },
  {
    through: "the built-in agent looking for a text in a workspace file (answerFindText)",
    covers: sitesIn("builtin-agent/answers/find-text.ts", String.raw`new RegExp(escapeRegExp(text), "i")`, /[.*+?^${}()|[\]\\]/g),
    leads: ["a"],
    attacks: (chars) => ({ "a long run of one letter": repeated("a", Math.min(chars, READABLE)), "regular-expression characters": repeated("*+?", Math.min(chars, READABLE)) }),
    run: (text) =>
      inWorkspace({ "a.txt": text }, async (root) => {
        const context = await answerContextIn(root);
        // The longest term it searches for, nearly matching everywhere; and the whole text, which it refuses.
        return [await answerFindText(context, `${text.slice(0, 999)}!`), await answerFindText(context, text)];
      }),
  },
];
