// What a tool card that changed many files costs the chat webview in real Chromium (the harness page, the production
// bundle): 600 files of 1,000 changed lines each, shown, then the card updated twice (a new title; one file changed),
// then one file's preview opened. Against a baseline measured in the same run: the same card, every file written back
// unchanged (the same messages to carry, next to nothing to work out). Reports the longest main-thread task of each
// step (the target: no task over 50 ms) and its main-thread CPU. A benchmark, not a test: it prints, and
// fails only if it cannot measure. Run: node esbuild.mjs --production && npx tsc -p . && node out/bench/diff-list.bench.js
import type { Page } from "playwright-core";
import type { Turn } from "../src/protocol/messages";
import type { ToolCard, ToolDiff } from "../src/protocol/transcript";
import { closeSharedBrowser, getSharedBrowser, WebviewHarness, type TestHostMessage } from "../test/helpers/webview-harness";
import { toolBlock, turnWith } from "../test/helpers/turn-builder";
import { mainThreadTasks } from "./main-thread-tasks";

const FILES = 600;
const CHANGED_LINES = 1_000;
const LONG_TASK_MS = 50;
const ROUNDS = 2;

function file(index: number, version: string): ToolDiff {
  return { path: `/w/src/module${index}.ts`, oldText: lines(`old${index}`), newText: lines(`${version}${index}`) };
}

function lines(prefix: string): string {
  return Array.from({ length: CHANGED_LINES }, (_, i) => `${prefix} ${i}`).join("\n") + "\n";
}

interface Step {
  name: string;
  /** What the host sends, or what the user does, in the page. */
  act(harness: WebviewHarness): Promise<void>;
}

function steps(card: ToolCard): Step[] {
  const turn: Turn = turnWith(0, [card]);
  const updated = (next: ToolCard): TestHostMessage => ({ type: "changes", turnId: 0, changes: [{ kind: "block-updated", index: 0, block: next }] });
  const withOneFileChanged = { ...card, title: "Rewrite every module", diffs: card.diffs.map((diff, i) => (i === 1 ? file(1, "newer") : diff)) };
  return [
    { name: "shown (snapshot)", act: (h) => h.send({ type: "snapshot", turns: [turn], restriction: null }) },
    { name: "card updated: a new title", act: (h) => h.send(updated({ ...card, title: "Rewrite every module" })) },
    { name: "card updated: one file changed", act: (h) => h.send(updated(withOneFileChanged)) },
    { name: "first file's preview opened", act: (h) => (card.diffs.length === 0 ? Promise.resolve() : h.page.locator(".diff-preview summary").first().click()) },
  ];
}

/** Until the page is done: every file shown has its counts, and two more frames painted. */
async function settled(page: Page, harness: WebviewHarness): Promise<void> {
  await page.waitForFunction(
    () => {
      type Node = { querySelector(s: string): { textContent: string | null } | null };
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Node> } }).document;
      return Array.from(doc.querySelectorAll(".diff-file")).every((file) => (file.querySelector(".diff-added")?.textContent ?? "") !== "");
    },
    undefined,
    { timeout: 0 },
  );
  await harness.frames(2);
}

interface Measured {
  longestWallMs: number;
  longestCpuMs: number;
  cpuMs: number;
}

async function measure(card: ToolCard): Promise<Measured[]> {
  const harness = await WebviewHarness.open({ viewport: { width: 480, height: 900 } });
  const browser = await getSharedBrowser();
  try {
    const results: Measured[] = [];
    for (const step of steps(card)) {
      await browser.startTracing(harness.page, { categories: ["toplevel"] });
      await step.act(harness);
      await settled(harness.page, harness);
      const tasks = mainThreadTasks(await browser.stopTracing());
      results.push({
        longestWallMs: Math.max(...tasks.map((task) => task.wall)),
        longestCpuMs: Math.max(...tasks.map((task) => task.cpu)),
        cpuMs: tasks.reduce((all, task) => all + task.cpu, 0),
      });
    }
    return results;
  } finally {
    await harness.close();
  }
}

async function main(): Promise<void> {
  const diffs = Array.from({ length: FILES }, (_, i) => file(i, "new"));
  const card = toolBlock({ tool: "edit", toolKind: "edit", title: "Rewrite the modules", diffs });
  const unchanged = toolBlock({ ...card, diffs: diffs.map((diff) => ({ ...diff, oldText: diff.newText })) });
  const chars = diffs.reduce((all, diff) => all + (diff.oldText?.length ?? 0) + diff.newText.length, 0);
  console.log(`a tool card with ${FILES} files of ${CHANGED_LINES.toLocaleString("en")} changed lines each (${(chars / 1024 / 1024).toFixed(1)} MiB of text); baseline: the same files written back unchanged`);
  console.log(`${ROUNDS} runs each, a fresh page each; the longest task (elapsed, and its cpu) and the step's main-thread cpu, best of the runs`);
  try {
    const runs = { files: [] as Measured[][], baseline: [] as Measured[][] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.files.push(await measure(card));
      runs.baseline.push(await measure(unchanged));
    }
    const best = (list: Measured[][], step: number, key: keyof Measured) => Math.min(...list.map((run) => run[step]![key]));
    console.log(`${"step".padEnd(36)}${"longest task ms".padStart(16)}${"its cpu".padStart(10)}${"cpu ms".padStart(10)}${"baseline: longest".padStart(19)}${"cpu".padStart(6)}${"cpu ratio".padStart(11)}`);
    const names = steps(card).map((step) => step.name);
    let worst = 0;
    names.forEach((name, i) => {
      const longest = best(runs.files, i, "longestWallMs");
      worst = Math.max(worst, longest);
      const cpu = best(runs.files, i, "cpuMs");
      const baseline = best(runs.baseline, i, "cpuMs");
      const baselineLongest = best(runs.baseline, i, "longestWallMs");
      console.log(`${name.padEnd(36)}${longest.toFixed(0).padStart(16)}${best(runs.files, i, "longestCpuMs").toFixed(0).padStart(10)}${cpu.toFixed(0).padStart(10)}${baselineLongest.toFixed(0).padStart(19)}${baseline.toFixed(0).padStart(6)}${(cpu / baseline).toFixed(1).padStart(11)}`);
    });
    console.log(`no task over ${LONG_TASK_MS} ms: ${worst <= LONG_TASK_MS ? "met" : "NOT met"} (longest ${worst.toFixed(0)} ms)`);
  } finally {
    await closeSharedBrowser();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
