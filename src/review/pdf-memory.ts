/**
 * PDFs a reviewer hands the review page under `serve`, held in this process's memory for a while and
 * never written anywhere: a job's own copy is deleted when it ends (uploads never outlive their job), so
 * to see page images the reviewer gives the PDF again. Bounded in count, bytes and time; the oldest goes
 * first. Another node does not have it, and the page simply asks again.
 */
export class PdfMemory {
  private readonly held = new Map<string, { bytes: Uint8Array; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 256 * 1024 * 1024,
    private readonly maxCount = 16,
  ) {}

  get(key: string, now = Date.now()): Uint8Array | null {
    const entry = this.held.get(key);
    if (!entry) return null;
    if (entry.until <= now) {
      this.held.delete(key);
      return null;
    }
    return entry.bytes;
  }

  put(key: string, bytes: Uint8Array, now = Date.now()): void {
    this.held.delete(key);
    for (const [k, v] of this.held) if (v.until <= now) this.held.delete(k);
    this.held.set(key, { bytes, until: now + this.ttlMs });
    // Maps iterate in insertion order: the first entries are the oldest.
    let total = [...this.held.values()].reduce((n, v) => n + v.bytes.byteLength, 0);
    for (const [k, v] of this.held) {
      if (this.held.size <= this.maxCount && total <= this.maxBytes) break;
      if (k === key) continue;
      this.held.delete(k);
      total -= v.bytes.byteLength;
    }
  }
}
