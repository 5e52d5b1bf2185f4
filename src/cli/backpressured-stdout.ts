// Our stdout when its reader is slower than the CLI or agent we run (a pipe into a busy program, a stalled one): what
// the reader has not taken waits in our memory. So the source of the output — a CLI's stdout for `run`, each turn's
// for `ask` — is not read while the reader is behind, and the CLI blocks once its own pipe is full: memory stays flat.

/** What the output comes from: stops being read until resumed. */
export interface OutputSource {
  pause(): void;
  resume(): void;
}

export class BackpressuredStdout {
  private source: OutputSource | undefined;
  /** Paused until the reader catches up: the source of the moment, and any attached since. */
  private readonly paused = new Set<OutputSource>();

  constructor(private readonly out: NodeJS.WritableStream & { readonly writableNeedDrain: boolean } = process.stdout) {}

  /** Where output comes from now (`ask` runs one source per turn); paused at once while the reader is still behind. */
  attach(source: OutputSource): void {
    this.source = source;
    if (this.paused.size > 0) this.pause(source);
  }

  write(text: string): void {
    if (this.out.write(text) || this.paused.size > 0 || this.source === undefined) return;
    this.pause(this.source);
    this.out.once("drain", () => {
      const paused = [...this.paused];
      this.paused.clear();
      for (const source of paused) source.resume();
    });
  }

  /** Resolves once the reader has taken everything written. */
  flushed(): Promise<void> {
    if (!this.out.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.out.once("drain", () => resolve()));
  }

  private pause(source: OutputSource): void {
    this.paused.add(source);
    source.pause();
  }
}
