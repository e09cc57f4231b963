/**
 * Reports from synthetic look-alike histories (fixtures/histories, made-up people): the shapes real
 * histories take, checked on the report model and on the rendered PDF's text.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ReportFromLabs from '../../commands/report/from-labs.js';
import { packageRoot } from '../../src/paths.js';
import { readJsonInput } from '../../src/report/from-labs/inputs.js';
import type { Person } from '../../src/report/from-labs/person.js';
import { buildLabRequest } from '../../src/report/from-labs/request.js';
import { snapshotEvent } from '../../src/report/from-labs/snapshot.js';
import { buildReportModel, domainOf, type ReportModel } from '../../src/report/model/model.js';
import { renderReport } from '../../src/report/pdf/render.js';
import type { FullReportRequest } from '../../src/schemas/report.js';
import { pageTexts } from './support/pdf.js';
import { runCommand } from './support/run-command.js';

const HISTORIES = join(packageRoot(), 'fixtures', 'histories');
const flat = (text: string) => text.replace(/\s+/g, ' ');
/** A code identifier (total_cholesterol, phenoage_calc, systolicBp) has no place on a patient's page. */
const CODE_IDENTIFIER = /\b[a-z]+_[a-z0-9_]+\b|\b[a-z]{3,}[A-Z][a-z]+\b/;

function person(extra: Partial<Person['profile']> = {}): Person {
  return {
    dob: '1971-05-20',
    profile: {
      sex: 'female',
      smoker: false,
      diabetes: false,
      bp_treated: false,
      statin: false,
      parental_diabetes: false,
      ...extra,
    },
  };
}

function history(name: string, p: Person = person()) {
  const dir = join(HISTORIES, name);
  const results = readdirSync(dir)
    .sort()
    .flatMap((f) => readJsonInput(join(dir, f)).results);
  return buildLabRequest(results, p, { asof: '2025-06-01T00:00:00Z' });
}

async function rendered(model: ReportModel) {
  return (await pageTexts(await renderReport(model))).map(flat);
}

describe('a sparse last visit after a rich one', () => {
  const built = history('sparse-last-visit', person({ vitals: { sbp: 118, bmi: 24.2 } }));
  const model = buildReportModel(built.request, 'full');

  it('scores every domain and the biological age as of the latest visit, from values up to 12 months old', () => {
    expect(built.request.report_metadata.lookback_months).toBe(12);
    expect(model.latest.event_date).toBe('2025-05-12');
    expect(model.biological_age).not.toBeNull();
    for (const d of model.latest.domains) expect(d.model, d.domain).not.toBeNull();
    expect(model.latest.input_sources.albumin).toMatchObject({ carried_from: { event_date: '2024-10-07' } });
    // The lipids of the latest visit are its own, and its vitals are from the flags, dated with it.
    expect(model.latest.input_sources.total_cholesterol).toEqual({
      source: 'predictor',
      observation_code: '2093-3',
    });
    expect(model.latest.input_sources.systolic_bp).toEqual({
      source: 'predictor',
      observation_code: '8480-6',
    });
  });

  it('shows the latest value of every biomarker with its date, and the lab range where none is published', () => {
    const albumin = model.biomarkers.find((r) => r.input === 'albumin');
    expect(albumin).toMatchObject({ latest: 46, latest_date: '2024-10-07', latest_is_current: false });
    expect(albumin?.lab_range).toEqual({ low: 36, high: 51 });
    const cholesterol = model.biomarkers.find((r) => r.input === 'total_cholesterol');
    expect(cholesterol).toMatchObject({ latest: 176, previous: 188, latest_is_current: true });
  });

  it('renders dates, plain words and no code identifier', async () => {
    const pages = await rendered(model);
    const all = pages.join(' ');
    expect(pages[0]).toContain('3 visits, Oct 2024 to May 2025');
    expect(pages[0]).toContain('Includes values from 7 Oct 2024');
    expect(all).toContain('Values from earlier visits');
    expect(all).toContain('Albumin: measured 7 Oct 2024');
    expect(all).toContain('lab 36-51');
    // Scored only from values carried from 7 Oct, the overall domain has not changed: age alone moved it.
    const changes = pages.find((p) => p.includes('What changed since your previous event')) ?? '';
    expect(changes).toContain('no new values since 7 Oct 2024');
    expect(all).not.toContain('not published');
    expect(all).not.toMatch(CODE_IDENTIFIER);
  });

  it('a condensed report shows the latest available value of each biomarker, with its date', async () => {
    const event = snapshotEvent(built.request as FullReportRequest);
    const condensed = buildReportModel({ ...built.request, health_event: event }, 'condensed');
    expect(condensed.biological_age).toBe(model.biological_age);
    const page = (await rendered(condensed))[0] ?? '';
    expect(page).toMatch(/Albumin 7 Oct 2024 .*46/);
    expect(page).toContain('176');
    expect(page).not.toMatch(CODE_IDENTIFIER);
  });

  it('with the lookback off, the latest visit stands alone (and says what it lacks)', () => {
    const alone = history('sparse-last-visit', person({ lookback_months: 0 }));
    const m = buildReportModel(alone.request, 'full');
    expect(m.biological_age).toBeNull();
    expect(domainOf(m.latest, 'kidney')?.model).toBeNull();
  });
});

describe('one test from three labs in their own units', () => {
  const model = buildReportModel(history('three-labs').request, 'full');

  it('reads every unit into the model unit, so the row compares like with like', () => {
    const creatinine = model.biomarkers.find((r) => r.input === 'creatinine');
    expect(creatinine?.unit).toBe('mg/dL');
    expect(creatinine?.values.map((v) => (v === null ? null : Math.round(v * 100) / 100))).toEqual([
      0.98, 1.03, 1.01,
    ]);
    const glucose = model.biomarkers.find((r) => r.input === 'glucose');
    expect(Math.round(glucose?.values[1] ?? 0)).toBe(95);
  });

  it('does not reach back past the window: the 2023 visit is too old for the 2024 ones', () => {
    // PhenoAge needs the 2023 visit's CBC; the latest visit is 18 months later.
    expect(model.biological_age).toBeNull();
    expect(domainOf(model.events[0] as typeof model.latest, 'overall')?.model).toBe('phenoage');
  });
});

describe('a value OCR doubted', () => {
  it('stays out of the scores, listed with its date and why; --use-doubtful scores and marks it', async () => {
    const plain = buildReportModel(history('ocr-doubt').request, 'full');
    expect(plain.biological_age).toBeNull();
    expect(plain.excluded).toEqual([
      expect.objectContaining({
        name: 'Albumin',
        date: '2025-02-03',
        value: '45',
        why: 'the scan may have lost a decimal point',
      }),
    ]);
    const text = (await rendered(plain)).join(' ');
    expect(text).toContain('Values left out of the scores');
    expect(text).toContain('Albumin, 3 Feb 2025: 45 g/dL (the scan may have lost a decimal point)');
    expect(text).toContain('450 (?)');
    // Measured but doubted is not "missing": the cards say it was left out.
    expect(text).toContain('Albumin (measured, left out: see Methods)');

    const used = buildReportModel(history('ocr-doubt', person({ use_doubtful: true })).request, 'full');
    expect(used.biological_age).not.toBeNull();
    expect(used.doubtful_used.map((v) => v.name)).toEqual(['Albumin']);
    const usedText = (await rendered(used)).join(' ');
    expect(usedText).toContain('Doubted values used on request');
    expect(usedText).toMatch(/uses a doubted value/i);
  });
});

describe('assay report from-labs on a history', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'assay-history-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const run = (argv: string[]) => runCommand(ReportFromLabs, argv, join(tmp, 'home'));

  it('a single visit with --sbp and --bmi scores cardiovascular, metabolic, kidney and liver', async () => {
    const r = await run([
      join(HISTORIES, 'single-visit'),
      ...[
        '--dob',
        '1968-02-11',
        '--sex',
        'male',
        '--no-smoker',
        '--no-diabetes',
        '--no-bp-treated',
        '--no-statin',
      ],
      ...[
        '--no-parental-diabetes',
        '--sbp',
        '131',
        '--height',
        '178',
        '--weight',
        '84',
        '--out',
        join(tmp, 'one'),
      ],
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      report: { status: string; out_json: string };
      empty_reasons: string[];
    };
    expect(out.report.status).toBe('completed');
    expect(out.empty_reasons).toEqual([]);
    const model = (await import(out.report.out_json, { with: { type: 'json' } })).default as ReportModel;
    for (const name of ['cardiovascular', 'metabolic', 'kidney', 'liver'] as const)
      expect(domainOf(model.latest, name)?.model, name).not.toBeNull();
    const bmi = model.biomarkers.find((row) => row.input === 'bmi');
    expect(bmi?.latest).toBe(26.5);
  });

  it('with nothing to score, exits 1 naming the tests and flags to add, and makes no report', async () => {
    const r = await run([
      join(HISTORIES, 'sparse-last-visit', 'visit-3-sparse.json'),
      ...['--dob', '1971-05-20', '--sex', 'female', '--out', join(tmp, 'empty')],
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Nothing to score');
    expect(r.stderr).toMatch(/Cardiovascular: add .*--sbp/);
    expect(r.stderr).toMatch(/Liver: add the tests aspartate aminotransferase/);
    expect(readdirSync(join(tmp, 'empty'))).toEqual(['health-report.request.json']);
    const allowed = await run([
      join(HISTORIES, 'sparse-last-visit', 'visit-3-sparse.json'),
      ...['--dob', '1971-05-20', '--sex', 'female', '--out', join(tmp, 'empty'), '--allow-empty'],
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(readdirSync(join(tmp, 'empty'))).toContain('health-report.pdf');
  });

  it('refuses vitals in another unit and a lone height', async () => {
    const base = [
      join(HISTORIES, 'single-visit'),
      '--dob',
      '1968-02-11',
      '--sex',
      'male',
      '--out',
      join(tmp, 'bad'),
    ];
    expect((await run([...base, '--height', '1.78', '--weight', '84'])).stderr).toMatch(
      /--height 1.78 is outside 100-250 cm/,
    );
    expect((await run([...base, '--height', '178'])).stderr).toMatch(/--height and --weight together/);
  });
});

describe('doubt words', () => {
  it('has patient words for every doubt extraction can raise on a row', async () => {
    const { ROW_DOUBT_CODES } = await import('../../src/lab/pipeline/table/doubts.js');
    const { doubtWords } = await import('../../src/report/model/excluded.js');
    for (const code of ROW_DOUBT_CODES) expect(doubtWords(code), code).not.toBe(code.replaceAll('_', ' '));
  });
});
