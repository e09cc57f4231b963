/**
 * What `assay review` was given, as documents to review: a result file (reviewed beside it), a lab job id
 * (reviewed in the store), or PDFs and folders of PDFs, extracted first through the engine exactly as
 * `lab extract` does and then reviewed as their jobs, with the PDF at hand for page images.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { waitWithProgress } from '../cli/progress.js';
import type { Engine } from '../engine/engine.js';
import { NotFoundError, UsageError } from '../errors.js';
import { collectPdfs, isPdf } from '../lab/batch/files.js';
import { submitLabFile } from '../lab/job/kind.js';
import { labStatusBody } from '../lab/job/status-body.js';
import { isJobId } from './job-reviews.js';
import type { PdfSource } from './page-image.js';
import { fileReviewDoc, jobReviewDoc, type ReviewDoc } from './review-doc.js';

export type InputKind = 'pdf' | 'folder' | 'result' | 'job';

export interface OpenOptions {
  home: string;
  /** Opened only when an input needs the store (a job id, a PDF to extract). */
  engine: () => Promise<Engine>;
  /** A PDF to render pages from for a single result file or job (whose uploads are gone). */
  pdf?: string;
  anyLab?: boolean;
  /** Start the extraction workers (PDF inputs); the caller stops them with the engine. */
  startWorkers: (engine: Engine) => void;
  quiet?: boolean;
}

export interface OpenedReview {
  docs: ReviewDoc[];
  /** PDFs whose extraction did not complete: nothing to review; said, not fatal, unless all failed. */
  skipped: Array<{ file: string; status: string }>;
}

export async function inputKind(input: string): Promise<InputKind> {
  const info = await stat(input).catch(() => null);
  if (info?.isDirectory()) return 'folder';
  if (info?.isFile()) {
    if (isPdf(input)) return 'pdf';
    if (extname(input).toLowerCase() === '.json') return 'result';
    throw new UsageError(`${input} is neither a PDF nor a result file (.json).`, [
      'assay review report.pdf | result.json | <jobId> | folder/',
    ]);
  }
  if (isJobId(input)) return 'job';
  throw new NotFoundError(`No file, folder or lab job named ${input}.`, [
    'Give a PDF, a result .json, a folder of PDFs or a job id from `assay jobs list --kind lab.extract`.',
  ]);
}

/** The PDF beside a result file (`out/x.json` -> `out/x.pdf`), when there is one. */
async function siblingPdf(resultPath: string): Promise<PdfSource | null> {
  const candidate = join(dirname(resultPath), `${basename(resultPath, extname(resultPath))}.pdf`);
  return (await stat(candidate).catch(() => null))?.isFile() ? { path: candidate } : null;
}

export async function openReviewDocs(inputs: string[], opts: OpenOptions): Promise<OpenedReview> {
  if (inputs.length === 0)
    throw new UsageError('Give a PDF, a result file, a job id or a folder to review.', [
      'assay review report.pdf',
    ]);
  const kinds = await Promise.all(inputs.map(inputKind));
  const givenPdf: PdfSource | null = opts.pdf ? { path: opts.pdf } : null;
  if (givenPdf && inputs.length !== 1)
    throw new UsageError('--pdf goes with one result file or job id.', [
      'assay review out/x.json --pdf x.pdf',
    ]);
  const docs: ReviewDoc[] = [];
  const skipped: OpenedReview['skipped'] = [];
  const pdfs: string[] = [];
  let engine: Engine | null = null;
  const store = async () => {
    engine ??= await opts.engine();
    return engine;
  };
  for (const [i, input] of inputs.entries()) {
    const kind = kinds[i];
    if (kind === 'result')
      docs.push(fileReviewDoc(input, docs.length + 1, givenPdf ?? (await siblingPdf(input))));
    else if (kind === 'job') docs.push(await jobReviewDoc(await store(), input, { pdf: givenPdf }));
    else pdfs.push(input);
  }
  if (pdfs.length > 0) {
    const files = await collectPdfs(pdfs);
    const e = await store();
    opts.startWorkers(e);
    const jobs = [];
    for (const file of files)
      jobs.push(
        await submitLabFile(e, opts.home, {
          pdf: await readFile(file),
          filename: basename(file),
          anyLab: opts.anyLab ?? false,
        }),
      );
    const finished = await waitWithProgress(
      e,
      jobs.map((job, n) => ({ id: job.id, label: basename(files[n] ?? job.id) })),
      { quiet: opts.quiet },
    );
    for (const [n, job] of finished.entries()) {
      const file = files[n] ?? '';
      const body = labStatusBody(job);
      if (body.status === 'completed')
        docs.push(await jobReviewDoc(e, job.id, { label: basename(file), pdf: { path: file } }));
      else skipped.push({ file, status: body.status });
    }
  }
  return { docs, skipped };
}
