// Work the chat does for what it shows but need not finish at once (a line diff per changed file, the markdown of a
// reopened session): queued, and done in slices of at most SLICE_MS of the main thread, one slice a task, so that
// hundreds of files or a long transcript never hold up a frame or a key press.

/** Main-thread time one slice may take before the rest waits for a later task. */
const SLICE_MS = 8;

export class SlicedWork {
  private jobs: (() => void)[] = [];
  /** The next job to run: jobs are taken from the front without shifting the array each time. */
  private next = 0;
  /** Set while a slice is under way: from its start until a later task has run what was left. */
  private slicing = false;
  /** Set while jobs run: a job may add the next one (a chain of work), which then waits its turn in the loop. */
  private running = false;
  private sliceEnds = 0;
  private readonly watchers: ((busy: boolean) => void)[] = [];

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly later: (run: () => void) => void = (run) => setTimeout(run, 0),
  ) {}

  /** Runs `job` now if this task's slice has time left, else in a later task's slice; jobs run in the order added. */
  add(job: () => void): void {
    this.jobs.push(job);
    this.started();
  }

  /** As `add`, but before every job still queued: what the page shows first (the end of a reopened session). */
  addFirst(job: () => void): void {
    this.jobs.splice(this.next, 0, job);
    this.started();
  }

  private started(): void {
    if (this.jobs.length - this.next === 1) this.tell(true);
    if (!this.slicing) this.startSlice();
    else if (!this.running) this.run();
  }

  private startSlice(): void {
    this.slicing = true;
    this.sliceEnds = this.now() + SLICE_MS;
    // The next slice waits for a later task, whatever is queued meanwhile; with nothing queued then, slicing stops.
    this.later(() => {
      if (this.next === this.jobs.length) this.slicing = false;
      else this.startSlice();
    });
    this.run();
  }

  private run(): void {
    this.running = true;
    try {
      while (this.next < this.jobs.length && this.now() < this.sliceEnds) this.jobs[this.next++]!();
    } finally {
      this.running = false;
    }
    if (this.next < this.jobs.length) return;
    this.jobs = [];
    this.next = 0;
    this.tell(false);
  }

  /** Told when work is queued (true) and when the last of it is done (false): the page is not final meanwhile. */
  watch(watcher: (busy: boolean) => void): void {
    this.watchers.push(watcher);
  }

  private tell(busy: boolean): void {
    for (const watcher of this.watchers) watcher(busy);
  }
}

/** The chat's one queue: slices are counted across every card, not per card. */
export const slicedWork = new SlicedWork();
