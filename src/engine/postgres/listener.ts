import pg from 'pg';

export const JOBS_CHANNEL = 'assay_jobs';
const RECONNECT_MS = 1_000;

/**
 * One LISTEN connection per process, opened when the first worker subscribes, shared by all of them. The
 * trigger in migration 0001 notifies when a job becomes claimable on any node. If the connection drops it is
 * reopened, and every subscriber is woken once then, since notifications sent meanwhile are lost; workers
 * keep polling in any case, so a lost notification costs latency, never a job.
 */
export class JobListener {
  private readonly subscribers = new Set<() => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly url: string) {}

  subscribe(onWake: () => void): () => void {
    this.subscribers.add(onWake);
    if (!this.client && !this.retry) void this.connect();
    return () => {
      this.subscribers.delete(onWake);
      if (this.subscribers.size === 0) void this.disconnect();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    await this.disconnect();
  }

  private wakeAll(): void {
    for (const wake of this.subscribers) wake();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.subscribers.size === 0) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    client.on('notification', () => this.wakeAll());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
      this.wakeAll();
    } catch {
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    if (this.closed || this.subscribers.size === 0 || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private async disconnect(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
