import { basename } from 'node:path';
import type { JobRecord } from '../engine/types.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The `--json` shape of a job in `assay jobs ...`: a versioned contract, so fields are only ever added. */
export function jobView(job: JobRecord, opts: { withPayload?: boolean } = {}) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    state: job.state,
    file: inputFile(job),
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    runAt: iso(job.runAt),
    workerId: job.workerId,
    parentId: job.parentId,
    errorType: job.errorType,
    errorMessage: job.errorMessage,
    result: job.result,
    ...(opts.withPayload ? { payload: job.payload } : {}),
  };
}

export type JobView = ReturnType<typeof jobView>;

/**
 * The name of the input file, for a lab job: the base name the CLI stored with it (`upload.pdf` for server
 * uploads, which keep only the extension), never a path or the document's content.
 */
function inputFile(job: JobRecord): string | null {
  const name = (job.payload as { filename?: unknown } | null)?.filename;
  // The kind by name: importing lab/job.js here would load the extraction modules into every jobs command.
  return job.kind === 'lab.extract' && typeof name === 'string' ? basename(name) : null;
}

/** `jobs show` as text: one line per field, objects (result, payload) as indented JSON under their key. */
export function jobViewLines(view: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(view)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object') lines.push(`${key.padEnd(13)} ${value}`);
    else
      lines.push(
        `${key}:`,
        ...JSON.stringify(value, null, 2)
          .split('\n')
          .map((l) => `  ${l}`),
      );
  }
  return lines;
}
