// Ends a process tree step by step (e.g. an in-band request, then SIGINT, SIGTERM, SIGKILL) until nothing of it is
// left.
import type { ProcessTree } from "./process-tree";

export type EscalationStep = (
  | { signal: NodeJS.Signals }
  /** Asks the CLI itself to stop (a line on its stdin); false when that is not possible any more, so skip it. */
  | { ask: () => boolean }
) & {
  /** How long the tree gets to go away before the next step, or before giving up after the last one. */
  graceMs: number;
};

/** The OS tells us nothing when a grandchild dies, so the tree is polled; only while an escalation runs. */
const pollIntervalMs = 50;

export class SignalEscalation {
  private stepTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private done = false;
  /** While this is SIGKILL it is sent again on every poll: a process forked just before its parent died gets it too. */
  private repeatedSignal: NodeJS.Signals | undefined;

  constructor(
    private readonly tree: ProcessTree,
    private readonly steps: readonly EscalationStep[],
    /** The tree is gone, or something survived the last step (stuck in the kernel, or not ours to signal). */
    private readonly onSettled: () => void,
  ) {}

  /** Runs the first step now; `onSettled` may be called before this returns. */
  start(): void {
    this.runStep(0);
  }

  /** Stops escalating without calling `onSettled`. */
  dispose(): void {
    this.done = true;
    clearTimeout(this.stepTimer);
    clearInterval(this.pollTimer);
    this.stepTimer = undefined;
    this.pollTimer = undefined;
  }

  private runStep(index: number): void {
    this.stepTimer = undefined;
    if (this.done) return;
    if (!this.tree.isAlive()) return this.settle();
    const step = this.steps[index];
    if (step === undefined) return this.settle();
    if ("signal" in step) this.tree.signal(step.signal);
    else if (!step.ask()) return this.runStep(index + 1);
    this.repeatedSignal = "signal" in step && step.signal === "SIGKILL" ? "SIGKILL" : undefined;
    this.stepTimer = setTimeout(() => this.runStep(index + 1), step.graceMs);
    this.pollTimer ??= setInterval(() => this.poll(), pollIntervalMs);
  }

  private poll(): void {
    if (this.done) return;
    if (!this.tree.isAlive()) return this.settle();
    if (this.repeatedSignal !== undefined) this.tree.signal(this.repeatedSignal);
  }

  private settle(): void {
    this.dispose();
    this.onSettled();
  }
}
