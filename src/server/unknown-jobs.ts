const MAX_REMEMBERED = 10_000;

/**
 * Job ids one area of this process has found missing for a caller. The store draws job ids at random (v4
 * UUIDs), and a job never changes its kind or owner, so an id that was not there for a caller can only
 * appear later if the store happens to draw that same id (about 2^-122): a poller repeating an unknown,
 * mistyped, pruned or foreign id is answered from here instead of with a store read per request (a network
 * round trip on a PostgreSQL store). Bounded: forgotten all at once when full, like the key cache.
 */
export class UnknownJobs {
  private readonly ids = new Set<string>();

  constructor(private readonly max = MAX_REMEMBERED) {}

  has(owner: string | null, id: string): boolean {
    return this.ids.has(entry(owner, id));
  }

  add(owner: string | null, id: string): void {
    if (this.ids.size >= this.max) this.ids.clear();
    this.ids.add(entry(owner, id));
  }
}

/** The owner's length first, so no owner and id pair reads as another (ids come from URLs). */
const entry = (owner: string | null, id: string) =>
  `${owner === null ? '-' : owner.length}:${owner ?? ''}${id}`;
