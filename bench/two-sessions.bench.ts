// Two sessions streaming at once, each in its own chat webview (two pages of one Chromium, as two webviews are), each
// fed as the host feeds one: 1,000 deltas/s, the changes of each 16 ms in one `changes` message. Measured: the lag
// from a delta's arrival at the host to the frame that shows it (each delta is stamped with its arrival; the frame is
// the first animation frame after the view took its message, whose callback runs after the view's own paint
// callback), p50 / p99 / max, against a baseline in the same run: the same messages taken by a few lines that append
// each delta as plain text nodes. Issue target: the last delta on screen within 100 ms of its arrival. The host side
// of two sessions is not here: the pages are fed from inside themselves, on schedule. A benchmark, not a test.
import type { HostMessage, SessionChange, Turn } from "../src/protocol/messages";
import { Session } from "../src/session/session";
import * as cli from "../test/helpers/stream-builder";
import { closeSharedBrowser, TEST_SESSION_ID, WebviewHarness } from "../test/helpers/webview-harness";
import { makeAnswer, splitIntoDeltas } from "./long-answer";

const DELTA_COUNT = 10_000;
const DELTAS_PER_SECOND = 1_000;
/** The host sends the changes of one 16 ms frame in one message (BATCH_MS in src/panel/conversation.ts). */
const BATCH_MS = 16;
const PAGES = 2;
const ROUNDS = 2;
const TARGET_LAG_MS = 100;

type Side = "webview" | "baseline";

interface TimedMessage {
  /** When the host posts it, in ms from the turn's start. */
  at: number;
  message: HostMessage;
  /** When each delta it carries reached the host, in ms from the turn's start. */
  arrivals: number[];
}

/** A real Session turns the CLI's events into changes; the host's batching groups them into one message a frame. */
function hostMessages(deltas: readonly string[], turnId: number): TimedMessage[] {
  const turn: Turn = { id: turnId, prompt: "Explain the token refresh bug", agent: "Locus", state: "idle", blocks: [], problems: [], done: null, status: null, context: null, origin: "prompt" };
  let changes: SessionChange[] = [];
  const session = new Session({ dialect: "locus", now: () => cli.T0, onChange: (change) => changes.push(change) });
  const schedule: TimedMessage[] = [{ at: 0, message: { type: "turn-started", sessionId: TEST_SESSION_ID, turn }, arrivals: [] }];
  let batch: { at: number; changes: SessionChange[]; arrivals: number[] } | undefined;
  const flush = () => {
    if (batch === undefined) return;
    schedule.push({ at: batch.at, message: { type: "changes", sessionId: TEST_SESSION_ID, turnId, changes: batch.changes }, arrivals: batch.arrivals });
    batch = undefined;
  };
  const accept = (event: Parameters<Session["acceptEvent"]>[0], at: number, isDelta: boolean) => {
    changes = [];
    session.acceptEvent(event, null);
    if (batch !== undefined && at >= batch.at) flush();
    batch ??= { at: (Math.floor(at / BATCH_MS) + 1) * BATCH_MS, changes: [], arrivals: [] };
    batch.changes.push(...changes);
    if (isDelta) batch.arrivals.push(at);
  };
  const msPerDelta = 1000 / DELTAS_PER_SECOND;
  session.begin();
  accept(cli.start(), 0, false);
  deltas.forEach((delta, i) => accept(cli.textDelta(delta), i * msPerDelta, true));
  accept(cli.done({ duration: deltas.length * msPerDelta }), deltas.length * msPerDelta, false);
  // The host flushes at once on `done`.
  if (batch !== undefined) batch.at = deltas.length * msPerDelta;
  flush();
  return schedule;
}

/**
 * Plays the schedule from inside the page: a setTimeout loop posts each message when it is due. A listener added
 * after the view's notes each message it took; the next animation frame stamps them. Resolves with, per message,
 * the frame's time in ms from the start, and the page's tasks of 50 ms or more (elapsed). The baseline consumer is
 * installed first when asked. A string: the root tsconfig has no DOM types.
 */
const PLAY_SCRIPT = `([schedule, baseline]) => new Promise((resolve) => {
  const w = window;
  const transcript = document.querySelector(".transcript");
  if (baseline) {
    let pre = null;
    const newBlock = () => { pre = document.createElement("pre"); pre.style.whiteSpace = "pre-wrap"; transcript.append(pre); };
    newBlock();
    let frame = 0;
    w.addEventListener("message", (event) => {
      if (event.data?.type !== "bench-changes") return;
      for (const change of event.data.changes) {
        const text = change.kind === "text-appended" ? change.text : change.kind === "block-added" && change.block.kind === "text" ? change.block.text : "";
        const parts = text.split("\\n\\n");
        parts.forEach((part, i) => { if (i > 0) newBlock(); if (part.length > 0) pre.append(document.createTextNode(part)); });
      }
      frame ||= requestAnimationFrame(() => { frame = 0; transcript.scrollTop = transcript.scrollHeight; });
    });
  }
  const longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) longTasks.push(entry.duration); }).observe({ type: "longtask" });
  const painted = new Array(schedule.length).fill(-1);
  const taken = [];
  let stamping = 0;
  let started = 0;
  let count = 0;
  w.addEventListener("message", (event) => {
    const index = event.data?.__index;
    if (typeof index !== "number") return;
    taken.push(index);
    stamping ||= requestAnimationFrame(() => {
      stamping = 0;
      const now = performance.now() - started;
      for (const i of taken) painted[i] = now;
      count += taken.length;
      taken.length = 0;
      if (count === schedule.length) resolve({ painted, longTasks });
    });
  });
  started = performance.now();
  let next = 0;
  const tick = () => {
    const now = performance.now() - started;
    while (next < schedule.length && schedule[next].at <= now) {
      const message = schedule[next].message;
      w.postMessage({ ...message, type: baseline ? "bench-" + message.type : message.type, __index: next }, "*");
      next++;
    }
    if (next < schedule.length) setTimeout(tick, Math.max(0, schedule[next].at - (performance.now() - started)));
  };
  tick();
})`;

interface PageRun {
  /** Arrival-to-frame lag of every delta, ms. */
  lags: number[];
  /** The page's tasks of 50 ms or more, elapsed ms: a lag from the page's own work, not from waiting for a core. */
  longTasks: number[];
}

async function runPair(side: Side, schedules: readonly TimedMessage[][]): Promise<PageRun[]> {
  const harnesses = await Promise.all(schedules.map(() => WebviewHarness.open()));
  try {
    await Promise.all(harnesses.map((harness) => harness.frames(2)));
    const painted = await Promise.all(
      harnesses.map((harness, i) => harness.page.evaluate(`(${PLAY_SCRIPT})(${JSON.stringify([schedules[i].map(({ at, message }) => ({ at, message })), side === "baseline"])})`) as Promise<{ painted: number[]; longTasks: number[] }>),
    );
    if (side === "webview") await Promise.all(harnesses.map((harness) => harness.page.locator(".turn-footer").waitFor()));
    return painted.map(({ painted: frames, longTasks }, page) => ({ lags: schedules[page].flatMap((item, i) => item.arrivals.map((arrival) => frames[i] - arrival)), longTasks }));
  } finally {
    await Promise.all(harnesses.map((harness) => harness.close()));
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function report(runs: Record<Side, PageRun[][]>): void {
  console.log(`${PAGES} pages at once, each a turn of ${DELTA_COUNT.toLocaleString("en")} deltas (~500 KB of markdown) at ${DELTAS_PER_SECOND.toLocaleString("en")} deltas/s, one message per ${BATCH_MS} ms; ${ROUNDS} rounds per side, ABBA`);
  console.log("lag: a delta's arrival at the host to the first animation frame after the view took the message carrying it (host batching included)");
  console.log("");
  console.log("lag, ms                                    p50      p99      max   (per page, each round)");
  for (const side of ["webview", "baseline"] as const) {
    const all = runs[side].flat().flatMap((run) => run.lags).sort((a, b) => a - b);
    const perPage = runs[side].flat().map((run) => Math.max(...run.lags).toFixed(0)).join(", ");
    const longTasks = runs[side].flat().flatMap((run) => run.longTasks);
    const described = longTasks.length === 0 ? "none" : `${longTasks.length}, the longest ${Math.max(...longTasks).toFixed(0)} ms`;
    console.log(`  ${(side === "webview" ? "webview (chat view)" : "baseline (text nodes)").padEnd(38)}${percentile(all, 50).toFixed(0).padStart(6)}${percentile(all, 99).toFixed(0).padStart(9)}${all.at(-1)!.toFixed(0).padStart(9)}   max per page: ${perPage}; tasks >= 50 ms: ${described}`);
  }
  const worst = Math.max(...runs.webview.flat().flatMap((run) => run.lags));
  console.log("");
  console.log(`webview, every delta on screen within ${TARGET_LAG_MS} ms of its arrival: ${worst <= TARGET_LAG_MS ? "met" : "NOT met"} (max ${worst.toFixed(0)} ms)`);
}

async function main(): Promise<void> {
  const deltas = splitIntoDeltas(makeAnswer().markdown, DELTA_COUNT);
  const schedules = Array.from({ length: PAGES }, () => hostMessages(deltas, 0));
  const runs: Record<Side, PageRun[][]> = { webview: [], baseline: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (["webview", "baseline"] as const) : (["baseline", "webview"] as const)) {
        const pair = await runPair(side, schedules);
        runs[side].push(pair);
        process.stderr.write(`  round ${round + 1} ${side}: max lag ${pair.map((run) => Math.max(...run.lags).toFixed(0)).join(" / ")} ms\n`);
      }
    }
    report(runs);
  } finally {
    await closeSharedBrowser();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
