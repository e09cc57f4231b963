import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Engine } from '../../engine/engine.js';
import type { JobRecord } from '../../engine/types.js';
import { submitLabFile } from '../../lab/job/kind.js';

/**
 * Each PDF as a lab.extract job, exactly as `lab extract` submits it. The date of birth goes in sealed (the
 * job only compares it with dates printed in the document, to flag another person's report).
 */
export async function submitPdfs(
  engine: Engine,
  home: string,
  files: readonly string[],
  opts: { dateOfBirth: string; anyLab: boolean },
): Promise<JobRecord[]> {
  const jobs: JobRecord[] = [];
  for (const file of files) {
    jobs.push(
      await submitLabFile(engine, home, { pdf: await readFile(file), filename: basename(file), ...opts }),
    );
  }
  return jobs;
}
