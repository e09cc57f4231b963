import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { LabStatusBody } from '../job/status-body.js';

/** What `assay lab extract` reports per input file. */
export interface FileResult {
  file: string;
  /** Where the status body was written, with --out. */
  output: string | null;
  result: LabStatusBody;
}

/** Watch-folder markers: which dropped files are done, so a restarted watcher skips them. */
export function isPdf(file: string): boolean {
  return extname(file).toLowerCase() === '.pdf';
}

/**
 * Files as given, and the PDFs directly inside each folder given, in a stable order. A file named twice
 * (`a.pdf a.pdf`, or a file and its folder) is one input: one row, one set of outputs.
 */
export async function collectPdfs(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(resolve(file))) return;
    seen.add(resolve(file));
    files.push(file);
  };
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (!info) throw new UsageError(`No such file or folder: ${input}`);
    if (info.isDirectory()) {
      const names = (await readdir(input)).filter(isPdf).sort();
      for (const name of names) add(join(input, name));
    } else {
      add(input);
    }
  }
  if (files.length === 0) throw new UsageError('No PDF files found in the folders given.');
  return files;
}

/** One table row; `label` names the file when its base name is not enough (two report.pdf in a batch). */
export function summaryRow(r: FileResult, label = basename(r.file)): Array<string | number | null> {
  const body = r.result;
  if (body.status !== 'completed' || !('panels' in body)) {
    const reason =
      'rejection_reason' in body ? body.rejection_reason : 'error' in body ? body.error?.code : null;
    return [label, reason ? `${body.status} (${reason})` : body.status, null, null];
  }
  const results = body.panels.reduce((n, panel) => n + panel.panelResults.length, 0);
  return [label, body.status, body.panels.length, results];
}

export async function alreadyDone(doneDir: string, file: string): Promise<boolean> {
  const marker = await readFile(join(doneDir, `${basename(file)}.json`), 'utf8').catch(() => null);
  if (!marker) return false;
  const info = await stat(file);
  const seen = JSON.parse(marker) as { size?: number; mtimeMs?: number };
  return seen.size === info.size && seen.mtimeMs === info.mtimeMs;
}

export async function markDone(doneDir: string, file: string, jobId: string): Promise<void> {
  const info = await stat(file);
  await writeFile(
    join(doneDir, `${basename(file)}.json`),
    JSON.stringify({ jobId, size: info.size, mtimeMs: info.mtimeMs }),
  );
}
