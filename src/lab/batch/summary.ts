import { basename } from 'node:path';
import { isFinalLabStatus } from '../job/status-body.js';
import type { FileResult } from './files.js';

/** What an interrupted batch left: counted per input file, as the summary line counts them. */
export interface Interrupted {
  signal: NodeJS.Signals;
  ended: number;
  left: number;
}

export function interruptedCounts(files: readonly FileResult[], signal: NodeJS.Signals): Interrupted {
  const ended = files.filter((f) => isFinalLabStatus(f.result)).length;
  return { signal, ended, left: files.length - ended };
}

/**
 * The batch's last line. Counts are of input files, each of which got its own outputs; identical PDFs,
 * extracted once, are said to be so rather than counted as extractions.
 */
export function batchSummary(files: readonly FileResult[], signal?: NodeJS.Signals): string {
  const completed = files.filter((f) => f.result.status === 'completed').length;
  const jobs = new Set(files.map((f) => f.result.jobId).filter(Boolean)).size;
  const submitted = files.filter((f) => f.result.jobId).length;
  const shared =
    submitted > jobs
      ? ` ${submitted - jobs} identical to another PDF given: extracted once, written for each.`
      : '';
  if (!signal) return `${completed} of ${files.length} PDFs completed.${shared}`;
  const { ended, left } = interruptedCounts(files, signal);
  return (
    `Interrupted (${signal}): ${ended} of ${files.length} PDFs ended, ${completed} completed; ${left} left ` +
    `unfinished. Run the same command again to resume them.${shared}`
  );
}

/**
 * Why each rejected PDF was rejected, one line each (and its evidence with `explain`), printed above the
 * batch's last line: a status code alone leaves a person guessing.
 */
export function rejectionLines(files: readonly FileResult[], explain: boolean): string[] {
  return files.flatMap((f) => {
    const body = f.result;
    const why = 'rejection_detail' in body ? body.rejection_detail : undefined;
    if (!why) return [];
    const evidence = explain && 'rejection_evidence' in body ? (body.rejection_evidence ?? []) : [];
    return [`${basename(f.file)}: ${why}`, ...evidence.map((e) => `    ${e}`)];
  });
}
