// A live session with a CLI that reads its prompt on stdin: its input ends when its stream says the run is over,
// and Stop asks it in band first. Real child processes (test/fake-clis/stdin-locus.js).
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { STDERR_EXCERPT_LINES } from "../../../src/common/stderr-excerpt";
import { createAdapter } from "../../../src/dialects/registry";
import type { SessionChange } from "../../../src/protocol/messages";
import type { Transcript } from "../../../src/protocol/transcript";
import type { RunEnvironment } from "../../../src/session/error-cause";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import { piProfile } from "../../../src/profiles/pi-profile";
import { LiveSession } from "../../../src/session/live-session";
import { FIXTURES } from "../../helpers/dialect-harness";
import { eventually } from "../../helpers/eventually";
import * as cli from "../../helpers/stream-builder";
import { fakeCli } from "../../helpers/repo";

const isDone = (value: unknown) => typeof value === "object" && value !== null && (value as { type?: unknown }).type === "done";

function startStdinLocus(options: { deltas?: number; isRunOver?: (value: unknown) => boolean; onChange?: (change: SessionChange) => void; signalLog?: string }): LiveSession {
  return LiveSession.start({
    adapter: createAdapter("locus"),
    process: {
      command: fakeCli("stdin-locus.js"),
      args: [],
      cwd: os.tmpdir(),
      env: { ...process.env, FAKE_DELTAS: String(options.deltas ?? 5), FAKE_SIGNAL_LOG: options.signalLog ?? "" },
      input: { initial: `${JSON.stringify({ prompt: "hello" })}\n`, interrupt: { line: `${JSON.stringify({ interrupt: true })}\n`, graceMs: 10_000 } },
      inactivityTimeoutMs: 0,
    },
    isRunOver: options.isRunOver ?? isDone,
    onChange: options.onChange ?? (() => {}),
  });
}

describe("LiveSession with the prompt on stdin", function () {
  this.timeout(20_000);
  const signalLog = path.join(os.tmpdir(), `agent-stream-signals-${process.pid}`);
  afterEach(() => fs.rmSync(signalLog, { force: true }));

  it("closes the CLI's stdin once its stream says the run is over, so the CLI exits and the session completes", async () => {
    const transcript = await startStdinLocus({}).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(transcript.blocks, [{ kind: "text", text: "hello hello hello hello hello " }]);
    assert.equal(transcript.done.synthesized, false);
    assert.deepEqual(transcript.problems, []);
  });

  it("asks the CLI to stop on its stdin, and it ends canceled without a single signal", async () => {
    let live: LiveSession | undefined;
    let stopped: Promise<unknown> | undefined;
    live = startStdinLocus({
      deltas: 1000,
      signalLog,
      onChange: (change) => {
        if (change.kind === "text-appended" && stopped === undefined) stopped = live?.stop();
      },
    });
    const transcript = await live.finished;
    await stopped;
    assert.equal(transcript.status, "canceled");
    assert.ok(transcript.blocks.length === 1 && transcript.blocks[0]?.kind === "text");
    assert.equal(transcript.done.synthesized, false, "the CLI wrote its own done");
    assert.equal(fs.existsSync(signalLog) ? fs.readFileSync(signalLog, "utf8") : "", "", "no signal was needed");
  });
});

describe("LiveSession: a CLI that fails before answering", function () {
  this.timeout(20_000);

  /** A recorded run played back by a real process: its stdout, then its stderr (so stderr comes last), its exit code. */
  function playBack(folder: string, scenario: string, environment?: RunEnvironment): Promise<Transcript> {
    const file = path.join(FIXTURES, folder, `${scenario}.ndjson`);
    const meta = JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, `${scenario}.meta.json`), "utf8")) as { exitCode: number; stderrTail: string };
    const live = LiveSession.start({
      adapter: createAdapter("auto"),
      process: { command: fakeCli("print-and-exit.js"), args: [file, String(meta.exitCode), meta.stderrTail], cwd: os.tmpdir() },
      environment,
    });
    return live.finished;
  }

  it("shows Gemini CLI's failure with the last lines of its stderr, though they came after the failure's line", async () => {
    const transcript = await playBack("gemini-recorded/0.61.0", "auth-error");
    assert.equal(transcript.status, "failed");
    const [error, ...others] = transcript.blocks.filter((block) => block.kind === "error");
    assert.deepEqual(others, []);
    const [first, heading, ...stderr] = error!.message.split("\n");
    assert.equal(first, "API key not valid. Please pass a valid API key. (HTTP 401, UNAUTHENTICATED)");
    assert.equal(heading, "Last lines of stderr:");
    // Its 18 lines whole: the warnings, then the API error and its stack.
    assert.ok(stderr.length <= STDERR_EXCERPT_LINES, `${stderr.length} lines`);
    assert.match(stderr[0]!, /^Warning: 256-color support not detected/);
    assert.ok(stderr.some((line) => line.includes("Error when talking to Gemini API") && line.includes("_ApiError")), stderr.join("\n"));
  });

  it("shows Codex's failure with what it wrote on stderr", async () => {
    const transcript = await playBack("codex-recorded/0.169.0", "auth-error");
    const fatal = transcript.blocks.filter((block) => block.kind === "error" && !block.recoverable);
    assert.equal(fatal.length, 1);
    assert.match(fatal[0]!.kind === "error" ? fatal[0]!.message : "", /^unexpected status 401 Unauthorized[^\n]*\nLast lines of stderr:\n[\s\S]*Reading additional input from stdin\.\.\.$/);
  });

  it("says which key was refused right after the error, before the stderr lines", async () => {
    const environment = { env: { GEMINI_API_KEY: "not-shown" }, apiKeyVariables: ["GEMINI_API_KEY"], runsAsRoot: false };
    const transcript = await playBack("gemini-recorded/0.61.0", "auth-error", environment);
    const [error] = transcript.blocks.filter((block) => block.kind === "error");
    const [, second, third] = error!.kind === "error" ? error!.message.split("\n") : [];
    assert.match(second!, /^The agent was given the API key in GEMINI_API_KEY /);
    assert.equal(third, "Last lines of stderr:");
  });

  it("shows the failure at once, without stderr, when the user stops a CLI that stays after it", async () => {
    let sawResult = false;
    const live = LiveSession.start({
      adapter: createAdapter("auto"),
      process: { command: fakeCli("print-and-exit.js"), args: [path.join(FIXTURES, "gemini-recorded/0.61.0/auth-error.ndjson"), "145"], cwd: os.tmpdir(), env: { ...process.env, PRINT_AND_STAY: "1" } },
      onLine: (text) => (sawResult ||= text.includes('"type":"result"')),
    });
    await eventually("the failure's line was read", () => sawResult);
    const transcript = await live.stop();
    assert.equal(transcript.status, "failed");
    assert.deepEqual(
      transcript.blocks.filter((block) => block.kind === "error").map((block) => block.kind === "error" && block.message),
      ["API key not valid. Please pass a valid API key. (HTTP 401, UNAUTHENTICATED)"],
    );
  });

  it("holds no more than a few events after a failure: a CLI that goes on talking is shown as it talks", async () => {
    const file = path.join(os.tmpdir(), `live-after-failure-${process.pid}.ndjson`);
    const after = Array.from({ length: 500 }, (_, i) => cli.textDelta(`more ${i} `));
    fs.writeFileSync(file, [cli.start(), cli.errorEvent("UNKNOWN", "it failed"), ...after].map((event) => JSON.stringify(event)).join("\n") + "\n");
    const changes: SessionChange[] = [];
    const live = LiveSession.start({
      adapter: createAdapter("locus"),
      process: { command: fakeCli("print-and-exit.js"), args: [file, "1"], cwd: os.tmpdir(), env: { ...process.env, PRINT_AND_STAY: "1" } },
      onChange: (change) => changes.push(change),
    });
    try {
      await eventually("the failure is shown while the CLI still runs", () => changes.some((change) => change.kind === "block-added" && change.block.kind === "error"));
    } finally {
      await live.stop();
      fs.rmSync(file, { force: true });
    }
  });

  it("adds nothing to a failure when the CLI wrote nothing on stderr (Claude Code 2.1.330)", async () => {
    const transcript = await playBack("claude-recorded/2.1.330", "auth-error");
    const fatal = transcript.blocks.filter((block) => block.kind === "error" && !block.recoverable);
    assert.ok(fatal.length === 1 && fatal[0]!.kind === "error" && !fatal[0]!.message.includes("stderr"), JSON.stringify(fatal));
  });
});

describe("LiveSession: a message steered into the running turn", function () {
  this.timeout(20_000);

  /** The fake plays Claude's recorded stream; its input is Claude's profile's, so the steer line is the real one. */
  function startSteered(onChange: (change: SessionChange) => void, env: NodeJS.ProcessEnv = {}): LiveSession {
    const input = claudeProfile.invocation({ prompt: "Read notes.txt and tell me what it says.", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: os.tmpdir() } }).input;
    assert.ok(input?.steer !== undefined);
    return LiveSession.start({
      adapter: createAdapter("claude"),
      process: { command: fakeCli("stdin-claude-steered.js"), args: [], cwd: os.tmpdir(), env: { ...process.env, ...env }, input, inactivityTimeoutMs: 0 },
      isRunOver: input.isRunOver,
      onChange,
    });
  }

  const prompted = (live: LiveSession, words: string) => live.session.blocks.some((block) => block.kind === "status" && block.status === "prompt" && block.message === words);

  it("keeps the CLI's stdin open past the first result while a steered message waits for its own, and shows each where it was sent", async () => {
    let live: LiveSession | undefined;
    let steered: boolean | undefined;
    live = startSteered((change) => {
      if (change.kind === "text-appended" && steered === undefined) steered = live?.steer("Also say it in French.");
    });
    // Claude ended the first turn with its result, then took the message into a turn of its own.
    await eventually("Claude's replay of the steered message", () => live !== undefined && prompted(live, "Also say it in French."));
    assert.equal(steered, true);
    assert.equal(live.steer("And in German."), true, "the run still takes messages after the first result");
    const transcript = await live.finished;
    assert.equal(transcript.status, "completed");
    const steers = transcript.blocks.filter((block) => block.kind === "steer");
    assert.deepEqual(steers, [
      { kind: "steer", text: "Also say it in French." },
      { kind: "steer", text: "And in German." },
    ]);
    const answer = transcript.blocks.filter((block) => block.kind === "text").map((block) => block.text);
    assert.ok(answer.join("").includes("en français"), `the steered message's answer: ${JSON.stringify(answer)}`);
  });

  it("counts a message Claude had not taken when the turn was stopped, so it is not lost with the run", async () => {
    let live: LiveSession | undefined;
    let steered: boolean | undefined;
    live = startSteered(
      (change) => {
        if (change.kind === "text-appended" && steered === undefined) steered = live?.steer("Also say it in French.");
      },
      { FAKE_TAKES: "2" },
    );
    await eventually("Claude's replay of the steered message", () => live !== undefined && prompted(live, "Also say it in French."));
    assert.equal(live.steer("And in German."), true);
    await eventually("the second steer shown in the turn", () => live!.session.blocks.some((block) => block.kind === "steer" && block.text === "And in German."));
    const transcript = await live.stop();
    assert.equal(transcript.status, "canceled");
    assert.equal(live.untakenSteers(), 1, "the one Claude never echoed is the caller's to send again");
  });

  it("takes no message once the run is over", async () => {
    let live: LiveSession | undefined;
    let steered = false;
    live = startSteered((change) => {
      if (change.kind === "text-appended" && !steered) steered = live?.steer("Also say it in French.") ?? false;
    });
    await eventually("Claude's replay of the steered message", () => live !== undefined && prompted(live, "Also say it in French."));
    live.steer("And in German.");
    await live.finished;
    assert.equal(live.steer("Too late."), false);
    assert.ok(!live.session.blocks.some((block) => block.kind === "steer" && block.text === "Too late."));
  });
});

describe("LiveSession: a message steered into pi after it decided to end", function () {
  this.timeout(20_000);

  /** The fake plays pi's recorded rpc stream and takes the steer only after its last look at its queue. */
  function startPi(onChange: (change: SessionChange) => void): LiveSession {
    const invocation = piProfile.invocation({ prompt: "Read notes.txt and tell me what it says.", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: os.tmpdir() } });
    assert.ok(invocation.input?.steer !== undefined);
    return LiveSession.start({
      adapter: createAdapter("pi"),
      process: { command: fakeCli("stdin-pi-late-steer.js"), args: [], cwd: os.tmpdir(), env: process.env, input: invocation.input, inactivityTimeoutMs: 0 },
      isRunOver: invocation.input.isRunOver,
      onChange,
    });
  }

  it("ends the run at pi's agent_end with the message it left queued counted as not taken, rather than waiting on an open stdin", async () => {
    let live: LiveSession | undefined;
    let steered: boolean | undefined;
    live = startPi((change) => {
      if (change.kind === "text-appended" && steered === undefined) steered = live?.steer("Also say it in French.");
    });
    const transcript = await live.finished;
    assert.equal(steered, true);
    assert.equal(transcript.status, "completed");
    assert.deepEqual(transcript.blocks.filter((block) => block.kind === "steer"), [{ kind: "steer", text: "Also say it in French." }]);
    assert.equal(live.untakenSteers(), 1, "the caller sends it again");
  });
});
