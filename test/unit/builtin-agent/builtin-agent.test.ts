// Black-box tests of the built agent (dist/builtin-agent.js) on a sample workspace, as the extension runs it:
// a child process in the workspace folder, its stdout checked by `agent-stream check`.
import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { CliStreamEventSchema, type CliStreamEvent, type EventOfType } from "../../../src/protocol/events";
import { repoRoot } from "../../helpers/repo";
import { HIDDEN_PATHS, createSampleWorkspace, treeFingerprint, type SampleWorkspace } from "../../helpers/sample-workspace";

const AGENT = path.join(repoRoot, "dist", "builtin-agent.js");
const CLI = path.join(repoRoot, "dist", "cli.js");

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface AgentRun extends Finished {
  events: CliStreamEvent[];
  /** The answer: every text_delta joined. */
  text: string;
}

function startAgent(args: readonly string[], cwd: string, delayMs: number): ChildProcess {
  return spawn(process.execPath, [AGENT, ...args], {
    cwd,
    env: { ...process.env, AGENT_STREAM_BUILTIN_DELAY_MS: String(delayMs) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

async function finish(child: ChildProcess, stdin?: string): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  if (stdin !== undefined) child.stdin!.end(stdin);
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

/** Every line must be a protocol-1 event exactly as the schema defines it: nothing missing, nothing extra. */
function decode(stdout: string): CliStreamEvent[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line, i) => {
      const raw: unknown = JSON.parse(line);
      const event = CliStreamEventSchema.parse(raw);
      assert.deepEqual(event, raw, `line ${i + 1} has fields the protocol does not define`);
      return event;
    });
}

function answerOf(events: readonly CliStreamEvent[]): string {
  return events.flatMap((e) => (e.type === "text_delta" ? [e.payload.content] : [])).join("");
}

async function ask(prompt: string, cwd: string, delayMs = 0): Promise<AgentRun> {
  const run = await finish(startAgent(["exec", "--json-stream", "--", prompt], cwd, delayMs));
  const events = decode(run.stdout);
  return { ...run, events, text: answerOf(events) };
}

async function check(stream: string): Promise<Finished> {
  return finish(spawn(process.execPath, [CLI, "check", "-"], { stdio: ["pipe", "pipe", "pipe"] }), stream);
}

function ofType<T extends CliStreamEvent["type"]>(events: readonly CliStreamEvent[], type: T): EventOfType<T>[] {
  return events.filter((e): e is EventOfType<T> => e.type === type);
}

function doneOf(run: AgentRun): EventOfType<"done">["payload"] {
  const done = run.events[run.events.length - 1];
  assert.equal(done.type, "done");
  return (done as EventOfType<"done">).payload;
}

function failedTools(run: AgentRun): { tool: string; error: string | undefined }[] {
  return ofType(run.events, "tool_completed")
    .filter((e) => !e.payload.success)
    .map((e) => ({ tool: e.payload.tool, error: e.payload.error }));
}

/** Resolves with stdout so far once a text_delta line has appeared; rejects if the agent exits first. */
function firstTextDelta(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (d: Buffer) => {
      seen += d.toString("utf8");
      if (seen.includes('"type":"text_delta"')) {
        child.stdout!.off("data", onData);
        child.off("close", onClose);
        resolve(seen);
      }
    };
    const onClose = () => reject(new Error(`exited before streaming any text; printed ${JSON.stringify(seen)}`));
    child.stdout!.on("data", onData);
    child.once("close", onClose);
  });
}

/** Starts the agent, waits until it is streaming its answer, sends the signals, and collects everything. */
async function interrupt(cwd: string, signals: readonly NodeJS.Signals[]): Promise<AgentRun & { exitMs: number }> {
  // A pause far longer than the test allows: only an interruption that cancels it ends the run in time.
  const child = startAgent(["exec", "--json-stream", "--", "summarise this workspace"], cwd, 60_000);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const closed = once(child, "close") as Promise<[number | null]>;
  let stdout = await firstTextDelta(child);
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  const signalledAt = performance.now();
  for (const signal of signals) child.kill(signal);
  const [code] = await closed;
  const exitMs = performance.now() - signalledAt;
  const events = decode(stdout);
  return { code, stdout, stderr, events, text: answerOf(events), exitMs };
}

const PROMPTS = {
  summary: "summarise this workspace",
  find: 'find "addItem"',
  findNegated: "search for kept despite",
  explain: "explain src/cart.ts",
  explainPython: "explain report.py",
  todos: "list the TODOs",
  brokenLink: "explain src/broken.ts",
  folder: "explain notes.md",
  unknown: "what's the weather like tomorrow?",
} as const;
type PromptName = keyof typeof PROMPTS;

describe("built-in workspace agent (dist/builtin-agent.js)", function () {
  this.timeout(60_000);
  let workspace: SampleWorkspace;
  let fingerprintBefore: string;
  const runs = {} as Record<PromptName, AgentRun>;

  before(async () => {
    workspace = createSampleWorkspace();
    fingerprintBefore = treeFingerprint(workspace.root);
    const names = Object.keys(PROMPTS) as PromptName[];
    const results = await Promise.all(names.map((name) => ask(PROMPTS[name], workspace.root)));
    names.forEach((name, i) => (runs[name] = results[i]));
  });

  after(() => workspace.remove());

  describe("speaks protocol 1 for every kind of request", () => {
    for (const name of Object.keys(PROMPTS) as PromptName[]) {
      describe(`"${PROMPTS[name]}"`, () => {
        it("passes agent-stream check with no problems", async () => {
          const result = await check(runs[name].stdout);
          assert.equal(result.stdout, "");
          assert.equal(result.code, 0);
        });

        it("starts with start, ends with its only done (exit code 0, success) and exits 0", () => {
          const run = runs[name];
          assert.equal(run.code, 0, run.stderr);
          assert.equal(run.events[0].type, "start");
          assert.equal(ofType(run.events, "done").length, 1);
          const done = doneOf(run);
          assert.equal(done.exitCode, 0);
          assert.equal(done.success, true);
          assert.equal(done.tokensUsed, undefined, "no model, so no tokens");
        });

        it("uses one session id throughout", () => {
          const ids = new Set(runs[name].events.map((e) => e.sessionId));
          assert.equal(ids.size, 1);
          assert.match([...ids][0], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        });

        it("completes every tool it starts, with a measured duration, and lists the tools in done in first-use order", () => {
          const run = runs[name];
          const started = ofType(run.events, "tool_started");
          const completed = ofType(run.events, "tool_completed");
          assert.deepEqual(completed.map((e) => e.payload.toolId), started.map((e) => e.payload.toolId));
          for (const e of completed) assert.ok(typeof e.payload.duration === "number" && e.payload.duration >= 0);
          const distinct = [...new Set(started.map((e) => e.payload.tool))];
          assert.deepEqual(doneOf(run).toolsUsed, distinct);
        });
      });
    }
  });

  describe("summarise the workspace", () => {
    it("counts languages by file count, most files first", () => {
      const rows = [...runs.summary.text.matchAll(/^\| (TypeScript|JSON|Python|Markdown) \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
      assert.deepEqual(rows.slice(0, 2), [["TypeScript", 4], ["JSON", 2]]);
      assert.ok(rows.some(([language, files]) => language === "Python" && files === 1));
    });

    it("quotes the README's first paragraph, past the title and the badge", () => {
      assert.match(runs.summary.text, /^> Sample Shop sells imaginary socks to imaginary people\. It exists so the built-in agent has something to read\.$/m);
    });

    it("says how to install, build and test, and lists the package scripts", () => {
      const text = runs.summary.text;
      assert.match(text, /- Install: `npm ci`/);
      assert.match(text, /- Build: `npm run build`/);
      assert.match(text, /- Test: `npm test`/);
      assert.match(text, /\| `lint` \| `eslint src` \|/);
    });

    it("names the key files", () => {
      for (const file of ["README.md", "package.json", ".gitignore", "src/index.ts"]) assert.match(runs.summary.text, new RegExp(`^- \`${file.replace(".", "\\.")}\` — `, "m"));
    });

    it("lists, then reads the README and package.json, each as a tool card", () => {
      const started = ofType(runs.summary.events, "tool_started").map((e) => [e.payload.tool, e.payload.parameters?.path]);
      assert.deepEqual(started, [["ListFiles", "."], ["ReadFile", "README.md"], ["ReadFile", "package.json"]]);
    });

    it("leaves out what .gitignore hides and node_modules, but keeps a file re-included by !", () => {
      assert.match(runs.summary.text, /^11 files \([^)]*\) in 7 languages and file types\. 2 entries left out by `\.gitignore`/m);
      assert.match(runs.summary.text, /\| Log \| 1 \|/, "keep.log is re-included by !keep.log");
    });

    it("thinks aloud and reports its status before answering", () => {
      const types = runs.summary.events.map((e) => e.type);
      assert.ok(types.indexOf("thinking") < types.indexOf("tool_started"));
      assert.ok(types.indexOf("status") < types.indexOf("text_delta"));
    });
  });

  describe("find text", () => {
    it("lists every line containing the text as file:line", () => {
      const lines = runs.find.text.split("\n").filter((l) => l.startsWith("- `"));
      assert.deepEqual(lines, ["- `src/cart.ts:20` — `export function addItem(cart: Cart, item: Item): Cart {`"]);
    });

    it("does not search gitignored files or node_modules", () => {
      for (const hidden of HIDDEN_PATHS) assert.doesNotMatch(runs.find.text, new RegExp(hidden.replace(/[./]/g, "\\$&")));
    });

    it("searches a file that a ! rule re-includes", () => {
      assert.match(runs.findNegated.text, /- `keep\.log:1` — `kept despite the \*\.log rule`/);
    });

    it("reports the search as a SearchText tool card with its pattern", () => {
      const search = ofType(runs.find.events, "tool_started").find((e) => e.payload.tool === "SearchText");
      assert.equal(search?.payload.parameters?.pattern, "addItem");
    });

    it("names the file it could not read", () => {
      assert.match(runs.find.text, /src\/broken\.ts is a broken symbolic link: its target missing-target\.ts does not exist/);
    });
  });

  describe("explain a file", () => {
    it("outlines a TypeScript file's class with its methods, functions and exports", () => {
      const text = runs.explain.text;
      assert.match(text, /^- class `Cart` \(line 7, exported\) — methods: `add` \(line 10\), `total` \(line 15\)$/m);
      assert.match(text, /^- interface `Item` \(line 2, exported\)$/m);
      assert.match(text, /^- `addItem` \(line 20, exported\)$/m);
      assert.match(text, /^- `formatPrice` \(line 25, exported\)$/m);
      assert.match(text, /^\*\*Exports:\*\* `Item`, `Cart`, `addItem`, `formatPrice`$/m);
    });

    it("quotes the comment the file begins with", () => {
      assert.match(runs.explain.text, /^> The shopping cart: items, quantities and the total\.$/m);
    });

    it("finds a file by its name alone and outlines Python classes and functions", () => {
      const text = runs.explainPython.text;
      assert.match(text, /^## `tools\/report\.py`$/m);
      assert.match(text, /^- class `Report` \(line 4, exported\) — methods: `__init__` \(line 5\), `render` \(line 8\)$/m);
      assert.match(text, /^- `main` \(line 13, exported\)$/m);
    });

    it("reports a broken symlink as a failed ReadFile card and says so, without crashing", () => {
      const run = runs.brokenLink;
      assert.deepEqual(failedTools(run), [{ tool: "ReadFile", error: "src/broken.ts is a broken symbolic link: its target missing-target.ts does not exist" }]);
      assert.match(run.text, /I couldn't read this file: src\/broken\.ts is a broken symbolic link/);
    });

    it("reports a folder named like a file as a failed ReadFile card", () => {
      assert.deepEqual(failedTools(runs.folder), [{ tool: "ReadFile", error: "notes.md is a folder, not a file" }]);
      assert.match(runs.folder.text, /I couldn't read this file: notes\.md is a folder, not a file/);
    });
  });

  describe("list TODO and FIXME comments", () => {
    it("lists each marker with file and line, and nothing from hidden files", () => {
      const items = runs.todos.text.split("\n").filter((l) => l.startsWith("- `"));
      assert.deepEqual(items, [
        "- `src/cart.ts:11` — **TODO** merge duplicate items",
        "- `src/index.ts:3` — **FIXME** read the prices from a file",
        "- `tools/report.py:9` — **TODO** add CSV output",
      ]);
    });

    it("counts them by kind", () => {
      assert.match(runs.todos.text, /3 markers: 2 TODOs and 1 FIXME in 3 files\./);
    });
  });

  describe("a request it does not understand", () => {
    it("says plainly what it can do, and uses no tools", () => {
      const run = runs.unknown;
      assert.match(run.text, /didn't recognise `what's the weather like tomorrow\?`/);
      for (const ability of ["Summarise the workspace", "Find text", "Explain a file", "List TODO and FIXME comments"]) assert.ok(run.text.includes(ability), ability);
      assert.deepEqual(doneOf(run).toolsUsed, []);
    });
  });

  describe("pace", () => {
    it("streams the answer in deltas of at most three words", () => {
      const deltas = ofType(runs.summary.events, "text_delta").map((e) => e.payload.content);
      assert.ok(deltas.length > 20);
      for (const delta of deltas) assert.ok(delta.trim().split(/\s+/).length <= 3, JSON.stringify(delta));
    });

    it("waits the configured delay between deltas", async () => {
      const run = await ask(PROMPTS.unknown, workspace.root, 20);
      const times = ofType(run.events, "text_delta").map((e) => e.timestamp);
      // Timestamps are whole milliseconds, so each gap may read up to 1 ms short.
      assert.ok(times[times.length - 1] - times[0] >= (times.length - 1) * 19, `${times.length} deltas in ${times[times.length - 1] - times[0]} ms`);
      assert.equal(run.text, runs.unknown.text);
    });
  });

  describe("interruption", () => {
    it("answers SIGINT mid-answer with error then done (exit code 1), exits 1 at once, and stays valid", async () => {
      const run = await interrupt(workspace.root, ["SIGINT"]);
      assert.equal(run.code, 1);
      assert.deepEqual(run.events.slice(-2).map((e) => e.type), ["error", "done"]);
      assert.deepEqual((run.events[run.events.length - 2] as EventOfType<"error">).payload.error, { code: "UNKNOWN", message: "interrupted by SIGINT", recoverable: false });
      assert.deepEqual({ ...doneOf(run), duration: 0 }, { exitCode: 1, duration: 0, toolsUsed: ["ListFiles", "ReadFile"], success: false });
      assert.ok(run.text.length > 0 && run.text.length < runs.summary.text.length, "stopped part-way through the answer");
      assert.ok(run.exitMs < 5000, `exited ${Math.round(run.exitMs)} ms after the signal: a pending delay held it`);
      const result = await check(run.stdout);
      assert.equal(result.stdout, "");
      assert.equal(result.code, 0);
    });

    it("answers SIGTERM the same way", async () => {
      const run = await interrupt(workspace.root, ["SIGTERM"]);
      assert.equal(run.code, 1);
      assert.equal((run.events[run.events.length - 2] as EventOfType<"error">).payload.error.message, "interrupted by SIGTERM");
      assert.equal(doneOf(run).exitCode, 1);
    });

    it("writes one error and one done when both signals arrive", async () => {
      const run = await interrupt(workspace.root, ["SIGINT", "SIGTERM", "SIGINT"]);
      assert.equal(run.code, 1);
      assert.equal(ofType(run.events, "error").length, 1);
      assert.equal(ofType(run.events, "done").length, 1);
      assert.equal(run.events[run.events.length - 1].type, "done");
    });
  });

  describe("command line", () => {
    it("treats everything after -- as the prompt, even when it looks like an option", async () => {
      const run = await ask("--help", workspace.root);
      assert.equal(run.code, 0);
      assert.match(run.text, /didn't recognise `--help`/);
    });

    it("exits 2 with usage on stderr and nothing on stdout when there is no prompt", async () => {
      const result = await finish(startAgent(["exec", "--json-stream"], workspace.root, 0));
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /builtin-agent: no prompt given/);
      assert.match(result.stderr, /Usage: builtin-agent exec --json-stream \[--\] <prompt>/);
    });

    it("exits 2 without --json-stream", async () => {
      const result = await finish(startAgent(["exec", "hello"], workspace.root, 0));
      assert.equal(result.code, 2);
      assert.match(result.stderr, /only --json-stream output is supported/);
    });

    it("exits 2 for an unknown option", async () => {
      const result = await finish(startAgent(["exec", "--json-stream", "--model", "x", "hello"], workspace.root, 0));
      assert.equal(result.code, 2);
      assert.match(result.stderr, /unknown option "--model"/);
    });

    it("exits 2 for a delay that is not a whole number of milliseconds", async () => {
      const child = spawn(process.execPath, [AGENT, "exec", "--json-stream", "hi"], {
        cwd: workspace.root,
        env: { ...process.env, AGENT_STREAM_BUILTIN_DELAY_MS: "fast" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const result = await finish(child);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /AGENT_STREAM_BUILTIN_DELAY_MS must be a non-negative integer, got "fast"/);
    });
  });

  describe("through agent-stream run, the extension's process manager", () => {
    it("runs to a completed session that exits 0 and passes check", async () => {
      const child = spawn(process.execPath, [CLI, "run", "--json", "--", process.execPath, AGENT, "exec", "--json-stream", "--", PROMPTS.summary], {
        cwd: workspace.root,
        env: { ...process.env, AGENT_STREAM_BUILTIN_DELAY_MS: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const result = await finish(child);
      assert.equal(result.code, 0, result.stderr);
      assert.match(answerOf(decode(result.stdout)), /Sample Shop sells imaginary socks/);
      const checked = await check(result.stdout);
      assert.equal(checked.stdout, "");
      assert.equal(checked.code, 0);
    });
  });

  // Last, after every run above.
  describe("the workspace", () => {
    it("is byte-for-byte unchanged after every run", () => {
      assert.equal(treeFingerprint(workspace.root), fingerprintBefore);
    });
  });
});
