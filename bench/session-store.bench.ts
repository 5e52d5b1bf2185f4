// Opening the session store: 1,000 stored sessions and a 5 MB one against an empty store, in the same run. What the
// chat does at activation: open the store (the index, not the sessions) and load the active session. Issue 23's
// target for the whole activation (measured with the UI by sessions-workbench.bench.ts) is ≤ 1.5× the empty store's
// time and < 30 MB more memory; this prints the store's share of it: the time of each step, the ratios, and the heap
// the opened store keeps. Also what deactivation's flush of the 5 MB session costs (serialise, write, fsync, rename),
// since VS Code gives it little time.
// Also the host memory of a 5 MB turn while it streams: the run's transcript and the conversation's turn, against the turn alone.
// Run: npx tsc -p . && node --expose-gc out/bench/session-store.bench.js
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { Conversation, type ConversationHost } from "../src/panel/conversation";
import type { CliStreamEvent } from "../src/protocol/events";
import { Session } from "../src/session/session";
import * as cli from "../test/helpers/stream-builder";
import { TEST_HEADER, TEST_SESSION_ID } from "../test/helpers/test-session";
import { VirtualScheduler } from "../test/helpers/virtual-scheduler";
import { makeAnswer, splitIntoDeltas } from "./long-answer";
import type { SessionId } from "../src/protocol/sessions";
import type { SessionsHost } from "../src/panel/chat-session";
import { ChatSessions, type ChatSessionsOptions } from "../src/panel/chat-sessions";
import { SessionStore } from "../src/sessions/session-store";
import { summaryOf } from "../src/sessions/session-summary";
import { fillStore, STORE_OPTIONS, STORED_SESSIONS } from "./stored-sessions";

const ROUNDS = 15;
/** A turn streamed while the host holds it: this many characters of answer, in this many text blocks (a tool between). */
const RUNNING_TURN_BYTES = 5 * 1024 * 1024;
const RUNNING_TURN_BLOCKS = 5;
const OPTIONS = STORE_OPTIONS;

/** Noise on a shared machine only ever adds time: the best round is the figure. */
function best(values: number[]): number {
  return Math.min(...values);
}

async function fill(storage: string): Promise<SessionId> {
  return (await fillStore(storage)).id;
}

function heapMiB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with node --expose-gc");
  gc();
  gc();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.external + usage.arrayBuffers) / (1024 * 1024);
}

async function main(): Promise<void> {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "session-store-bench-empty-"));
  const full = fs.mkdtempSync(path.join(os.tmpdir(), "session-store-bench-full-"));
  try {
    await SessionStore.open(empty, OPTIONS);
    let t = performance.now();
    const activeId = await fill(full);
    console.log(`filled the store in ${((performance.now() - t) / 1000).toFixed(1)} s: ${(du(full) / (1024 * 1024)).toFixed(1)} MiB in ${fs.readdirSync(path.join(full, "sessions")).length} files`);

    const times = { empty: [] as number[], full: [] as number[], fullAndActive: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      t = performance.now();
      await SessionStore.open(empty, OPTIONS);
      times.empty.push(performance.now() - t);
      t = performance.now();
      const store = await SessionStore.open(full, OPTIONS);
      times.full.push(performance.now() - t);
      await store.load(activeId);
      times.fullAndActive.push(performance.now() - t);
    }
    const [emptyMs, fullMs, activeMs] = [best(times.empty), best(times.full), best(times.fullAndActive)];
    console.log(`open, empty store:                     ${emptyMs.toFixed(2)} ms (best of ${ROUNDS} interleaved rounds)`);
    console.log(`open, ${STORED_SESSIONS} sessions (the index):      ${fullMs.toFixed(2)} ms  ${(fullMs / emptyMs).toFixed(1)}× the empty store`);
    console.log(`open + load the 5 MB active session:   ${activeMs.toFixed(2)} ms  ${(activeMs / emptyMs).toFixed(1)}× the empty store`);

    const [emptyHeap, fullHeap] = [memoryOfOpening(empty, null), memoryOfOpening(full, activeId)];
    console.log(`heap kept by the opened store: empty ${emptyHeap.index.toFixed(1)} MiB, ${STORED_SESSIONS} sessions ${fullHeap.index.toFixed(1)} MiB; with the 5 MB active session loaded as well: ${fullHeap.active.toFixed(1)} MiB (target for the whole activation: < 30 MB more than empty)`);
    const indexOnly = memoryOfOpening(full, null);
    console.log(
      `peak RSS grown by opening (the figure sessions-workbench measures in the host): empty ${emptyHeap.peakIndex.toFixed(1)} MiB; ${STORED_SESSIONS} sessions, the index only, ${indexOnly.peakIndex.toFixed(1)} MiB; with the 5 MB active session read ${fullHeap.peakActive.toFixed(1)} MiB, and its snapshot serialised ${fullHeap.peakPosted.toFixed(1)} MiB`,
    );

    // The host's side of activation: the registry opened on the store with the active session, its list made (the
    // Sessions view's rows) and the active session's snapshot made (what the chat view paints first).
    const activation = { empty: [] as number[], full: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, storage, active] of [["empty", empty, undefined], ["full", full, activeId]] as const) {
        t = performance.now();
        const sessions = await ChatSessions.open(registryOptions(await SessionStore.open(storage, OPTIONS)), active);
        sessions.list();
        sessions.active.conversation.snapshot();
        activation[name].push(performance.now() - t);
        await sessions.dispose();
      }
    }
    const [emptyActivation, fullActivation] = [best(activation.empty), best(activation.full)];
    console.log(
      `the host's side of activation (registry, Sessions list, active snapshot): empty ${emptyActivation.toFixed(2)} ms, ${STORED_SESSIONS} sessions + 5 MB active ${fullActivation.toFixed(2)} ms (${(fullActivation / emptyActivation).toFixed(1)}×; +${(fullActivation - emptyActivation).toFixed(1)} ms)`,
    );

    const kept = await SessionStore.open(full, OPTIONS);
    const active = await kept.load(activeId);
    const flushes: number[] = [];
    for (let round = 0; round < 10 && active !== undefined; round++) {
      const changed = { ...active, updatedAt: active.updatedAt + round };
      t = performance.now();
      void kept.save(changed, summaryOf(changed, "completed"));
      await kept.flush();
      flushes.push(performance.now() - t);
    }
    console.log(`flush of a save of the 5 MB session (serialise, write, fsync, rename, index): ${best(flushes).toFixed(1)} ms (best of 10)`);

    const [twoCopies, heldOnce, baseline] = [memoryOfRunningTurn("transcript"), memoryOfRunningTurn("listener"), memoryOfRunningTurn("nothing")];
    console.log(
      `heap held while a 5 MB turn streams (conversation + run, before its done): run and turn each holding it ${twoCopies.toFixed(1)} MiB (${(twoCopies / baseline).toFixed(2)}×); held by the turn only, as the panel runs now, ${heldOnce.toFixed(1)} MiB (${(heldOnce / baseline).toFixed(2)}×); baseline, the turn's copy with no run transcript nor limits: ${baseline.toFixed(1)} MiB`,
    );
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(full, { recursive: true, force: true });
  }
}

/** A registry that never runs an agent: what activation builds before any prompt. */
function registryOptions(store: SessionStore): ChatSessionsOptions {
  const agent = { profile: "claude", displayName: "Claude Code", command: "claude", args: null };
  const host: SessionsHost = {
    startRun: () => {
      throw new Error("the bench runs no agent");
    },
    endAgent: () => {},
    openExternal: () => {},
    writeClipboard: () => {},
    runEditorAction: () => {},
    logRejected: () => {},
    restriction: () => null,
  };
  return { store, host, defaultAgent: () => agent, maxRunning: () => 4, say: () => {}, pickAgent: async () => undefined, log: () => {} };
}

/** In a process of its own, so that nothing this one did is in the figure: the heap an opened store keeps. */
function memoryOfOpening(storage: string, activeId: SessionId | null): { index: number; active: number; peakIndex: number; peakActive: number; peakPosted: number } {
  const child = spawnSync(process.execPath, ["--expose-gc", __filename, "memory", storage, activeId ?? ""], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as { index: number; active: number; peakIndex: number; peakActive: number; peakPosted: number };
}

/** The child's side: code loaded and run once on an empty folder first, so the figure is the data's. */
async function measureMemory(storage: string, activeId: string): Promise<void> {
  const warmUp = fs.mkdtempSync(path.join(os.tmpdir(), "session-store-bench-warm-up-"));
  await (await SessionStore.open(warmUp, OPTIONS)).flush();
  fs.rmSync(warmUp, { recursive: true, force: true });
  const before = heapMiB();
  const peakBefore = peakRssMiB();
  const store = await SessionStore.open(storage, OPTIONS);
  const index = heapMiB() - before;
  const peakIndex = peakRssMiB() - peakBefore;
  const active = activeId === "" ? undefined : await store.load(activeId as SessionId);
  const loaded = heapMiB() - before;
  const peakActive = peakRssMiB() - peakBefore;
  // What posting its snapshot to the chat adds at its peak: the message is serialised once more.
  const posted = active === undefined ? "" : JSON.stringify({ type: "snapshot", turns: active.turns });
  const peakPosted = peakRssMiB() - peakBefore;
  process.stdout.write(JSON.stringify({ index, active: loaded, peakIndex, peakActive, peakPosted, kept: [store.list().length, active?.turns.length, posted.length] }));
}

/** The process's resident memory at its highest so far: what the OS (and VS Code's Process Explorer) counts. */
function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function du(storage: string): number {
  const folder = path.join(storage, "sessions");
  return fs.readdirSync(folder).reduce((total, name) => total + fs.statSync(path.join(folder, name)).size, 0);
}

/**
 * How a running turn's run keeps its part: its own transcript (as the panel's runs did), the transcript held by the
 * conversation only (as they do now), or no blocks and no limits at all (the baseline: the turn's copy alone).
 */
type RunKeeps = "transcript" | "listener" | "nothing";

/**
 * The host's memory while a 5 MB turn streams into a session's conversation: the heap the conversation and its run
 * hold once every delta has arrived, before the done. Measured for a run that keeps its transcript (as the panel's
 * runs do) and for one that keeps none (only the turn's copy): their ratio is what the second copy costs.
 */
function memoryOfRunningTurn(keeps: RunKeeps): number {
  const child = spawnSync(process.execPath, ["--expose-gc", __filename, "running-turn", keeps], { encoding: "utf8", maxBuffer: 1024 * 1024 });
  if (child.status !== 0) throw new Error(child.stderr);
  return (JSON.parse(child.stdout) as { heldMiB: number }).heldMiB;
}

/** The child's side: a conversation fed as a live run feeds it, 1,000 deltas a second on its batching clock. */
function measureRunningTurn(keeps: RunKeeps): void {
  const text = makeAnswer().markdown;
  const chunk = text.repeat(Math.ceil(RUNNING_TURN_BYTES / RUNNING_TURN_BLOCKS / text.length)).slice(0, RUNNING_TURN_BYTES / RUNNING_TURN_BLOCKS);
  const deltas = splitIntoDeltas(chunk, Math.round(chunk.length / 50));
  const scheduler = new VirtualScheduler();
  let session: Session | undefined;
  const host: ConversationHost = {
    sessionId: TEST_SESSION_ID,
    header: () => TEST_HEADER,
    startRun: (request) => {
      session = new Session({ dialect: "locus", now: () => cli.T0, onChange: request.onChange, keepBlocks: keeps !== "nothing", heldByListener: keeps === "listener" });
      session.begin();
      return { session, finished: new Promise<never>(() => {}), stop: async () => {}, kill: () => {} };
    },
    openExternal: () => {},
    writeClipboard: () => {},
    runEditorAction: () => {},
    logRejected: () => {},
    restriction: () => null,
    agentName: () => "bench",
    persist: () => {},
    persistRunning: () => {},
  };
  const conversation = new Conversation(host, [], null, scheduler);
  const before = heapMiB();
  conversation.send("Explain the token refresh bug");
  const live = session!;
  live.acceptEvent(cli.start(), 1);
  let line = 2;
  for (let block = 0; block < RUNNING_TURN_BLOCKS; block++) {
    for (const [i, delta] of deltas.entries()) {
      // Parsed from its line, as a live run's: each delta a string of its own, not a piece of the bench's text.
      live.acceptEvent(JSON.parse(JSON.stringify(cli.textDelta(delta))) as CliStreamEvent, line++);
      if (i % 16 === 15) scheduler.advance(16);
    }
    live.acceptEvent(cli.toolStarted("Read", `read-${block}`, { file: `src/part-${block}.ts` }), line++);
    live.acceptEvent(cli.toolCompleted("Read", `read-${block}`), line++);
  }
  scheduler.advance(1000);
  const heldMiB = heapMiB() - before;
  // Read after the figure: the conversation (and through it the run) is alive while the heap is measured.
  process.stdout.write(JSON.stringify({ heldMiB, prompts: conversation.prompts().length }));
}

if (process.argv[2] === "memory") void measureMemory(process.argv[3]!, process.argv[4]!);
else if (process.argv[2] === "running-turn") measureRunningTurn(process.argv[3] as RunKeeps);
else void main();
