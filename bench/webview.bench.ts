// What streaming a long answer costs the chat webview in real Chromium (the harness page with its CSP, the
// production bundle), against a baseline measured in the same run: the same host messages at the same pace, taken
// by a few lines that append each delta as plain text nodes. Issue targets: main-thread total <= 2x the baseline;
// no task over 50 ms while streaming 1,000 deltas/s; the cost of a delta does not grow with the answer (the last
// 1,000 deltas against the first 1,000). A benchmark, not a test: it prints, and fails only if it cannot measure.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CDPSession, Page } from "playwright-core";
import type { SessionChange, Turn } from "../src/protocol/messages";
import { Session } from "../src/session/session";
import { repoRoot } from "../test/helpers/repo";
import * as cli from "../test/helpers/stream-builder";
import { closeSharedBrowser, getSharedBrowser, WebviewHarness, type TestHostMessage, TEST_SESSION_ID } from "../test/helpers/webview-harness";
import { makeAnswer, random, splitIntoDeltas, WORDS, type Answer } from "./long-answer";
import { mainThreadTasks } from "./main-thread-tasks";

const DELTA_COUNT = 10_000;
/** The model's pace: one delta a millisecond. */
const DELTAS_PER_SECOND = 1_000;
/** The host sends the changes of one 16 ms frame in one message (BATCH_MS in src/panel/conversation.ts). */
const BATCH_MS = 16;
/** Per-delta cost is measured over windows of this many deltas. */
const WINDOW_DELTAS = 1_000;
/** A second answer: one long file in one fenced block, the open block growing as it streams. */
const LONG_FILE_LINES = 1_500;
const LONG_FILE_DELTA_CHARS = 16;
const LONG_FILE_WINDOW_DELTAS = 500;
const LONG_FILE_ROUNDS = 2;
const ROUNDS = 3;
/** The isolated measure: this many frames that each show one delta, early in the answer and late. */
const PROBE_DELTAS = 120;
const PROBE_REPEATS = 2;
const LONG_TASK_MS = 50;
const TARGET_RATIO = 2;
/** "Does not grow": the last window may cost at most this much more per delta than the first. */
const TARGET_GROWTH = 1.25;
const TURN_ID = 0;

type Side = "webview" | "baseline" | "single-pre";

// ---- the answer -------------------------------------------------------------------------------------------

/** An answer that is mostly one long file: the segmenter cannot cut inside a fenced block. */
function makeLongFileAnswer(): Answer {
  const next = random(0xf11e);
  const lines: string[] = [];
  for (let i = 0; i < LONG_FILE_LINES; i++) {
    const indent = "  ".repeat(Math.floor(next() * 3));
    lines.push(`${indent}export const ${WORDS[Math.floor(next() * WORDS.length)]}${i} = await load(${i}, "${WORDS[Math.floor(next() * WORDS.length)]}");`);
  }
  const body = lines.join("\n") + "\n";
  const lastLine = "That is the whole file.";
  return { markdown: "Here is the whole file:\n\n```ts\n" + body + "```\n\n" + lastLine + "\n", codeBlocks: [body], lastLine };
}

// ---- what the host posts, and when --------------------------------------------------------------------------

interface TimedMessage {
  /** When the host posts it, in ms from the turn's start. */
  at: number;
  message: TestHostMessage;
  /** How many text deltas it carries. */
  deltas: number;
}

/** A real Session turns the CLI's events into changes; the host's batching groups them into one message a frame. */
function hostMessages(deltas: readonly string[]): { schedule: TimedMessage[]; finalTurn: Turn } {
  const turn: Turn = { id: TURN_ID, prompt: "Explain the token refresh bug", agent: "Locus", state: "idle", blocks: [], problems: [], done: null, status: null, context: null, origin: "prompt" };
  let changes: SessionChange[] = [];
  const session = new Session({ dialect: "locus", now: () => cli.T0, onChange: (change) => changes.push(change) });
  const schedule: TimedMessage[] = [{ at: 0, message: { type: "turn-started", sessionId: TEST_SESSION_ID, turn: structuredClone(turn) }, deltas: 0 }];
  let pending: { at: number; changes: SessionChange[]; deltas: number } | undefined;
  const flush = () => {
    if (pending === undefined) return;
    schedule.push({ at: pending.at, message: { type: "changes", sessionId: TEST_SESSION_ID, turnId: TURN_ID, changes: pending.changes }, deltas: pending.deltas });
    pending = undefined;
  };
  const accept = (event: Parameters<Session["acceptEvent"]>[0], at: number, isDelta: boolean) => {
    changes = [];
    session.acceptEvent(event, null);
    if (pending !== undefined && at >= pending.at) flush();
    pending ??= { at: (Math.floor(at / BATCH_MS) + 1) * BATCH_MS, changes: [], deltas: 0 };
    pending.changes.push(...changes);
    if (isDelta) pending.deltas++;
  };
  const msPerDelta = 1000 / DELTAS_PER_SECOND;
  session.begin();
  accept(cli.start(), 0, false);
  deltas.forEach((delta, i) => accept(cli.textDelta(delta), i * msPerDelta, true));
  accept(cli.event("done", { exitCode: 0, duration: deltas.length * msPerDelta, toolsUsed: [], success: true }), deltas.length * msPerDelta, false);
  // The host flushes at once on `done`.
  if (pending !== undefined) pending.at = deltas.length * msPerDelta;
  flush();
  const finalTurn: Turn = { ...turn, state: session.state, blocks: session.blocks, problems: [...session.problems], done: session.done, status: session.finalStatus };
  if (session.problems.length > 0) throw new Error(`bench stream has problems: ${session.problems[0].message}`);
  return { schedule, finalTurn };
}

/** The baseline gets the same messages under a type the webview ignores, so only the baseline consumer acts on them. */
function asBaseline(schedule: readonly TimedMessage[]): TimedMessage[] {
  return schedule.map((item) => ({ ...item, message: { ...item.message, type: `bench-${item.message.type}` } as unknown as TestHostMessage }));
}

interface StreamWindow {
  /** Messages [from, to) of the schedule. */
  from: number;
  to: number;
  deltas: number;
}

/** Windows of `size` deltas (give or take a message); the closing `done` joins the last. */
function windowsOf(schedule: readonly TimedMessage[], size: number): StreamWindow[] {
  const count = sum(schedule.map((item) => item.deltas));
  const windows: StreamWindow[] = [];
  let current: StreamWindow = { from: 0, to: 0, deltas: 0 };
  let total = 0;
  schedule.forEach((item, i) => {
    current.to = i + 1;
    current.deltas += item.deltas;
    total += item.deltas;
    if (total >= size * (windows.length + 1) && total < count) {
      windows.push(current);
      current = { from: i + 1, to: i + 1, deltas: 0 };
    }
  });
  windows.push(current);
  return windows;
}

// ---- in the page ------------------------------------------------------------------------------------------

/**
 * Plays the schedule from inside the page (no round trip per message): a setTimeout loop posts each message when
 * it is due, with window.postMessage, as VS Code delivers the host's messages. `play` resolves once the last
 * message was handled and two more frames have painted. A string: the root tsconfig has no DOM types.
 */
const DRIVER_SCRIPT = `(() => {
  const w = window;
  const bench = { schedule: [], longTasks: [] };
  w.__bench = bench;
  bench.load = (schedule) => { bench.schedule = schedule; };
  bench.observeLongTasks = () => {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
  };
  // The baseline: each delta's text goes in as plain text nodes, in <pre> blocks kept in view once a frame.
  // "paragraphs" starts a new <pre> after each blank line, as any page of text has blocks; "single-pre" keeps
  // everything in one, which Chromium lays out again whole on every frame.
  bench.installBaseline = (blocks) => {
    const transcript = document.querySelector(".transcript");
    let pre = null;
    const newBlock = () => {
      pre = document.createElement("pre");
      pre.className = "bench-baseline";
      pre.style.whiteSpace = "pre-wrap";
      pre.style.overflowWrap = "anywhere";
      transcript.append(pre);
    };
    newBlock();
    let endsWithNewline = false;
    const append = (text) => {
      if (text.length === 0) return;
      let rest = text;
      if (blocks === "paragraphs") {
        if (endsWithNewline && rest[0] === "\\n") {
          pre.append(document.createTextNode("\\n"));
          newBlock();
          rest = rest.slice(1);
        }
        for (let cut = rest.indexOf("\\n\\n"); cut !== -1; cut = rest.indexOf("\\n\\n")) {
          pre.append(document.createTextNode(rest.slice(0, cut + 2)));
          newBlock();
          rest = rest.slice(cut + 2);
        }
      }
      if (rest.length > 0) pre.append(document.createTextNode(rest));
      endsWithNewline = text.endsWith("\\n");
    };
    let frame = 0;
    const follow = () => { frame = 0; transcript.scrollTop = transcript.scrollHeight; };
    w.addEventListener("message", (event) => {
      const data = event.data;
      if (data === null || typeof data !== "object" || data.type !== "bench-changes") return;
      for (const change of data.changes) {
        if (change.kind === "block-added" && change.block.kind === "text") append(change.block.text);
        else if (change.kind === "text-appended") append(change.text);
      }
      frame ||= requestAnimationFrame(follow);
    });
  };
  // One message a frame: each frame shows exactly one delta, however busy the page is.
  bench.probe = (messages) => new Promise((resolve) => {
    let next = 0;
    const step = () => {
      if (next < messages.length) {
        w.postMessage(messages[next++], "*");
        requestAnimationFrame(step);
      } else requestAnimationFrame(() => requestAnimationFrame(resolve));
    };
    requestAnimationFrame(step);
  });
  bench.play = (from, to) => new Promise((resolve) => {
    const list = bench.schedule;
    const offset = list[from].at;
    const started = performance.now();
    let next = from;
    let maxLateMs = 0;
    const onEnd = (event) => {
      if (event.data !== "bench-end") return;
      w.removeEventListener("message", onEnd);
      const handled = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve({ elapsedMs: handled - started, maxLateMs })));
    };
    w.addEventListener("message", onEnd);
    const tick = () => {
      const now = performance.now() - started;
      while (next < to && list[next].at - offset <= now) {
        maxLateMs = Math.max(maxLateMs, now - (list[next].at - offset));
        w.postMessage(list[next++].message, "*");
      }
      if (next < to) setTimeout(tick, Math.max(0, list[next].at - offset - (performance.now() - started)));
      // Messages are handled in order: when this one arrives, all before it were.
      else w.postMessage("bench-end", "*");
    };
    tick();
  });
})()`;

interface BenchPage {
  __bench: {
    load(schedule: readonly TimedMessage[]): void;
    observeLongTasks(): void;
    installBaseline(blocks: "paragraphs" | "single-pre"): void;
    play(from: number, to: number): Promise<{ elapsedMs: number; maxLateMs: number }>;
    probe(messages: readonly unknown[]): Promise<void>;
    longTasks: number[];
  };
}

// ---- measuring ---------------------------------------------------------------------------------------------

/**
 * The renderer's own account of its main thread (Performance.getMetrics), in ms: "cpu" counts the thread's CPU
 * time (threadTicks), "wall" the tasks' elapsed time (timeTicks), which on a busy two-core machine also counts the
 * time the thread waited for a core.
 */
interface Metrics {
  cpu: number;
  wall: number;
  script: number;
  layout: number;
  style: number;
  /** How many layouts ran: about one a frame. A starved main thread renders fewer frames, each doing more. */
  layouts: number;
}

const ZERO: Metrics = { cpu: 0, wall: 0, script: 0, layout: 0, style: 0, layouts: 0 };

class MainThreadMeter {
  private constructor(
    private readonly cpuSession: CDPSession,
    private readonly wallSession: CDPSession,
  ) {}

  static async attach(page: Page): Promise<MainThreadMeter> {
    const cpuSession = await page.context().newCDPSession(page);
    const wallSession = await page.context().newCDPSession(page);
    await cpuSession.send("Performance.enable", { timeDomain: "threadTicks" });
    await wallSession.send("Performance.enable", { timeDomain: "timeTicks" });
    return new MainThreadMeter(cpuSession, wallSession);
  }

  async read(): Promise<Metrics> {
    const [cpu, wall] = await Promise.all([this.cpuSession.send("Performance.getMetrics"), this.wallSession.send("Performance.getMetrics")]);
    const value = (list: { name: string; value: number }[], name: string) => (list.find((metric) => metric.name === name)?.value ?? NaN) * 1000;
    return {
      cpu: value(cpu.metrics, "TaskDuration"),
      wall: value(wall.metrics, "TaskDuration"),
      script: value(cpu.metrics, "ScriptDuration"),
      layout: value(cpu.metrics, "LayoutDuration"),
      style: value(cpu.metrics, "RecalcStyleDuration"),
      layouts: value(cpu.metrics, "LayoutCount") / 1000,
    };
  }
}

function combine(a: Metrics, b: Metrics, sign: 1 | -1): Metrics {
  const values = { ...ZERO };
  for (const key of Object.keys(ZERO) as (keyof Metrics)[]) values[key] = a[key] + sign * b[key];
  return values;
}

interface Run {
  side: Side;
  /** Main-thread time of each window. */
  windows: Metrics[];
  total: Metrics;
  /** Tasks of 50 ms or more (PerformanceObserver "longtask": elapsed time). */
  longTasks: number[];
  elapsedMs: number;
  maxLateMs: number;
  trace?: TaskSummary;
}

interface Workload {
  answer: Answer;
  deltaCount: number;
  windowDeltas: number;
  schedules: Record<"webview" | "baseline", TimedMessage[]>;
  windows: StreamWindow[];
  finalTurn: Turn;
  deltas: string[];
}

/** One fresh load of the harness page, the whole answer streamed into it, window by window. */
async function runOnce(work: Workload, side: Side, options: { trace?: boolean; verify?: boolean } = {}): Promise<Run> {
  const harness = await WebviewHarness.open();
  try {
    const { page } = harness;
    const meter = await MainThreadMeter.attach(page);
    await page.evaluate(DRIVER_SCRIPT);
    await page.evaluate((schedule) => (globalThis as unknown as BenchPage).__bench.load(schedule), work.schedules[side === "webview" ? "webview" : "baseline"]);
    if (side !== "webview") {
      const blocks: "paragraphs" | "single-pre" = side === "baseline" ? "paragraphs" : "single-pre";
      await page.evaluate((how) => (globalThis as unknown as BenchPage).__bench.installBaseline(how), blocks);
    }
    await page.evaluate(() => (globalThis as unknown as BenchPage).__bench.observeLongTasks());
    await harness.frames(2);

    const browser = await getSharedBrowser();
    // "toplevel" alone: one event per task, with its CPU time, and little overhead.
    if (options.trace === true) await browser.startTracing(page, { categories: ["toplevel"] });
    const windows: Metrics[] = [];
    let elapsedMs = 0;
    let maxLateMs = 0;
    for (const window of work.windows) {
      const before = await meter.read();
      const played = await page.evaluate(([from, to]) => (globalThis as unknown as BenchPage).__bench.play(from, to), [window.from, window.to] as const);
      windows.push(combine(await meter.read(), before, -1));
      elapsedMs += played.elapsedMs;
      maxLateMs = Math.max(maxLateMs, played.maxLateMs);
    }
    const trace = options.trace === true ? summarizeTasks(await browser.stopTracing()) : undefined;
    const longTasks = await page.evaluate(() => (globalThis as unknown as BenchPage).__bench.longTasks);
    await check(page, side, work, options.verify === true);
    return { side, windows, total: windows.reduce((all, window) => combine(all, window, 1), ZERO), longTasks, elapsedMs, maxLateMs, trace };
  } finally {
    await harness.close();
  }
}

/**
 * The cost of a frame that shows one delta, with the answer's first `shown` deltas already on screen (put there
 * at once: a snapshot for the webview, one message for the baseline). At 1,000 deltas/s a page that falls behind
 * paints fewer frames with more deltas each, which hides growth from a per-delta average; this does not.
 */
async function probeOnce(work: Workload, side: "webview" | "baseline", shown: number): Promise<Metrics> {
  const harness = await WebviewHarness.open();
  try {
    const { page } = harness;
    const meter = await MainThreadMeter.attach(page);
    await page.evaluate(DRIVER_SCRIPT);
    const prefix = work.deltas.slice(0, shown).join("");
    const probe = work.deltas.slice(shown, shown + PROBE_DELTAS);
    if (side === "webview") {
      const turn: Turn = { ...work.finalTurn, state: "streaming", blocks: [{ kind: "text", text: prefix }], done: null, status: null };
      await harness.send({ type: "snapshot", turns: [turn], restriction: null });
    } else {
      await page.evaluate(() => (globalThis as unknown as BenchPage).__bench.installBaseline("paragraphs"));
      await page.evaluate((text) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage({ type: "bench-changes", changes: [{ kind: "text-appended", index: 0, text }] }, "*"), prefix);
    }
    await harness.frames(3);
    const type = side === "webview" ? "changes" : "bench-changes";
    const messages = probe.map((text) => ({ type, sessionId: TEST_SESSION_ID, turnId: TURN_ID, changes: [{ kind: "text-appended", index: 0, text }] }));
    const before = await meter.read();
    await page.evaluate((list) => (globalThis as unknown as BenchPage).__bench.probe(list), messages);
    const cost = combine(await meter.read(), before, -1);
    return { ...cost, cpu: cost.cpu / probe.length, wall: cost.wall / probe.length, layouts: cost.layouts / probe.length };
  } finally {
    await harness.close();
  }
}

interface Probe {
  /** Deltas on screen before the probe, early and late. */
  early: number;
  late: number;
  /** Main-thread cpu ms per one-delta frame (best of the repeats: noise only adds). */
  cpu: Record<"webview" | "baseline", { early: number; late: number }>;
}

async function probeGrowth(work: Workload, early: number): Promise<Probe> {
  const late = work.deltaCount - PROBE_DELTAS;
  const samples: Record<string, number[]> = {};
  for (let repeat = 0; repeat < PROBE_REPEATS; repeat++) {
    for (const side of ["webview", "baseline"] as const) {
      for (const [name, shown] of [["early", early], ["late", late]] as const) {
        const cost = await probeOnce(work, side, shown);
        (samples[`${side} ${name}`] ??= []).push(cost.cpu);
      }
    }
  }
  const best = (key: string) => Math.min(...samples[key]);
  return {
    early,
    late,
    cpu: {
      webview: { early: best("webview early"), late: best("webview late") },
      baseline: { early: best("baseline early"), late: best("baseline late") },
    },
  };
}

function printProbe(probe: Probe): number {
  const { webview, baseline } = probe.cpu;
  const growthOf = (side: { early: number; late: number }) => side.late / side.early;
  console.log(
    `  one delta a frame (${PROBE_DELTAS} frames), cpu ms per frame with ${probe.early.toLocaleString("en")} -> ${probe.late.toLocaleString("en")} deltas on screen: ` +
      `webview ${webview.early.toFixed(1)} -> ${webview.late.toFixed(1)} (x${growthOf(webview).toFixed(2)}), ` +
      `baseline ${baseline.early.toFixed(1)} -> ${baseline.late.toFixed(1)} (x${growthOf(baseline).toFixed(2)}); webview / baseline late: ${(webview.late / baseline.late).toFixed(2)}`,
  );
  return growthOf(webview);
}

interface TaskSummary {
  /** The longest task by elapsed time, and how much of it the thread was on a CPU. */
  longestWallMs: number;
  longestWallCpuMs: number;
  /** The task that used the most CPU. */
  longestCpuMs: number;
  tasks: number;
  over50WallMs: number;
  over50CpuMs: number;
}

/** The page's renderer main thread (the busiest one in the trace), task by task. */
function summarizeTasks(trace: Buffer): TaskSummary {
  const tasks = mainThreadTasks(trace);
  const longest = tasks.reduce((a, b) => (b.wall > a.wall ? b : a));
  return {
    longestWallMs: longest.wall,
    longestWallCpuMs: longest.cpu,
    longestCpuMs: Math.max(...tasks.map((task) => task.cpu)),
    tasks: tasks.length,
    over50WallMs: tasks.filter((task) => task.wall > LONG_TASK_MS).length,
    over50CpuMs: tasks.filter((task) => task.cpu > LONG_TASK_MS).length,
  };
}

// ---- checking that the whole answer was shown ----------------------------------------------------------------

/** The little of the DOM the checks read (the root tsconfig has no DOM types). */
interface QueryRoot {
  querySelector(selector: string): { textContent: string | null; innerHTML: string } | null;
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** A run counts only if the page shows the whole answer: every delta, every code block, the last line. */
async function check(page: Page, side: Side, work: Workload, thorough: boolean): Promise<void> {
  const { answer } = work;
  if (side !== "webview") {
    const text = await page.evaluate(() =>
      Array.from((globalThis as unknown as { document: QueryRoot }).document.querySelectorAll("pre.bench-baseline"), (pre) => pre.textContent ?? "").join(""),
    );
    if (text !== answer.markdown) throw new Error(`${side} shows ${text.length} of ${answer.markdown.length} characters`);
    return;
  }
  const shown = await page.evaluate((withHtml) => {
    const doc = (globalThis as unknown as { document: QueryRoot }).document;
    const answerText = doc.querySelector(".turn .answer-text");
    return {
      text: answerText?.textContent ?? "",
      code: Array.from(doc.querySelectorAll(".turn .answer-text .code-block pre > code"), (code) => code.textContent ?? ""),
      footer: doc.querySelector(".turn .turn-footer") !== null,
      html: withHtml ? (answerText?.innerHTML ?? "") : "",
    };
  }, thorough);
  if (shown.code.length !== answer.codeBlocks.length) throw new Error(`webview shows ${shown.code.length} code blocks of ${answer.codeBlocks.length}`);
  const wrong = shown.code.findIndex((code, i) => code !== answer.codeBlocks[i]);
  if (wrong !== -1) throw new Error(`code block ${wrong} differs from the answer's`);
  if (!shown.text.trimEnd().endsWith(answer.lastLine)) throw new Error("the answer's last line is not shown last");
  if (!shown.footer) throw new Error("the turn did not end (no footer)");
  if (!thorough) return;
  // Streamed, or replayed at once from a snapshot, the answer must render the same.
  const replay = await WebviewHarness.open();
  try {
    await replay.send({ type: "snapshot", turns: [work.finalTurn], restriction: null });
    await replay.frames(2);
    const html = await replay.page.evaluate(() => (globalThis as unknown as { document: QueryRoot }).document.querySelector(".turn .answer-text")?.innerHTML ?? "");
    if (html !== shown.html) throw new Error("the streamed answer's DOM differs from the same answer rendered at once");
  } finally {
    await replay.close();
  }
}

/** The harness serves dist/ from disk on every load: a rebuild during the run would mix two webviews. */
function bundleHash(): string {
  return createHash("sha256").update(fs.readFileSync(path.join(repoRoot, "dist", "webview.js"))).digest("hex");
}

// ---- report -------------------------------------------------------------------------------------------------

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const verdict = (met: boolean) => (met ? "met" : "NOT met");
const fixed = (value: number, width: number, digits = 0) => value.toFixed(digits).padStart(width);

/** µs of main-thread CPU per delta in each window, median over the runs. */
function perDeltaProfile(runs: readonly Run[], windows: readonly StreamWindow[]): number[] {
  return windows.map((window, i) => (median(runs.map((run) => run.windows[i].cpu)) / window.deltas) * 1000);
}

/** Per-delta CPU of the last window over the first's, median over the runs. */
function growth(runs: readonly Run[], windows: readonly StreamWindow[]): number {
  return median(runs.map((run) => run.windows.at(-1)!.cpu / windows.at(-1)!.deltas / (run.windows[0].cpu / windows[0].deltas)));
}

const LABELS: Record<Side, string> = {
  webview: "webview (markdown view)",
  baseline: "baseline (text nodes, a <pre> per paragraph)",
  "single-pre": "baseline as one <pre> (1 run, reference)",
};

function report(work: Workload, timed: Record<Side, Run[]>, traced: Record<"webview" | "baseline", Run>, probe: Probe): void {
  const { answer, windows } = work;
  const codeShare = sum(answer.codeBlocks.map((code) => code.length)) / answer.markdown.length;
  console.log(
    `answer: ${answer.markdown.length.toLocaleString("en")} chars of markdown, ${answer.codeBlocks.length} fenced code blocks (${(codeShare * 100).toFixed(0)}% of the text), ` +
      `${DELTA_COUNT.toLocaleString("en")} deltas (${countSplitFences(work)} cut inside a fence marker); ` +
      `${work.schedules.webview.length} host messages, one per ${BATCH_MS} ms at ${DELTAS_PER_SECOND.toLocaleString("en")} deltas/s`,
  );
  console.log(`${ROUNDS} timed runs per side, interleaved ABBA, each a fresh page load; first one traced run per side (it also warms up the browser)`);
  console.log("cpu: the renderer main thread's CPU time (Performance.getMetrics, threadTicks); elapsed: the same tasks' wall time, which on a busy machine includes waiting for a core");
  console.log("checked: every run shows the whole answer (code blocks byte for byte, last line, footer); streamed DOM == the same answer rendered from a snapshot");
  console.log("");

  const sides = (["webview", "baseline", "single-pre"] as const).filter((side) => timed[side].length > 0);
  const cpu = (side: Side) => timed[side].map((run) => run.total.cpu);
  const wall = (side: Side) => timed[side].map((run) => run.total.wall);
  const layouts = (side: Side) => median(timed[side].map((run) => run.total.layouts));
  console.log("main-thread time while streaming, ms                    cpu best  cpu median   elapsed med.  layouts (~frames)  cpu per run");
  for (const side of sides) {
    console.log(`  ${LABELS[side].padEnd(52)}${fixed(Math.min(...cpu(side)), 9)}  ${fixed(median(cpu(side)), 10)}   ${fixed(median(wall(side)), 11)}   ${fixed(layouts(side), 16)}   ${cpu(side).map((v) => v.toFixed(0)).join(", ")}`);
  }
  for (const side of sides) {
    const run = [...timed[side]].sort((a, b) => a.total.cpu - b.total.cpu)[Math.floor(timed[side].length / 2)];
    const { cpu: all, script, layout, style } = run.total;
    console.log(`    ${side}: script ${script.toFixed(0)}, layout ${layout.toFixed(0)}, style ${style.toFixed(0)}, rest (paint, compositing inputs, commit, GC, messages) ${(all - script - layout - style).toFixed(0)} ms cpu`);
  }
  const ratio = median(cpu("webview")) / median(cpu("baseline"));
  console.log(`  ratio webview / baseline: ${ratio.toFixed(2)} cpu median, ${(Math.min(...cpu("webview")) / Math.min(...cpu("baseline"))).toFixed(2)} cpu best, ${(median(wall("webview")) / median(wall("baseline"))).toFixed(2)} elapsed median  (target <= ${TARGET_RATIO.toFixed(1)}: ${verdict(ratio <= TARGET_RATIO)})`);
  if (timed["single-pre"].length > 0) console.log(`  ratio webview / one-<pre> baseline: ${(median(cpu("webview")) / median(cpu("single-pre"))).toFixed(2)} cpu (reference only: see the growth below)`);
  console.log("");

  console.log("longest main-thread task while streaming                      webview     baseline");
  const longest = (side: Side) => Math.max(0, ...timed[side].flatMap((run) => run.longTasks));
  const longCount = (side: Side) => sum(timed[side].map((run) => run.longTasks.length));
  const described = (side: Side) => (longCount(side) === 0 ? "none" : `${longest(side).toFixed(0)} ms x${longCount(side)}`);
  console.log(`  timed runs, "longtask" entries (elapsed >= 50 ms)        ${described("webview").padStart(12)} ${described("baseline").padStart(12)}`);
  const t = { webview: traced.webview.trace!, baseline: traced.baseline.trace! };
  const pair = (s: TaskSummary) => `${s.longestWallMs.toFixed(0)} (${s.longestWallCpuMs.toFixed(0)} cpu)`;
  console.log(`  traced run, longest task elapsed ms (its cpu ms)         ${pair(t.webview).padStart(12)} ${pair(t.baseline).padStart(12)}`);
  console.log(`  traced run, most cpu in one task, ms                     ${fixed(t.webview.longestCpuMs, 12)} ${fixed(t.baseline.longestCpuMs, 12)}`);
  console.log(`  traced run, tasks over 50 ms elapsed / over 50 ms cpu    ${`${t.webview.over50WallMs} / ${t.webview.over50CpuMs}`.padStart(12)} ${`${t.baseline.over50WallMs} / ${t.baseline.over50CpuMs}`.padStart(12)}   (of ${t.webview.tasks} / ${t.baseline.tasks} tasks)`);
  const webviewLongest = Math.max(longest("webview"), t.webview.longestWallMs);
  console.log(`  webview, no task over ${LONG_TASK_MS} ms elapsed: ${verdict(webviewLongest <= LONG_TASK_MS)} (longest ${webviewLongest.toFixed(0)} ms); on cpu time alone: ${verdict(t.webview.longestCpuMs <= LONG_TASK_MS)} (longest ${t.webview.longestCpuMs.toFixed(0)} ms)`);
  const pace = (side: Side) => median(timed[side].map((run) => work.deltaCount / (run.elapsedMs / 1000)));
  const late = (side: Side) => Math.max(...timed[side].map((run) => run.maxLateMs));
  console.log(`  pace kept: webview ${pace("webview").toFixed(0)} deltas/s (a message at most ${late("webview").toFixed(0)} ms late), baseline ${pace("baseline").toFixed(0)} deltas/s (${late("baseline").toFixed(0)} ms late)`);
  console.log("");

  console.log(`main-thread cpu per delta, µs, by window of ${WINDOW_DELTAS.toLocaleString("en")} deltas (median of runs)`);
  console.log(`  window${" ".repeat(40)}${windows.map((_, i) => String(i + 1).padStart(6)).join("")}    last/first`);
  for (const side of sides) {
    const profile = perDeltaProfile(timed[side], windows);
    console.log(`  ${LABELS[side].padEnd(44)}${profile.map((v) => fixed(v, 6)).join("")}    ${growth(timed[side], windows).toFixed(2)}`);
  }
  printPerFrame(timed, sides, windows);
  const isolated = printProbe(probe);
  const webviewGrowth = growth(timed.webview, windows);
  console.log(
    `  webview, cost per delta does not grow (last / first <= ${TARGET_GROWTH}): at 1,000 deltas/s ${verdict(webviewGrowth <= TARGET_GROWTH)} (${webviewGrowth.toFixed(2)}); ` +
      `one delta a frame ${verdict(isolated <= TARGET_GROWTH)} (${isolated.toFixed(2)})`,
  );
}

/** The same per layout (about per frame): steadier when a loaded machine renders fewer, fuller frames. */
function printPerFrame(runs: Record<Side, Run[]>, sides: readonly Side[], windows: readonly StreamWindow[]): void {
  const perLayout = (run: Run, i: number) => run.windows[i].cpu / Math.max(1, run.windows[i].layouts);
  const last = windows.length - 1;
  const parts = sides.map((side) => {
    const first = median(runs[side].map((run) => perLayout(run, 0)));
    const end = median(runs[side].map((run) => perLayout(run, last)));
    return `${side} ${first.toFixed(1)} -> ${end.toFixed(1)} (x${(end / first).toFixed(2)})`;
  });
  console.log(`  cpu ms per layout, first -> last window: ${parts.join(", ")}`);
}

function reportLongFile(work: Workload, runs: Record<Side, Run[]>, probe: Probe): void {
  const kib = (work.answer.markdown.length / 1024).toFixed(0);
  console.log(`one long file in one fenced block (${LONG_FILE_LINES.toLocaleString("en")} lines, ${kib} KiB, ${work.deltaCount.toLocaleString("en")} deltas at ${DELTAS_PER_SECOND.toLocaleString("en")}/s), ${LONG_FILE_ROUNDS} runs per side`);
  console.log(`main-thread cpu per delta, µs, by window of ${work.windowDeltas} deltas (median of runs)`);
  console.log(`  window${" ".repeat(40)}${work.windows.map((_, i) => String(i + 1).padStart(6)).join("")}    last/first`);
  for (const side of ["webview", "baseline"] as const) {
    const profile = perDeltaProfile(runs[side], work.windows);
    console.log(`  ${LABELS[side].padEnd(44)}${profile.map((v) => fixed(v, 6)).join("")}    ${growth(runs[side], work.windows).toFixed(2)}`);
  }
  printPerFrame(runs, ["webview", "baseline"], work.windows);
  const isolated = printProbe(probe);
  const webviewGrowth = growth(runs.webview, work.windows);
  const ratio = median(runs.webview.map((run) => run.total.cpu)) / median(runs.baseline.map((run) => run.total.cpu));
  const longTasks = runs.webview.flatMap((run) => run.longTasks);
  const described = longTasks.length === 0 ? "none" : `${longTasks.length}, the longest ${Math.max(...longTasks).toFixed(0)} ms`;
  console.log(`  webview / baseline cpu: ${ratio.toFixed(2)}; webview tasks >= ${LONG_TASK_MS} ms elapsed: ${described}`);
  console.log(
    `  webview, cost per delta does not grow inside an open code block (last / first <= ${TARGET_GROWTH}): at 1,000 deltas/s ${verdict(webviewGrowth <= TARGET_GROWTH)} (${webviewGrowth.toFixed(2)}); ` +
      `one delta a frame ${verdict(isolated <= TARGET_GROWTH)} (${isolated.toFixed(2)})`,
  );
}

function countSplitFences(work: Workload): number {
  const text = work.answer.markdown;
  let count = 0;
  let offset = 0;
  for (const item of work.schedules.webview) {
    if (item.message.type !== "changes") continue;
    for (const change of item.message.changes) {
      if (change.kind === "text-appended") offset += change.text.length;
      else if (change.kind === "block-added" && change.block.kind === "text") offset += change.block.text.length;
      else continue;
      // A cut between two backticks of a "```".
      if (text[offset - 1] === "`" && text[offset] === "`") count++;
    }
  }
  return count;
}

// ---- main ---------------------------------------------------------------------------------------------------

function makeWorkload(answer: Answer, deltaCount: number, windowDeltas: number): Workload {
  const deltas = splitIntoDeltas(answer.markdown, deltaCount);
  const { schedule, finalTurn } = hostMessages(deltas);
  const windows = windowsOf(schedule, windowDeltas);
  if (sum(windows.map((window) => window.deltas)) !== deltaCount) throw new Error("the windows lost deltas");
  return { answer, deltaCount, windowDeltas, schedules: { webview: schedule, baseline: asBaseline(schedule) }, windows, finalTurn, deltas };
}

/** Runs each side `rounds` times, ABBA, so a drift in the machine's load hits both alike. */
async function interleaved(work: Workload, sides: readonly [Side, Side], rounds: number): Promise<Record<Side, Run[]>> {
  const runs: Record<Side, Run[]> = { webview: [], baseline: [], "single-pre": [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [sides[1], sides[0]]) {
      const run = await runOnce(work, side);
      runs[side].push(run);
      process.stderr.write(`  run ${round + 1} ${side}: ${run.total.cpu.toFixed(0)} ms cpu, ${run.total.wall.toFixed(0)} ms elapsed\n`);
    }
  }
  return runs;
}

async function main(): Promise<void> {
  const answer = makeAnswer();
  const work = makeWorkload(answer, DELTA_COUNT, WINDOW_DELTAS);
  const longFileAnswer = makeLongFileAnswer();
  const longFile = makeWorkload(longFileAnswer, Math.round(longFileAnswer.markdown.length / LONG_FILE_DELTA_CHARS), LONG_FILE_WINDOW_DELTAS);
  const bundle = bundleHash();

  try {
    const traced = {
      webview: await runOnce(work, "webview", { trace: true, verify: true }),
      baseline: await runOnce(work, "baseline", { trace: true }),
    };
    const timed = await interleaved(work, ["webview", "baseline"], ROUNDS);
    timed["single-pre"].push(await runOnce(work, "single-pre"));
    const probe = await probeGrowth(work, WINDOW_DELTAS);
    report(work, timed, traced, probe);
    console.log("");
    await runOnce(longFile, "webview", { verify: true });
    const longFileRuns = await interleaved(longFile, ["webview", "baseline"], LONG_FILE_ROUNDS);
    reportLongFile(longFile, longFileRuns, await probeGrowth(longFile, LONG_FILE_WINDOW_DELTAS));
  } finally {
    await closeSharedBrowser();
  }
  if (bundleHash() !== bundle) console.log("\nWARNING: dist/webview.js changed during the run (rebuilt by someone else?): the numbers mix two builds; run again.");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
