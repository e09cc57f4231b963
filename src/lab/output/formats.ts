/**
 * `lab extract --format json,fhir,csv`: the outputs of a batch in each format asked for. With --out, one
 * file per PDF and format (<name>.json, <name>.fhir.json, <name>.csv); without it, one document per
 * format on stdout (the JSON summary, one Bundle of every completed PDF, one CSV of every result).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { LabStatusBody } from '../job/status-body.js';
import type { ExtractionCore } from '../types.js';
import { toCsv } from './csv.js';
import { toFhirBundle } from './fhir.js';

export const FORMATS = ['json', 'fhir', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

const EXTENSION: Record<Format, string> = { json: '.json', fhir: '.fhir.json', csv: '.csv' };

export interface Extracted {
  file: string;
  result: LabStatusBody;
}

export interface FormatOptions {
  subject?: string;
}

function completed(items: readonly Extracted[]): Array<{ file: string; result: ExtractionCore }> {
  return items.flatMap((item) =>
    item.result.status === 'completed'
      ? [{ file: basename(item.file), result: item.result as ExtractionCore }]
      : [],
  );
}

/** The document of one format for the whole batch. */
export function render(
  format: Exclude<Format, 'json'>,
  items: readonly Extracted[],
  opts: FormatOptions = {},
): string {
  const done = completed(items);
  if (format === 'csv') return toCsv(done);
  return `${JSON.stringify(
    toFhirBundle(
      done.map(({ file, result }) => ({ source: file, result })),
      opts,
    ),
    null,
    2,
  )}\n`;
}

/**
 * Writes <name><ext> into `dir` for one PDF in one format; returns the path, or null when nothing to write.
 * `name` (output/names.ts) may hold folders, so that two PDFs of a batch never share an output.
 */
export async function writeOne(
  dir: string,
  format: Format,
  item: Extracted & { name?: string },
  opts: FormatOptions = {},
): Promise<string | null> {
  if (format !== 'json' && item.result.status !== 'completed') return null;
  const path = join(dir, `${item.name ?? basename(item.file, extname(item.file))}${EXTENSION[format]}`);
  await mkdir(dirname(path), { recursive: true });
  const text = format === 'json' ? `${JSON.stringify(item.result, null, 2)}\n` : render(format, [item], opts);
  await writeFile(path, text);
  return path;
}

export function parseFormats(values: readonly string[]): Format[] {
  const out = new Set<Format>();
  for (const value of values.flatMap((v) => v.split(','))) {
    const f = value.trim().toLowerCase();
    if (!(FORMATS as readonly string[]).includes(f))
      throw new UsageError(`Unknown output format "${value.trim()}".`, [
        `Formats: ${FORMATS.join(', ')} (several allowed).`,
      ]);
    out.add(f as Format);
  }
  return [...out];
}
