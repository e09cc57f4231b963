/**
 * The inputs of `report from-labs`: lab PDFs, extraction JSON (what `lab extract --out` writes), FHIR
 * Bundles (what `lab extract --format fhir` writes), or folders of them. Every completed extraction is
 * turned into a Bundle by the same writer `lab extract` uses and read back, so whatever the input, the
 * results reach the request builder the same way.
 */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { LabStatusBody } from '../../lab/job/status-body.js';
import { toFhirBundle } from '../../lab/output/fhir.js';
import type { ExtractionCore } from '../../lab/types.js';
import type { PredictorDoubt } from '../../scoring/types.js';
import { isFhirBundle, type LabResult, resultsOfBundle } from './lab-results.js';

export interface InputFiles {
  pdfs: string[];
  json: string[];
}

/** What became of one input file. */
export interface FileOutcome {
  file: string;
  kind: 'pdf' | 'extraction' | 'fhir' | 'other';
  /** completed, or the lab job's final status (invalid_document, failed ...), or skipped. */
  status: string;
  /** Why a file gave no results (a rejection reason, an error code, not lab results). */
  reason: string | null;
  results: number;
  /** The date of birth printed in the document differs from --dob: perhaps another person's report. */
  dob_mismatch: boolean;
}

export interface ReadFile {
  outcome: FileOutcome;
  results: LabResult[];
}

const isPdf = (f: string) => extname(f).toLowerCase() === '.pdf';
/** What this command and `report generate` write next to their reports: never lab results. */
const isOwnOutput = (f: string) => /\.(report|request)\.json$/i.test(f);
const isJson = (f: string) => extname(f).toLowerCase() === '.json' && !isOwnOutput(f);

/**
 * Files as given, and the PDFs and JSON files directly inside each folder, in a stable order. Only regular
 * files are read: a FIFO, a socket or a device (given, or found in a folder) would block or never end.
 */
export async function collectInputs(paths: readonly string[]): Promise<InputFiles> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info) throw new UsageError(`No such file or folder: ${path}`);
    if (info.isFile()) files.push(path);
    else if (!info.isDirectory())
      throw new UsageError(`${path} is not a regular file or a folder (a pipe or a device?).`);
    else {
      const named = (await readdir(path)).filter((f) => isPdf(f) || isJson(f)).sort();
      for (const f of named) {
        const inner = await stat(join(path, f)).catch(() => null);
        if (inner?.isFile()) files.push(join(path, f));
      }
    }
  }
  if (files.length === 0)
    throw new UsageError('No lab PDFs or JSON files in the folders given.', [
      'assay report from-labs labs/ --dob 1970-01-31 --sex female --out report/',
    ]);
  return { pdfs: files.filter(isPdf), json: files.filter((f) => !isPdf(f)) };
}

/** A lab job's status body (from a PDF just extracted, or an extraction JSON file) as results. */
export function readExtraction(file: string, body: LabStatusBody, kind: 'pdf' | 'extraction'): ReadFile {
  if (body.status !== 'completed' || !('panels' in body)) {
    const reason =
      'rejection_reason' in body && body.rejection_reason
        ? body.rejection_reason
        : 'error' in body && body.error
          ? body.error.code
          : null;
    return { outcome: outcome(file, kind, body.status, reason, 0), results: [] };
  }
  const core = body as ExtractionCore;
  const results = extractionResults(file, core);
  return {
    outcome: {
      ...outcome(file, kind, 'completed', null, results.length),
      dob_mismatch: core.verification?.dobMatches === false,
    },
    results,
  };
}

/**
 * The results of a completed extraction, through the Bundle writer. A file that only looks like one (its
 * panels not objects, a name that is a list nested 100,000 deep) is a usage error naming the file, with
 * none of its content and no stack.
 */
function extractionResults(file: string, core: ExtractionCore): LabResult[] {
  try {
    // Extractions of this version carry each row's doubts, which the Bundle writer turns into preliminary
    // Observations; older ones only list flags, matched to rows here.
    const rowsCarryDoubts = core.panels.some((p) => p.panelResults.some((r) => Array.isArray(r.doubts)));
    const doubts = rowsCarryDoubts ? [] : rowDoubts(core);
    // The Bundle writer emits one Observation per result, panel by panel, in order: doubts align by index.
    return resultsOfBundle(toFhirBundle([{ source: basename(file), result: core }]), basename(file)).map(
      (r, i) => (doubts[i]?.length ? { ...r, doubts: doubts[i] } : r),
    );
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${file} is not an extraction this version can read (its panels or results are not as \`lab extract --out\` writes them).`,
    );
  }
}

/**
 * Each result's doubts in an extraction written before rows carried them: the warnings it raised. Flags name the biomarker and its page
 * (src/lab/pipeline/table/doubts.ts), so a flag is matched to every row of that name on that page: when a name
 * repeats on a page, each of its rows carries the doubt rather than none.
 */
function rowDoubts(core: ExtractionCore): PredictorDoubt[][] {
  const warnings = core.validationFlags.filter((f) => f.severity !== 'info');
  return core.panels.flatMap((panel) =>
    panel.panelResults.map((r) =>
      warnings
        .filter((f) => f.pageNumber === r.pageNumber && f.message.startsWith(`${r.biomarker} `))
        .map((f) => ({ code: f.code, message: f.message })),
    ),
  );
}

/** An extraction JSON file or a FHIR Bundle, told apart by content. */
export function readJsonInput(file: string): ReadFile {
  const json = readJsonText(file);
  if (isFhirBundle(json)) {
    const results = resultsOfBundle(json, basename(file));
    return { outcome: outcome(file, 'fhir', 'completed', null, results.length), results };
  }
  if (isExtraction(json))
    return readExtraction(file, { status: 'completed', ...json } as LabStatusBody, 'extraction');
  if (isStatusBody(json)) return readExtraction(file, json, 'extraction');
  return { outcome: outcome(file, 'other', 'skipped', 'not_lab_results', 0), results: [] };
}

/**
 * The file's JSON. An error says which file and where, never what it holds: the path may name (or link to)
 * a file that is not the user's lab results at all, and JSON.parse's message quotes the bytes it met.
 */
function readJsonText(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file} (${(error as { code?: string }).code ?? 'error'}).`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new UsageError(`${file} is not valid JSON${at === undefined ? '' : ` (at byte ${at})`}.`);
  }
}

/** A completed extraction: SPEC.md B3 results, with or without the job's id and status. */
function isExtraction(json: unknown): json is Omit<ExtractionCore, 'status'> {
  if (typeof json !== 'object' || json === null) return false;
  const o = json as { panels?: unknown; status?: unknown };
  return Array.isArray(o.panels) && (o.status === undefined || o.status === 'completed');
}

/** The status body of a lab job that did not complete (rejected, failed ...). */
function isStatusBody(json: unknown): json is LabStatusBody {
  if (typeof json !== 'object' || json === null) return false;
  const o = json as { jobId?: unknown; status?: unknown };
  return typeof o.jobId === 'string' && typeof o.status === 'string';
}

function outcome(
  file: string,
  kind: FileOutcome['kind'],
  status: string,
  reason: string | null,
  results: number,
): FileOutcome {
  return { file, kind, status, reason, results, dob_mismatch: false };
}
