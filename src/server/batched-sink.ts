import type pino from 'pino';

/**
 * Lines are held until this many bytes are waiting (about 200 lines)... Each write costs the server far more
 * than its bytes (an asynchronous write wakes a libuv thread and then the event loop): on a 2-core VM,
 * batches of 8 KB still cost 10 us a request more than batches of 64 KB.
 */
const BATCH_BYTES = 64 * 1024;
/** Room for a line past BATCH_BYTES; a longer one goes alone. */
const LINE_ROOM = 16 * 1024;
/** ...or this long: a quiet server's line shows within a quarter of a second. */
const FLUSH_MS = 250;

export interface Sink {
  write(line: string): void;
}

/**
 * Holds lines and hands them to the destination in batches, encoded as they come into one buffer per batch
 * (a batch held as one long string cost more to flatten and encode at once than its lines did to build).
 * pino's SonicBoom would otherwise start a write for every line.
 */
export class BatchedSink implements Sink {
  private held = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
  private used = 0;
  /** After close, lines (a worker's last warning) go straight to the destination. */
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onExit = () => this.close();

  constructor(private readonly destination: ReturnType<typeof pino.destination>) {
    this.timer = setInterval(() => this.release(), FLUSH_MS).unref();
    process.once('exit', this.onExit);
  }

  write(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (this.used + line.length * 3 > this.held.length) {
      this.release();
      if (line.length * 3 > this.held.length) {
        this.destination.write(Buffer.from(line) as unknown as string);
        return;
      }
    }
    this.used += this.held.write(line, this.used);
    if (this.closed || this.used >= BATCH_BYTES) this.release();
  }

  private release(): void {
    if (this.used === 0) return;
    const lines = this.held.subarray(0, this.used);
    this.held = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
    this.used = 0;
    // The destination keeps the buffer until it is written (contentMode 'buffer'); this sink never reuses it.
    this.destination.write(lines as unknown as string);
  }

  /** Everything held and queued, written now (the server closes, or the process exits). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    process.removeListener('exit', this.onExit);
    this.release();
    try {
      this.destination.flushSync();
    } catch {
      // A write still in flight: pino flushes what is left when the process exits.
    }
  }
}
