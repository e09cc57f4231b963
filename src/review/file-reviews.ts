/**
 * Reviewing a result file (`lab extract --out` writes `<name>.json`): revisions go to a sidecar
 * `<name>.review.json` beside it and the reviewed result to `<name>.reviewed.json`; the file itself is
 * never rewritten, so what was extracted stays as it was.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readJsonFile } from '../cli/read-json.js';
import { UsageError } from '../errors.js';
import { type AnyResult, applyRevisions, type Revision } from './revisions.js';

interface Sidecar {
  version: 1;
  /** The result file these revisions are about (its name, beside the sidecar). */
  result: string;
  revisions: Revision[];
}

export interface ResultFilePaths {
  result: string;
  sidecar: string;
  reviewed: string;
}

export function resultFilePaths(path: string): ResultFilePaths {
  const name = basename(path).replace(/\.json$/i, '');
  return {
    result: path,
    sidecar: join(dirname(path), `${name}.review.json`),
    reviewed: join(dirname(path), `${name}.reviewed.json`),
  };
}

const notAResult = (path: string, why: string) =>
  new UsageError(`${path} is not a lab result file: ${why}.`, [
    'Give the <name>.json that `assay lab extract --out DIR` writes for a completed extraction.',
  ]);

/** The extraction result in a file, or a usage error (exit 2) saying why it is not one. */
export function readResultFile(path: string): AnyResult {
  if (/\.review(ed)?\.json$/i.test(path))
    throw new UsageError(`${path} is written by review; give the result file it was made from.`);
  const value = readJsonFile(path) as Record<string, unknown> | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw notAResult(path, 'not a JSON object');
  if (typeof value.status === 'string' && value.status !== 'completed')
    throw notAResult(path, `the extraction ended ${value.status}, with no results`);
  if (!Array.isArray(value.panels)) throw notAResult(path, 'it has no panels');
  const panelsOk = value.panels.every(
    (p) =>
      typeof p === 'object' && p !== null && Array.isArray((p as { panelResults?: unknown }).panelResults),
  );
  if (!panelsOk) throw notAResult(path, 'a panel has no panelResults');
  return {
    ...value,
    validationFlags: Array.isArray(value.validationFlags) ? value.validationFlags : [],
  } as AnyResult;
}

export async function readFileRevisions(paths: ResultFilePaths): Promise<Revision[]> {
  let text: string;
  try {
    text = await readFile(paths.sidecar, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return (JSON.parse(text) as Sidecar).revisions ?? [];
}

/** Written under a private name and renamed into place: a reader never sees half a file. */
async function writeWhole(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Add one revision to the sidecar and rewrite `<name>.reviewed.json` from the original and all of them. */
export async function appendFileRevision(
  paths: ResultFilePaths,
  original: AnyResult,
  revision: Revision,
): Promise<Revision[]> {
  const revisions = [...(await readFileRevisions(paths)), revision];
  const sidecar: Sidecar = { version: 1, result: basename(paths.result), revisions };
  await writeWhole(paths.sidecar, sidecar);
  await writeWhole(paths.reviewed, applyRevisions(original, revisions));
  return revisions;
}
