import type { BlobStore } from '../../blobs/store.js';
import type { RenderFn } from './render-pool.js';

/** What the report kinds are built with; apart from kind.ts, which loads handler.ts, so the handler can name it. */
export interface ReportKindOptions {
  /** How PDFs are rendered: in a worker-thread pool by default, inline in tests and benchmarks. */
  render: RenderFn;
  deliveryMaxAttempts?: number;
  /** Per-attempt time limit (default 5 minutes). */
  timeoutMs?: number;
  /**
   * The running process's home (keys) and blob store; without them a job uses the home it was submitted
   * from (its payload's reportDir) and that home's files: one box, as in tests and benchmarks.
   */
  files?: { home: string; blobs?: BlobStore };
}
