import type pg from 'pg';

/** The same UPDATE as a single completion, for many jobs: each row still matches only on its own lock token. */
const COMPLETE_MANY = `
  UPDATE jobs j
     SET state = 'done', status = c.status, result = c.result, locked_until = NULL, lock_token = NULL,
         error_type = NULL, error_message = NULL, updated_at = c.now
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS c(id, token, status, result, now)
   WHERE j.id = c.id AND j.lock_token = c.token AND j.state = 'running'
  RETURNING j.id, c.token`;

const MAX_BATCH = 500;

interface Completion {
  id: string;
  token: string;
  status: string;
  result: string | null;
  now: number;
  settle: (owned: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Completions (those without follow-ups) that arrive while one statement is in flight go together in the
 * next: one round trip and one durable commit for many jobs, where one each would make the commit's flush
 * to disk the limit on throughput. A lone completion waits only for the end of the event loop's turn. Each caller
 * still learns whether its own job was still its own.
 */
export class CompletionBatcher {
  private pending: Completion[] = [];
  private flushing = false;

  constructor(private readonly pool: pg.Pool) {}

  complete(id: string, token: string, status: string, result: string | null, now: number): Promise<boolean> {
    return new Promise((settle, fail) => {
      this.pending.push({ id, token, status, result, now, settle, fail });
      // Jobs that end together (a claimed batch of short jobs) end in the same turn of the event loop:
      // wait for the end of that turn so the first of them does not go alone.
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const column = <K extends keyof Completion>(k: K) => batch.map((c) => c[k]);
      try {
        const { rows } = await this.pool.query<{ id: string; token: string }>(COMPLETE_MANY, [
          column('id'),
          column('token'),
          column('status'),
          column('result'),
          column('now'),
        ]);
        const owned = new Set(rows.map((r) => `${r.id}\u0000${r.token}`));
        for (const c of batch) c.settle(owned.has(`${c.id}\u0000${c.token}`));
      } catch (err) {
        for (const c of batch) c.fail(err);
      }
    }
    this.flushing = false;
  }
}
