/**
 * Extraction accuracy on real lab reports: PDFs kept outside the repo (real people's results), scored
 * against de-identified truth in bench/real/truth/<sha256>.json. Every PDF goes through the built CLI in
 * one child process, as a user runs it; then the outcome of each is compared with its truth, and every
 * byte the run left (output, stdout, stderr, the home) is searched for the patients' identifiers, read
 * from the PDFs at run time. Files are shown by the first 12 hex digits of their sha256, never by name:
 * people name these files after the patient.
 *
 * `npm run bench -- real DIR... [--any-lab] [--verbose] [--truth DIR] [--keep]`: one or more folders, all
 * run in one CLI process. With `--any-lab` the CLI runs with `--any-lab` and each file is judged against its
 * truth's `anyLab` part (`anyLab.expect`, `anyLab.results`; a file without one keeps its default-mode truth).
 * Figures are also given per group (Quest/Labcorp, other laboratories as text or scans, not lab results,
 * non-English) and split into tuned and held-out files (`heldOut` in the truth). Panel agreement: of the
 * matched rows whose truth names the printed heading (`panel`), how many the run filed under it. Without
 * DIR, or with no PDF there that has a truth file, it says so and exits 0. Needs `npm run build` first.
 *
 * `--as-scans GRADE` (clean-300, noisy-200, poor-150): every PDF with a text layer is first printed as a
 * scan at that grade (support/scan-copy.ts) and the scan is what the CLI reads, judged against the same
 * truth; PDFs that are already images are left out. OCR is then measured on real laboratories' layouts.
 */

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
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
  addRowDoubts,
  type DoubtedRow,
  emptyRowDoubts,
  type RowDoubts,
  rowDoubts,
} from './support/real-doubts.js';
import { SCAN_QUALITY_NAMES, scanCopy } from './support/scan-copy.js';
import type { ScanQuality } from './support/scanned-family.js';
import {
  type ExtractionScore,
  type FoundRow,
  nameKey,
  pairRows,
  poolScores,
  rowsOf,
  scoreExtraction,
} from './support/score-extraction.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TRUTH_DIR = fileURLToPath(new URL('./real/truth/', import.meta.url));
const CLI_TIMEOUT_MS = 30 * 60_000;
/** The home is read this often while the CLI runs: the WAL holds rows that a checkpoint later removes. */
const HOME_SCAN_MS = 250;

const TARGETS = { f1: 0.95, value: 0.98, unit: 0.98, range: 0.98, loinc: 0.95, panel: 0.95 };

const truthRow = z.object({
  name: z.string(),
  value: z.string().nullable(),
  unit: z.string().nullable(),
  range: z.string().nullable(),
  flag: z.string().nullable().optional(),
  page: z.number().int().nullable(),
  loinc: z.string().nullable().optional(),
  /** The heading the row is printed under, as printed (for panel agreement). */
  panel: z.string().nullable().optional(),
});

const expectation = z.object({
  status: z.string(),
  labName: z.string().nullable().optional(),
  rejection_reason: z.string().nullable().optional(),
  detected_lab: z.string().nullable().optional(),
});

const truthFile = z.object({
  sha256: z.string(),
  layout: z.string(),
  pages: z.number().int(),
  heldOut: z.boolean().optional(),
  expect: expectation,
  results: z.array(truthRow),
  anyLab: z.object({ expect: expectation, results: z.array(truthRow).optional() }).optional(),
});

type Truth = z.infer<typeof truthFile>;
type TruthRow = z.infer<typeof truthRow>;
type Expectation = z.infer<typeof expectation>;

/** What one mode expects of a file: the outcome, and the rows when the truth has them. */
interface Expected {
  expect: Expectation;
  results: TruthRow[] | null;
}

/**
 * Default mode: `expect` and `results`. With --any-lab: `anyLab` where the truth has it, whose rows are
 * `anyLab.results`, else `results` when the outcome is the default one's (Quest, Labcorp), else none (a
 * scan or a grid whose rows were not written down: its outcome alone is scored).
 */
function expectedOf(truth: Truth, anyLab: boolean): Expected {
  const completed = (e: Expectation) => e.status === 'completed';
  if (!anyLab)
    return {
      expect: truth.expect,
      results: completed(truth.expect) || truth.results.length > 0 ? truth.results : null,
    };
  if (!truth.anyLab) {
    // Another laboratory's report with no any-lab truth: it should be read, its rows are not written down.
    const e = truth.expect;
    if (anyLab && e.rejection_reason === 'non_supported_lab')
      return { expect: { status: 'completed', labName: e.detected_lab ?? null }, results: null };
    return { expect: e, results: completed(e) || truth.results.length > 0 ? truth.results : null };
  }
  const { expect, results } = truth.anyLab;
  if (results) return { expect, results };
  if (completed(expect) && completed(truth.expect)) return { expect, results: truth.results };
  return { expect, results: null };
}

/** The kind of document, for figures per group. */
function groupOf(truth: Truth): string {
  const e = truth.expect;
  if (e.status === 'completed') return 'Quest/Labcorp';
  if (e.rejection_reason === 'non_supported_lab')
    return /scan|photo/.test(truth.layout) ? 'other lab, scan' : 'other lab, text';
  if (e.rejection_reason === 'non_english_document') return 'non-English';
  return 'not lab results';
}

interface Doc {
  path: string;
  sha: string;
  /** The sha256's first 12 hex digits: the file's name in the run and in everything printed. */
  id: string;
  truth: Truth;
  expected: Expected;
}

/** What the CLI wrote to --out for one PDF: the lab status body (src/lab/job/status-body.ts). */
interface StatusBody {
  status?: string;
  labName?: string | null;
  rejection_reason?: string | null;
  detected_lab?: string | null;
  panels?: Array<{ panelName?: string; panelResults: DoubtedRow[] }>;
}

export async function run(args: string[] = []): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      verbose: { type: 'boolean', short: 'v', default: false },
      truth: { type: 'string', default: TRUTH_DIR },
      keep: { type: 'boolean', default: false },
      'any-lab': { type: 'boolean', default: false },
      'as-scans': { type: 'string' },
    },
  });
  const anyLab = values['any-lab'];
  const asScans = values['as-scans'] ?? null;
  if (asScans !== null && !isScanQuality(asScans))
    throw new Error(`real: --as-scans takes one of ${SCAN_QUALITY_NAMES.join(', ')}, not ${asScans}`);
  const dirs: string[] = [];
  for (const dir of positionals)
    if ((await stat(dir).catch(() => null))?.isDirectory()) dirs.push(dir);
    else console.log(`real: no folder ${dir}, skipped.`);
  if (dirs.length === 0) {
    console.log('real: no folder given; the real lab PDFs are not in the repo, skipped.');
    return;
  }
  const loaded = await loadDocs(dirs, values.truth, anyLab);
  const { skipped } = loaded;
  let { docs } = loaded;
  if (docs.length === 0) {
    console.log(
      `real: no PDF in ${dirs.join(', ')} has a truth file in ${relative(ROOT, values.truth) || '.'}; skipped.`,
    );
    return;
  }
  builtPath('commands/lab/extract.js', 'real');

  // Read before anything from the run is printed: every printed line passes through redact().
  const identifiers = new Map<string, Identifier[]>();
  const images: string[] = [];
  for (const doc of docs) {
    const text = await pdfLayoutText(doc.path, await readFile(doc.path));
    identifiers.set(doc.id, identifiersInText(text));
    if (asScans && !(await hasTextLayer(doc.path))) images.push(doc.id);
  }
  docs = docs.filter((doc) => !images.includes(doc.id));
  const allIds = [...identifiers.values()].flat();
  const say = (line = '') => console.log(redact(line, allIds));

  const tmp = await mkdtemp(join(tmpdir(), 'assay-bench-real-'));
  try {
    const started = performance.now();
    const input = (doc: Doc) =>
      asScans ? readFile(doc.path).then((pdf) => scanCopy(pdf, doc.id, asScans)) : readFile(doc.path);
    const cli = await runCli(tmp, docs, allIds, anyLab, input);
    const seconds = (performance.now() - started) / 1000;
    say(
      `real: ${docs.length} PDFs${asScans ? ` printed as ${asScans} scans` : ''} through \`assay lab extract${anyLab ? ' --any-lab' : ''}\` in ${seconds.toFixed(1)} s (exit code ${cli.exitCode})`,
    );
    if (skipped.length > 0) say(`no truth, skipped: ${skipped.join(', ')}`);
    if (images.length > 0) say(`already images (no text layer to print), left out: ${images.join(', ')}`);
    say();

    const scored = await Promise.all(docs.map(async (doc) => judge(doc, await readBody(tmp, doc))));
    say(renderTable(HEADERS, scored.map(tableRow)));
    if (values.verbose) for (const s of scored) say(details(s));
    say();

    const totals = totalOf(scored.filter((s) => s.doc.expected.expect.status === 'completed'));
    say(totals.line);
    say();
    for (const line of groupLines(scored)) say(line);
    say();

    const phi = await phiReport(tmp, docs, identifiers, cli.duringRun, cli.inputs);
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
    const panels = panelAgreement(scored);
    target(
      `panel as printed >= ${TARGETS.panel}`,
      panels.rows === 0 ? null : panels.right / panels.rows >= TARGETS.panel,
      panels.rows === 0
        ? 'no matched row has a panel in the truth'
        : `${fixed(panels.right / panels.rows)} of ${panels.rows}`,
    );
    target('0 PHI strings', phi.hits === 0, `${phi.hits} hits`);
    if (values.keep) say(`\nkept (holds copies of the PDFs; delete it): ${tmp}`);
  } finally {
    if (!values.keep) await rm(tmp, { recursive: true, force: true });
  }
}

const isScanQuality = (s: string): s is ScanQuality => (SCAN_QUALITY_NAMES as string[]).includes(s);

/** Whether pdftotext finds text on the PDF's pages: a report printed to PDF, not a scan or photo. */
async function hasTextLayer(path: string): Promise<boolean> {
  const { stdout } = await execa('pdftotext', [path, '-'], { reject: false });
  return stdout.replace(/\s+/g, '').length >= 200;
}

async function loadDocs(
  dirs: readonly string[],
  truthDir: string,
  anyLab: boolean,
): Promise<{ docs: Doc[]; skipped: string[] }> {
  const paths: string[] = [];
  for (const dir of dirs)
    for (const name of (await readdir(dir)).sort())
      if (name.toLowerCase().endsWith('.pdf')) paths.push(join(dir, name));
  const docs: Doc[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
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
    docs.push({ path, sha, id, truth: parsed.data, expected: expectedOf(parsed.data, anyLab) });
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
  anyLab: boolean,
  bytesOf: (doc: Doc) => Promise<Uint8Array>,
): Promise<{ exitCode: number | undefined; duringRun: HitTable; inputs: Set<string> }> {
  const input = join(tmp, 'in');
  await mkdir(input);
  const files = [];
  // What the CLI is given (the PDF, or its scanned copy): kept byte for byte in the home, not searched.
  const inputs = new Set<string>();
  for (const doc of docs) {
    const file = join(input, `${doc.id}.pdf`);
    const bytes = await bytesOf(doc);
    inputs.add(createHash('sha256').update(bytes).digest('hex'));
    await writeFile(file, bytes, { mode: 0o600 });
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
      ...(anyLab ? ['--any-lab'] : []),
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
      mergeMax(duringRun, await scanTree(tmp, home, ids, inputs));
    }
  })();
  const result = await child;
  running = false;
  await watcher;
  return { exitCode: result.exitCode, duringRun, inputs };
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
  /** Over matched rows: misreads with and without a doubt. */
  doubts: RowDoubts | null;
}

const loose = (s: string | null | undefined) =>
  (s ?? null)?.replace(/\s+/g, ' ').trim().toLowerCase() ?? null;

function judge(doc: Doc, body: StatusBody | null): Judged {
  const { expect, results } = doc.expected;
  const outcomeWrong: string[] = [];
  if (body?.status !== expect.status) outcomeWrong.push('status');
  if (expect.rejection_reason !== undefined && (body?.rejection_reason ?? null) !== expect.rejection_reason)
    outcomeWrong.push('rejection_reason');
  if (expect.detected_lab !== undefined && loose(body?.detected_lab) !== loose(expect.detected_lab))
    outcomeWrong.push('detected_lab');
  if (expect.labName !== undefined && loose(body?.labName) !== loose(expect.labName))
    outcomeWrong.push('labName');
  const score = results ? scoreExtraction(results, rowsOf(body?.panels ?? [])) : null;
  const doubts = results
    ? rowDoubts(
        results,
        (body?.panels ?? []).flatMap((p) => p.panelResults),
      )
    : null;
  return { doc, body, outcomeWrong, score, doubts };
}

/**
 * Of the matched rows whose truth names the heading printed above them, how many were filed under a panel
 * of that name (compared as names are: without case, spaces or punctuation).
 */
function panelAgreement(judged: readonly Judged[]): { rows: number; right: number; wrong: string[] } {
  let rows = 0;
  let right = 0;
  const wrong: string[] = [];
  for (const j of judged) {
    const truth = j.doc.expected.results ?? [];
    if (!truth.some((t) => t.panel)) continue;
    const panelOf = new Map<FoundRow, string>();
    const found = (j.body?.panels ?? []).flatMap((panel) =>
      rowsOf([panel]).map((row) => {
        panelOf.set(row, panel.panelName ?? '');
        return row;
      }),
    );
    for (const [t, f] of pairRows(truth, found).pairs) {
      // pairRows hands back the truth's own rows.
      const panel = (t as TruthRow).panel;
      if (!panel) continue;
      rows++;
      if (nameKey(panel) === nameKey(panelOf.get(f) ?? '')) right++;
      else wrong.push(`${t.name}: ${JSON.stringify(panel)} -> ${JSON.stringify(panelOf.get(f))}`);
    }
  }
  return { rows, right, wrong };
}

/** Per group of documents, tuned and held-out apart: statuses right and pooled results F1. */
function groupLines(judged: readonly Judged[]): string[] {
  const groups = [...new Set(judged.map((j) => groupOf(j.doc.truth)))].sort();
  const rows: Array<Array<string | number>> = [];
  for (const group of groups)
    for (const heldOut of [false, true]) {
      const members = judged.filter(
        (j) => groupOf(j.doc.truth) === group && (j.doc.truth.heldOut ?? false) === heldOut,
      );
      if (members.length === 0) continue;
      const scores = members.flatMap((j) => (j.score ? [j.score] : []));
      const p = poolScores(scores);
      const d = members.reduce((sum, j) => (j.doubts ? addRowDoubts(sum, j.doubts) : sum), emptyRowDoubts());
      rows.push([
        group,
        heldOut ? 'held out' : 'tuned',
        members.length,
        `${members.filter((j) => j.outcomeWrong.length === 0).length} of ${members.length}`,
        scores.length,
        scores.length === 0 ? '-' : `${p.matched}/${p.truth}/${p.found}`,
        scores.length === 0 ? '-' : fixed(p.f1),
        scores.length === 0 || p.matched === 0 ? '-' : fixed(p.value),
        scores.length === 0 ? '-' : `${d.misreadDoubted} of ${d.misread}`,
        scores.length === 0 ? '-' : `${d.rightDoubted} of ${d.right}`,
      ]);
    }
  const panels = panelAgreement(judged);
  return [
    renderTable(
      [
        'GROUP',
        'SPLIT',
        'FILES',
        'STATUS RIGHT',
        'WITH ROWS',
        'MATCHED/TRUTH/FOUND',
        'F1',
        'VALUE',
        'MISREADS DOUBTED',
        'RIGHT ROWS DOUBTED',
      ],
      rows,
    ),
    panels.rows === 0
      ? 'panels: no matched row has a panel in the truth'
      : `panels: ${panels.right} of ${panels.rows} matched rows under the printed heading (${fixed(panels.right / panels.rows)})`,
  ];
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
    outcome(j.doc.expected.expect),
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
    lines.push(`  outcome: expected ${outcome(j.doc.expected.expect)}, got ${outcome(j.body)}`);
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
  list('panel', panelAgreement([j]).wrong);
  list('misread without a doubt', j.doubts?.silent ?? []);
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
async function scanTree(
  tmp: string,
  dir: string,
  ids: readonly Identifier[],
  inputs: ReadonlySet<string> = new Set(),
): Promise<HitTable> {
  const table: HitTable = new Map();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    // A file can vanish between listing and reading (the WAL at close).
    const bytes = await readFile(path).catch(() => null);
    if (!bytes) continue;
    // The user's own PDF, kept byte for byte while its job runs, holds the identifiers it was read from.
    if (inputs.has(createHash('sha256').update(bytes).digest('hex'))) continue;
    table.set(relative(tmp, path), countHits(bytes.toString('latin1'), ids));
  }
  return table;
}

async function phiReport(
  tmp: string,
  docs: readonly Doc[],
  identifiers: ReadonlyMap<string, Identifier[]>,
  duringRun: HitTable,
  inputs: ReadonlySet<string>,
): Promise<{ hits: number; lines: string[] }> {
  const ids = [...identifiers.values()].flat();
  const table: HitTable = new Map();
  for (const dir of ['out', 'home']) mergeMax(table, await scanTree(tmp, join(tmp, dir), ids, inputs));
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
