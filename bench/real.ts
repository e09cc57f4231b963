/**
 * Extraction accuracy on real lab reports: PDFs kept outside the repo (real people's results), scored
 * against de-identified truth in bench/real/truth/<sha256>.json. Every PDF goes through the built CLI in
 * one child process, as a user runs it; then the outcome of each is compared with its truth, and every
 * byte the run left (output, stdout, stderr, the home) is searched for the patients' identifiers, read
 * from the PDFs at run time. Files are shown by the first 12 hex digits of their sha256, never by name:
 * people name these files after the patient.
 *
 * `npm run bench -- real DIR [--verbose] [--truth DIR] [--keep]`. Without DIR, or with no PDF there that
 * has a truth file, it says so and exits 0. Needs `npm run build` first.
 */

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { z } from 'zod';
import { renderTable } from '../src/cli/table.js';
import { builtPath } from './support/built.js';
import {
  countHits,
  type Identifier,
  type IdentifierCategory,
  identifiersInText,
  pdfLayoutText,
  redact,
} from './support/phi-identifiers.js';
import {
  type ExtractionScore,
  type FoundRow,
  poolScores,
  rowsOf,
  scoreExtraction,
} from './support/score-extraction.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TRUTH_DIR = fileURLToPath(new URL('./real/truth/', import.meta.url));
const CLI_TIMEOUT_MS = 30 * 60_000;
/** The home is read this often while the CLI runs: the WAL holds rows that a checkpoint later removes. */
const HOME_SCAN_MS = 250;

const TARGETS = { f1: 0.95, value: 0.98, unit: 0.98, range: 0.98, loinc: 0.95 };

const truthRow = z.object({
  name: z.string(),
  value: z.string().nullable(),
  unit: z.string().nullable(),
  range: z.string().nullable(),
  flag: z.string().nullable().optional(),
  page: z.number().int().nullable(),
  loinc: z.string().nullable().optional(),
});

const truthFile = z.object({
  sha256: z.string(),
  layout: z.string(),
  pages: z.number().int(),
  expect: z.object({
    status: z.string(),
    labName: z.string().nullable().optional(),
    rejection_reason: z.string().nullable().optional(),
    detected_lab: z.string().nullable().optional(),
  }),
  results: z.array(truthRow),
});

type Truth = z.infer<typeof truthFile>;

interface Doc {
  path: string;
  sha: string;
  /** The sha256's first 12 hex digits: the file's name in the run and in everything printed. */
  id: string;
  truth: Truth;
}

/** What the CLI wrote to --out for one PDF: the lab status body (src/lab/job/status-body.ts). */
interface StatusBody {
  status?: string;
  labName?: string | null;
  rejection_reason?: string | null;
  detected_lab?: string | null;
  panels?: Array<{ panelResults: FoundRow[] }>;
}

export async function run(args: string[] = []): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      verbose: { type: 'boolean', short: 'v', default: false },
      truth: { type: 'string', default: TRUTH_DIR },
      keep: { type: 'boolean', default: false },
    },
  });
  const dir = positionals[0];
  if (!dir || !(await stat(dir).catch(() => null))?.isDirectory()) {
    console.log(
      `real: ${dir ? `no folder ${dir}` : 'no folder given'}; the real lab PDFs are not in the repo, skipped.`,
    );
    return;
  }
  const { docs, skipped } = await loadDocs(dir, values.truth);
  if (docs.length === 0) {
    console.log(
      `real: no PDF in ${dir} has a truth file in ${relative(ROOT, values.truth) || '.'}; skipped.`,
    );
    return;
  }
  builtPath('commands/lab/extract.js', 'real');

  // Read before anything from the run is printed: every printed line passes through redact().
  const identifiers = new Map<string, Identifier[]>();
  for (const doc of docs)
    identifiers.set(doc.id, identifiersInText(await pdfLayoutText(doc.path, await readFile(doc.path))));
  const allIds = [...identifiers.values()].flat();
  const say = (line = '') => console.log(redact(line, allIds));

  const tmp = await mkdtemp(join(tmpdir(), 'assay-bench-real-'));
  try {
    const started = performance.now();
    const cli = await runCli(tmp, docs, allIds);
    const seconds = (performance.now() - started) / 1000;
    say(
      `real: ${docs.length} PDFs through \`assay lab extract\` in ${seconds.toFixed(1)} s (exit code ${cli.exitCode})`,
    );
    if (skipped.length > 0) say(`no truth, skipped: ${skipped.join(', ')}`);
    say();

    const scored = await Promise.all(docs.map(async (doc) => judge(doc, await readBody(tmp, doc))));
    say(renderTable(HEADERS, scored.map(tableRow)));
    if (values.verbose) for (const s of scored) say(details(s));
    say();

    const totals = totalOf(scored.filter((s) => s.doc.truth.expect.status === 'completed'));
    say(totals.line);
    say();

    const phi = await phiReport(tmp, docs, identifiers, cli.duringRun);
    for (const line of phi.lines) say(line);
    say();

    const statusesRight = scored.filter((s) => s.outcomeWrong.length === 0).length;
    say('targets');
    const target = (label: string, ok: boolean | null, figure: string) =>
      say(`  ${ok === null ? 'n/a ' : ok ? 'PASS' : 'FAIL'}  ${label.padEnd(34)} ${figure}`);
    target(`results F1 >= ${TARGETS.f1}`, totals.f1 >= TARGETS.f1, fixed(totals.f1));
    target(`value accuracy >= ${TARGETS.value}`, totals.value >= TARGETS.value, fixed(totals.value));
    target(`unit accuracy >= ${TARGETS.unit}`, totals.unit >= TARGETS.unit, fixed(totals.unit));
    target(`range accuracy >= ${TARGETS.range}`, totals.range >= TARGETS.range, fixed(totals.range));
    target(
      `LOINC >= ${TARGETS.loinc} of rows with a code`,
      totals.loinc === null ? null : totals.loinc >= TARGETS.loinc,
      totals.loinc === null ? 'no truth row has a code' : `${fixed(totals.loinc)} of ${totals.loincRows}`,
    );
    target('every status right', statusesRight === scored.length, `${statusesRight} of ${scored.length}`);
    target('0 PHI strings', phi.hits === 0, `${phi.hits} hits`);
    if (values.keep) say(`\nkept (holds copies of the PDFs; delete it): ${tmp}`);
  } finally {
    if (!values.keep) await rm(tmp, { recursive: true, force: true });
  }
}

async function loadDocs(dir: string, truthDir: string): Promise<{ docs: Doc[]; skipped: string[] }> {
  const names = (await readdir(dir)).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  const docs: Doc[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const path = join(dir, name);
    const sha = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const id = sha.slice(0, 12);
    if (seen.has(sha)) continue;
    seen.add(sha);
    const truthPath = join(truthDir, `${sha}.json`);
    if (!existsSync(truthPath)) {
      skipped.push(id);
      continue;
    }
    const parsed = truthFile.safeParse(JSON.parse(await readFile(truthPath, 'utf8')));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`real: ${relative(ROOT, truthPath)} is not a truth file: ${issues}`);
    }
    if (parsed.data.sha256 !== sha)
      throw new Error(`real: ${relative(ROOT, truthPath)} names another sha256`);
    docs.push({ path, sha, id, truth: parsed.data });
  }
  return { docs, skipped };
}

/**
 * The user's command, on copies named by hash (the originals' names can be the patient's), with oclif's
 * and the project's debug output on (`DEBUG=*`, the only log switch the CLI has) so that it is searched
 * too. Meanwhile the home is searched every HOME_SCAN_MS for what only lives there until a checkpoint.
 */
async function runCli(
  tmp: string,
  docs: readonly Doc[],
  ids: readonly Identifier[],
): Promise<{ exitCode: number | undefined; duringRun: HitTable }> {
  const input = join(tmp, 'in');
  await mkdir(input);
  const files = [];
  for (const doc of docs) {
    const file = join(input, `${doc.id}.pdf`);
    await copyFile(doc.path, file);
    files.push(file);
  }
  const home = join(tmp, 'home');
  const child = execa(
    process.execPath,
    [
      join(ROOT, 'bin/run.js'),
      'lab',
      'extract',
      ...files,
      '--out',
      join(tmp, 'out'),
      '--json',
      '--home',
      home,
    ],
    {
      cwd: ROOT,
      env: { DEBUG: '*' },
      stdin: 'ignore',
      stdout: { file: join(tmp, 'stdout.txt') },
      stderr: { file: join(tmp, 'stderr.txt') },
      reject: false,
      timeout: CLI_TIMEOUT_MS,
    },
  );
  const duringRun: HitTable = new Map();
  let running = true;
  const watcher = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, HOME_SCAN_MS));
      mergeMax(duringRun, await scanTree(tmp, home, ids));
    }
  })();
  const result = await child;
  running = false;
  await watcher;
  return { exitCode: result.exitCode, duringRun };
}

async function readBody(tmp: string, doc: Doc): Promise<StatusBody | null> {
  const text = await readFile(join(tmp, 'out', `${doc.id}.json`), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as StatusBody);
}

interface Judged {
  doc: Doc;
  body: StatusBody | null;
  /** Which expected outcome fields differ: status, rejection_reason, detected_lab, labName. */
  outcomeWrong: string[];
  score: ExtractionScore | null;
}

const loose = (s: string | null | undefined) =>
  (s ?? null)?.replace(/\s+/g, ' ').trim().toLowerCase() ?? null;

function judge(doc: Doc, body: StatusBody | null): Judged {
  const expect = doc.truth.expect;
  const outcomeWrong: string[] = [];
  if (body?.status !== expect.status) outcomeWrong.push('status');
  if (expect.rejection_reason !== undefined && (body?.rejection_reason ?? null) !== expect.rejection_reason)
    outcomeWrong.push('rejection_reason');
  if (expect.detected_lab !== undefined && loose(body?.detected_lab) !== loose(expect.detected_lab))
    outcomeWrong.push('detected_lab');
  if (expect.labName !== undefined && loose(body?.labName) !== loose(expect.labName))
    outcomeWrong.push('labName');
  const scored = expect.status === 'completed' || doc.truth.results.length > 0;
  const score = scored ? scoreExtraction(doc.truth.results, rowsOf(body?.panels ?? [])) : null;
  return { doc, body, outcomeWrong, score };
}

const HEADERS = [
  'FILE',
  'LAYOUT',
  'EXPECTED',
  'ACTUAL',
  'OUTCOME',
  'TRUTH',
  'FOUND',
  'MATCHED',
  'F1',
  'VALUE',
  'UNIT',
  'RANGE',
  'PAGE',
  'LOINC (rows)',
];

const fixed = (n: number) => n.toFixed(3);

function outcome(
  o: { status?: string; rejection_reason?: string | null; detected_lab?: string | null } | null,
): string {
  if (!o?.status) return 'no output';
  const why = [o.rejection_reason, o.detected_lab ? `lab ${o.detected_lab}` : null].filter(Boolean);
  return why.length > 0 ? `${o.status} (${why.join(', ')})` : o.status;
}

function tableRow(j: Judged): Array<string | number | null> {
  const s = j.score;
  const acc = (n: number) => (s && s.matched > 0 ? fixed(n) : '-');
  return [
    j.doc.id,
    j.doc.truth.layout,
    outcome(j.doc.truth.expect),
    outcome(j.body),
    j.outcomeWrong.length === 0 ? 'ok' : `WRONG ${j.outcomeWrong.join(',')}`,
    s?.truth ?? '-',
    s?.found ?? '-',
    s?.matched ?? '-',
    s ? fixed(s.f1) : '-',
    acc(s?.valueAccuracy ?? 0),
    acc(s?.unitAccuracy ?? 0),
    acc(s?.rangeAccuracy ?? 0),
    acc(s?.pageAccuracy ?? 0),
    s?.loincAccuracy === null || s?.loincAccuracy === undefined
      ? '-'
      : `${fixed(s.loincAccuracy)} (${s.loincRows})`,
  ];
}

function details(j: Judged): string {
  const s = j.score;
  const lines = [`${j.doc.id} (${j.doc.truth.layout})`];
  if (j.outcomeWrong.length > 0)
    lines.push(`  outcome: expected ${outcome(j.doc.truth.expect)}, got ${outcome(j.body)}`);
  if (!s) return lines.join('\n');
  const list = (label: string, names: string[]) => {
    if (names.length > 0) lines.push(`  ${label} (${names.length}): ${names.join('; ')}`);
  };
  list('missed', s.missed);
  list('extra', s.extra);
  list(
    'wrong',
    s.wrong.map((w) => `${w.name} ${w.field}: ${JSON.stringify(w.expected)} -> ${JSON.stringify(w.found)}`),
  );
  return lines.join('\n');
}

/** Micro-averaged over files: sums of rows, so a long report weighs more than a short one. */
function totalOf(judged: readonly Judged[]) {
  const p = poolScores(judged.flatMap((j) => (j.score ? [j.score] : [])));
  const line =
    `all ${judged.length} completed-expected files: truth ${p.truth}, found ${p.found}, matched ${p.matched}; ` +
    `precision ${fixed(p.precision)}, recall ${fixed(p.recall)}, F1 ${fixed(p.f1)}; ` +
    `value ${fixed(p.value)}, unit ${fixed(p.unit)}, range ${fixed(p.range)}, page ${fixed(p.page)}, ` +
    `LOINC ${p.loinc === null ? '-' : `${fixed(p.loinc)} of ${p.loincRows}`}`;
  return { ...p, line };
}

/** Hits per scanned file (relative to the run's folder) and identifier category. */
type HitTable = Map<string, Map<IdentifierCategory, number>>;

function mergeMax(into: HitTable, from: HitTable): void {
  for (const [file, counts] of from) {
    const row = into.get(file) ?? new Map<IdentifierCategory, number>();
    for (const [category, n] of counts) row.set(category, Math.max(row.get(category) ?? 0, n));
    into.set(file, row);
  }
}

/** Every file under `dir` read as latin1 bytes (SQLite pages, JSON, logs alike), searched. */
async function scanTree(tmp: string, dir: string, ids: readonly Identifier[]): Promise<HitTable> {
  const table: HitTable = new Map();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    // A file can vanish between listing and reading (the WAL at close).
    const bytes = await readFile(path).catch(() => null);
    if (bytes) table.set(relative(tmp, path), countHits(bytes.toString('latin1'), ids));
  }
  return table;
}

async function phiReport(
  tmp: string,
  docs: readonly Doc[],
  identifiers: ReadonlyMap<string, Identifier[]>,
  duringRun: HitTable,
): Promise<{ hits: number; lines: string[] }> {
  const ids = [...identifiers.values()].flat();
  const table: HitTable = new Map();
  for (const dir of ['out', 'home']) mergeMax(table, await scanTree(tmp, join(tmp, dir), ids));
  for (const file of ['stdout.txt', 'stderr.txt']) {
    const bytes = await readFile(join(tmp, file)).catch(() => Buffer.alloc(0));
    table.set(file, countHits(bytes.toString('latin1'), ids));
  }
  mergeMax(table, duringRun);

  const byCategory = new Map<IdentifierCategory, number>();
  for (const id of ids) byCategory.set(id.category, (byCategory.get(id.category) ?? 0) + 1);
  const none = docs.filter((d) => (identifiers.get(d.id) ?? []).length === 0).map((d) => d.id);
  const lines = [
    `PHI: ${ids.length} identifier strings read from ${docs.length} PDFs (${[...byCategory].map(([c, n]) => `${c} ${n}`).join(', ') || 'none'})`,
  ];
  if (none.length > 0)
    lines.push(`  no labelled identifier found on: ${none.join(', ')} (nothing to search for there)`);
  let hits = 0;
  for (const [file, counts] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
    const found = [...counts].filter(([, n]) => n > 0);
    const total = found.reduce((sum, [, n]) => sum + n, 0);
    hits += total;
    if (total > 0) lines.push(`  ${file}: ${found.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  }
  lines.push(
    `  ${hits} hits in ${table.size} files searched (output, stdout, stderr, home, home during the run)`,
  );
  return { hits, lines };
}
