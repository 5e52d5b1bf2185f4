// Conversations for the webview suites, made the way the host makes them: CLI events go through a real Session,
// whose changes become the `turn-started` and `changes` messages, and whose end state becomes the snapshot's turn.
import type { CliStreamEvent } from "../../src/protocol/events";
import type { HostMessage, SessionChange, Turn } from "../../src/protocol/messages";
import type { Problem } from "../../src/protocol/transcript";
import { Session, type ProcessEnding } from "../../src/session/session";
import * as cli from "../helpers/stream-builder";
import { TEST_HEADER, TEST_SESSION_ID } from "../helpers/test-session";

/**
 * What happens during a turn: an event from the CLI, a line that could not be read, the user's Stop, the CLI's
 * exit (with what it left on stderr), or a message the user sent into the running turn.
 */
export type Step = CliStreamEvent | { problem: Problem } | { userStop: true } | { exited: ProcessEnding } | { steer: string };

export interface RecordedTurn {
  started: Extract<HostMessage, { type: "turn-started" }>;
  changes: SessionChange[];
  /** The turn as the host holds it after the last change: what a snapshot carries. */
  final: Turn;
}

export function recordTurn(id: number, prompt: string, steps: readonly Step[], agent = "Locus"): RecordedTurn {
  const changes: SessionChange[] = [];
  const session = new Session({ dialect: "locus", now: () => cli.T0, onChange: (change) => changes.push(change) });
  const initial: Turn = { id, prompt, agent, state: "idle", blocks: [], problems: [], done: null, status: null, context: null, origin: "prompt" };
  session.begin();
  steps.forEach((step, line) => {
    if ("problem" in step) session.acceptProblem(step.problem);
    else if ("userStop" in step) session.stopRequested("user");
    else if ("exited" in step) session.processEnded(step.exited);
    else if ("steer" in step) session.noteSteer(step.steer);
    else session.acceptEvent(step, line + 1);
  });
  const final: Turn = {
    ...initial,
    state: session.state,
    blocks: session.blocks,
    problems: [...session.problems],
    done: session.done,
    status: session.finalStatus,
  };
  return { started: { type: "turn-started", sessionId: TEST_SESSION_ID, turn: initial }, changes, final };
}

/** The changes as the host posts them: in order, `perMessage` to a message. */
export function changeMessages(turn: RecordedTurn, perMessage = 1): HostMessage[] {
  const messages: HostMessage[] = [];
  for (let i = 0; i < turn.changes.length; i += perMessage) {
    messages.push({ type: "changes", sessionId: TEST_SESSION_ID, turnId: turn.started.turn.id, changes: turn.changes.slice(i, i + perMessage) });
  }
  return messages;
}

export function snapshotOf(turns: readonly RecordedTurn[], restriction: string | null = null): HostMessage {
  return { type: "snapshot", sessionId: TEST_SESSION_ID, header: TEST_HEADER, turns: turns.map((turn) => structuredClone(turn.final)), restriction };
}

/** Text split into deltas of a few characters, as a model streams it. */
export function deltas(text: string, size = 7): CliStreamEvent[] {
  const events: CliStreamEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push(cli.textDelta(text.slice(i, i + size)));
  return events;
}

export const ANSWER_MARKDOWN = [
  "## Why the login fails",
  "",
  "The refresh handler stores the **new** token, but `verifyToken` still reads the *old* one from the cache.",
  "",
  "1. `refresh()` writes the token",
  "2. the cache keeps the previous value for 60 s",
  "3. the next request is rejected",
  "",
  "```ts",
  "export function verifyToken(token: string): boolean {",
  "  const cached = cache.get(token);",
  "",
  "  return cached !== undefined && !isExpired(cached);",
  "}",
  "```",
  "",
  "> The cache was added in the last release.",
  "",
  "See the [token guide](https://example.com/docs/tokens) for details.",
].join("\n");

export const THINKING_TEXT = "The user says login fails after a refresh.\n\nLet me read the auth middleware and the token cache first.";

/** A finished turn with every kind of block: status, thinking, tools that succeeded and failed, markdown. */
export function answeredTurn(id = 0): RecordedTurn {
  return recordTurn(id, "Why does login fail after the token refresh?", [
    cli.start({ model: "claude-sonnet-4-5" }),
    cli.status("streaming", "Reading the code"),
    cli.thinking(THINKING_TEXT),
    cli.toolStarted("Read", "t1", { file_path: "/src/auth/middleware.ts" }),
    cli.toolCompleted("Read", "t1", { duration: 42 }),
    cli.toolStarted("Grep", "t2", { pattern: "verifyToken", path: "/src" }),
    cli.toolCompleted("Grep", "t2", { duration: 1250 }),
    cli.toolStarted("Read", "t3", { file_path: "/src/auth/missing.ts" }),
    cli.toolCompleted("Read", "t3", { success: false, duration: 5, error: "ENOENT: no such file or directory" }),
    ...deltas(ANSWER_MARKDOWN, 9),
    cli.done({ duration: 4200, tokensUsed: 1834 }),
  ]);
}

/** A turn that failed: a tool left running, lines that could not be read, and a crash with stderr. */
export function crashedTurn(id = 1): RecordedTurn {
  const problem = (line: number, message: string): { problem: Problem } => ({ problem: { line, code: "MALFORMED_EVENT", message } });
  return recordTurn(id, "Run the test suite", [
    cli.start(),
    cli.toolStarted("Bash", "b1", { command: "npm test -- --reporter dot", description: "Run tests" }),
    problem(3, "not JSON: Unexpected token 'W', \"Warning: ex\"... is not valid JSON"),
    problem(4, "payload.content: expected string, got number"),
    problem(5, "not JSON: Unexpected end of JSON input"),
    cli.errorEvent("PROCESS_CRASHED", "The agent exited with code 1.\nstderr:\nError: connect ECONNREFUSED 127.0.0.1:8080\n    at TCPConnectWrap.afterConnect"),
    cli.done({ exitCode: 1, duration: 2500 }),
  ]);
}

/** A turn still running: thinking, then a tool at work and a status. */
export function runningTurn(id = 2): RecordedTurn {
  return recordTurn(id, "Now fix it, please", [
    cli.start(),
    cli.thinking("I will change verifyToken to read through the cache."),
    cli.status("working", "Editing 1 file"),
    cli.toolStarted("Edit", "e1", { file_path: "/src/auth/token-cache.ts", old_string: "cache.get(token)", new_string: "cache.refresh(token)" }),
  ]);
}
