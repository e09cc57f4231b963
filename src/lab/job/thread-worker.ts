/**
 * The body of an extraction thread (see thread-pool.ts): runs the pipeline on each task it is sent and
 * reports stages, the outcome or an error. Errors travel as a code and a fixed message only: a parser's
 * own message can quote the document, and the document is full of PHI.
 */
import { parentPort } from 'node:worker_threads';
import { AssayError } from '../../errors.js';
import {
  type PipelineOutcome,
  type PipelineRequest,
  type PipelineStage,
  runPipeline,
} from '../pipeline/pipeline.js';

export interface ThreadTask {
  id: number;
  pdf: Uint8Array;
  request: PipelineRequest;
}

export type ThreadReply =
  | { id: number; type: 'stage'; stage: PipelineStage }
  | { id: number; type: 'pages'; done: number; total: number }
  | { id: number; type: 'done'; outcome: PipelineOutcome }
  | { id: number; type: 'error'; error: { code: string; message: string } };

export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof AssayError) return { code: error.code, message: error.message };
  const name = error instanceof Error ? error.name : 'UnknownError';
  return { code: 'internal_error', message: `Extraction failed unexpectedly (${name}).` };
}

/** Exported for the build, which runs the bundled thread over the fixtures to fill its code cache. */
export async function handle(task: ThreadTask): Promise<ThreadReply> {
  const port = parentPort;
  try {
    const outcome = await runPipeline(task.pdf, task.request, {
      onStage: (stage) => port?.postMessage({ id: task.id, type: 'stage', stage } satisfies ThreadReply),
      onOcrPage: (done, total) =>
        port?.postMessage({ id: task.id, type: 'pages', done, total } satisfies ThreadReply),
    });
    return { id: task.id, type: 'done', outcome };
  } catch (error) {
    return { id: task.id, type: 'error', error: describeError(error) };
  }
}

parentPort?.on('message', (task: ThreadTask) => {
  void handle(task).then((reply) => parentPort?.postMessage(reply));
});
