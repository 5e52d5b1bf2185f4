// One write at a time per file, and no queue of stale ones: a write asked for while another runs waits for it, and a
// newer write asked for meanwhile takes the waiting one's place, so a burst of saves costs at most two writes.

type Write<T> = () => Promise<T>;

interface Lane<T> {
  current: Promise<T>;
  next: { write: Write<T>; done: Promise<T> } | undefined;
}

export class WriteLanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();

  /**
   * Runs `write` once the key's running write is done, or not at all if a newer one replaces it first; resolves with
   * the result of the write that ran in its place. A write must not reject: it reports its own failure in `T`.
   */
  run(key: string, write: Write<T>): Promise<T> {
    const lane = this.lanes.get(key);
    if (lane === undefined) {
      const fresh: Lane<T> = { current: Promise.resolve(undefined as T), next: undefined };
      this.lanes.set(key, fresh);
      return this.begin(key, fresh, write);
    }
    if (lane.next !== undefined) {
      lane.next.write = write;
      return lane.next.done;
    }
    const next: Lane<T>["next"] & object = { write, done: Promise.resolve(undefined as T) };
    next.done = lane.current.then(() => {
      lane.next = undefined;
      return this.begin(key, lane, next.write);
    });
    lane.next = next;
    return next.done;
  }

  /** Resolves once no write is running or waiting, including those asked for while it waits. */
  async settled(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()].map((lane) => lane.next?.done ?? lane.current));
  }

  private begin(key: string, lane: Lane<T>, write: Write<T>): Promise<T> {
    const current: Promise<T> = write().finally(() => {
      if (lane.current === current && lane.next === undefined) this.lanes.delete(key);
    });
    lane.current = current;
    return current;
  }
}
