/**
 * `assay review` from its inputs to a running page: open the documents (extracting PDFs first), start the
 * local server, open a browser where there is a display. The command only parses flags and prints.
 */
import type { Engine } from '../engine/engine.js';
import { AssayError, EXIT } from '../errors.js';
import { closeSharedThreadPool } from '../lab/job/thread-pool.js';
import { hasDisplay, openBrowser } from './browser.js';
import { startLocalReview } from './local-server.js';
import { openReviewDocs } from './open-inputs.js';

export interface ReviewOptions {
  inputs: string[];
  home: string;
  openEngine: () => Promise<Engine>;
  pdf?: string;
  anyLab?: boolean;
  port?: number;
  /** Open a browser: true/false from --open/--no-open; undefined = when there is a display. */
  open?: boolean;
  json: boolean;
  concurrency: number;
  leaseMs?: number;
  /** Progress and notes for the user (stderr): never a value from a document. */
  log: (line: string) => void;
}

export interface ReviewSession {
  summary: {
    url: string;
    documents: Array<{ id: string; label: string; reviewed: string | null; pageImages: boolean }>;
    skipped: Array<{ file: string; status: string }>;
  };
  close(): Promise<void>;
}

export async function startReview(opts: ReviewOptions): Promise<ReviewSession> {
  let engine: Engine | null = null;
  let workers = false;
  const closeEngine = async () => {
    if (engine) await engine.close();
    if (workers) await closeSharedThreadPool();
  };
  try {
    const { docs, skipped } = await openReviewDocs(opts.inputs, {
      home: opts.home,
      engine: async () => {
        engine = await opts.openEngine();
        return engine;
      },
      pdf: opts.pdf,
      anyLab: opts.anyLab,
      quiet: opts.json,
      startWorkers: (e) => {
        workers = true;
        e.startWorker({ concurrency: opts.concurrency, leaseMs: opts.leaseMs });
      },
    });
    for (const s of skipped) opts.log(`${s.file}: ${s.status}, nothing to review.`);
    if (docs.length === 0)
      throw new AssayError('nothing_to_review', 'No document completed extraction: nothing to review.', {
        exitCode: EXIT.jobFailed,
        suggestions: ['See why with `assay lab extract <file>`.'],
      });
    const server = await startLocalReview(docs, { port: opts.port });
    if (opts.open ?? (!opts.json && hasDisplay())) openBrowser(server.url);
    return {
      summary: {
        url: server.url,
        documents: docs.map((d) => ({
          id: d.id,
          label: d.label,
          reviewed: d.reviewedPath,
          pageImages: d.pdf !== null,
        })),
        skipped,
      },
      async close() {
        await server.close();
        await closeEngine();
      },
    };
  } catch (error) {
    await closeEngine();
    throw error;
  }
}
