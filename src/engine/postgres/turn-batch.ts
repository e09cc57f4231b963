const MAX_BATCH = 500;

interface Pending<T> {
  item: T;
  settle: (owned: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Writes on held jobs that arrive while one statement is in flight go together in the next: one round trip
 * and one commit for many jobs. A lone write waits only for the end of the event loop's turn, since writes
 * that belong together (jobs of one claimed batch ending, a worker's heartbeat for all it holds) are made
 * in the same turn. `write` runs one statement for a batch and returns the keys of the items it changed;
 * each caller learns whether its own job was still its own.
 */
export class TurnBatcher<T> {
  private pending: Pending<T>[] = [];
  private flushing = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<Set<string>>,
    private readonly keyOf: (item: T) => string,
  ) {}

  add(item: T): Promise<boolean> {
    return new Promise((settle, fail) => {
      this.pending.push({ item, settle, fail });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      try {
        const changed = await this.write(batch.map((p) => p.item));
        for (const p of batch) p.settle(changed.has(this.keyOf(p.item)));
      } catch (err) {
        for (const p of batch) p.fail(err);
      }
    }
    this.flushing = false;
  }
}
