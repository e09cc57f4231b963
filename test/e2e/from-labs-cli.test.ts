/**
 * `assay report from-labs` and `report generate` given a FHIR Bundle, through the built CLI in a real home:
 * three PDFs of one invented person at three dates become one report with three events; the request
 * written beside it scores the same with `assay score`; the Bundle of the same PDFs gives the same report;
 * conflicts and unusable results are listed; the date of birth is nowhere.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR } from '../../fixtures/labs/generate.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { pageTexts } from '../report/support/pdf.js';
import { startReceiver } from '../report/support/receiver.js';
import { assay, assayMany, type CliResult, json } from './cli.js';

const DOB = '1963-08-19';
/** The same date as a lab prints it, and without separators. */
const DOB_FORMS = [DOB, '08/19/1963', '19630819'];
const YEARS = [2023, 2024, 2025] as const;
const pdfs = YEARS.map((y) => join(FIXTURE_DIR, `quest-trend-${y}.pdf`));
const SLOW = 180_000;

interface FromLabsJson {
  files: Array<{ file: string; kind: string; status: string; results: number; dob_mismatch: boolean }>;
  events: Array<{ health_event_id: string; date: string; predictors: number; sources: string[] }>;
  conflicts: Array<{ date: string; code: string; readings: Array<{ value: string; source: string }> }>;
  unusable: Array<{ source: string; code: string | null; reason: string; in_request: boolean }>;
  left_out: Array<{ observation_code: string; why: string }>;
  request: string;
  report: { status: string; out_pdf: string; out_json: string };
}

interface ReportModelJson {
  asof: string;
  events: Array<{
    health_event_id: string;
    event_age: number;
    domains: Array<{ domain: string; health_score: number | null }>;
  }>;
  [member: string]: unknown;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every file under a folder, recursively (the home: SQLite file, WAL, kept files). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('assay report from-labs', () => {
  const home = tmpHome('assay-e2e-from-labs-');
  // The profile test's callback receiver listens on loopback: this process delivers, so it must allow it.
  const env = { ASSAY_HOME: join(home.dir, 'home'), ASSAY_ALLOW_PRIVATE_TARGETS: 'true' };
  const outPdfs = join(home.dir, 'from-pdfs');
  const outFhir = join(home.dir, 'from-fhir');
  const runs: CliResult[] = [];
  let fromPdfs: FromLabsJson;

  const run = async (args: string[]): Promise<CliResult> => {
    const r = await assay(args, env);
    runs.push(r);
    return r;
  };

  beforeAll(async () => {
    const r = await run([
      'report',
      'from-labs',
      ...pdfs,
      '--dob',
      DOB,
      '--sex',
      'female',
      '--out',
      outPdfs,
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    fromPdfs = json<FromLabsJson>(r);
  }, SLOW);
  afterAll(() => home.cleanup());

  it('makes one event per collection date, and a full report whose trends page shows the three', async () => {
    expect(fromPdfs.files.map((f) => [f.kind, f.status, f.dob_mismatch])).toEqual(
      YEARS.map(() => ['pdf', 'completed', false]),
    );
    expect(fromPdfs.events.map((e) => e.date)).toEqual(['2023-02-14', '2024-02-20', '2025-02-18']);
    expect(fromPdfs.events.map((e) => e.sources)).toEqual(YEARS.map((y) => [`quest-trend-${y}.pdf`]));
    expect(fromPdfs.conflicts).toEqual([]);
    expect(fromPdfs.report.status).toBe('completed');

    const pages = await pageTexts(readFileSync(fromPdfs.report.out_pdf));
    const trends = pages.find((p) => p.includes('Trends over time'));
    expect(trends, 'a trends page').toBeDefined();
    expect(trends?.replace(/\s+/g, ' ')).toMatch(/3 visits from Feb 2023 to Feb 2025/);
  });

  it(
    'writes the request beside the report, with ages and not the date of birth, and it scores the same',
    async () => {
      expect(fromPdfs.request).toBe(join(outPdfs, 'health-report.request.json'));
      const request = readJson<{
        report_metadata: { sex: string };
        health_events: Array<{
          health_event_id: string;
          event_age: number;
          predictors: Array<{ observation_code: string; value: string; unit: string }>;
        }>;
      }>(fromPdfs.request);
      expect(request.report_metadata.sex).toBe('female');
      // Whole years at the first event (59 on 2023-02-14), the true spacing after it.
      expect(request.health_events.map((e) => e.event_age)).toEqual([59, 60.02, 61.01]);
      const cholesterol = request.health_events[0]?.predictors.find((p) => p.observation_code === '2093-3');
      expect(cholesterol?.unit).toBe('mg/dL');
      expect(cholesterol?.value).toMatch(/^\d+$/);

      const score = await run(['score', fromPdfs.request, '--json']);
      expect(score.exitCode, score.stderr).toBe(0);
      const model = readJson<ReportModelJson>(fromPdfs.report.out_json);
      expect(json<{ events: unknown[] }>(score).events).toEqual(model.events);
      const overall = model.events.map((e) => e.domains.find((d) => d.domain === 'overall')?.health_score);
      expect(overall.every((s) => typeof s === 'number')).toBe(true);
    },
    SLOW,
  );

  it(
    'a FHIR Bundle of the same PDFs, read by report generate, gives the same report model',
    async () => {
      const extract = await run([
        'lab',
        'extract',
        ...pdfs,
        '--format',
        'fhir',
        '--out',
        join(home.dir, 'fhir'),
      ]);
      expect(extract.exitCode, extract.stderr).toBe(0);
      const bundles = YEARS.map((y) => join(home.dir, 'fhir', `quest-trend-${y}.fhir.json`));
      // One Bundle holding every result, as `lab extract --format fhir > bundle.json` writes it.
      const merged = {
        resourceType: 'Bundle',
        type: 'collection',
        entry: bundles.flatMap((b) => readJson<{ entry: unknown[] }>(b).entry),
      };
      const bundle = join(home.dir, 'labs.fhir.json');
      writeFileSync(bundle, JSON.stringify(merged));

      const r = await run([
        'report',
        'generate',
        bundle,
        '--dob',
        DOB,
        '--sex',
        'female',
        '--out',
        outFhir,
        '--json',
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      const generated = json<{
        reports: Array<{
          status: string;
          out_json: string;
          from_labs: { events: unknown[]; request: string };
        }>;
      }>(r).reports[0];
      expect(generated?.status).toBe('completed');
      expect(generated?.from_labs.events).toEqual(
        fromPdfs.events.map((e) => ({ ...e, sources: ['labs.fhir.json'] })),
      );
      expect(generated?.from_labs.request).toBe(join(outFhir, 'labs.request.json'));

      const { asof: _a, ...fromBundle } = readJson<ReportModelJson>(generated?.out_json as string);
      const { asof: _b, ...fromPdf } = readJson<ReportModelJson>(fromPdfs.report.out_json);
      expect(fromBundle).toEqual(fromPdf);
    },
    SLOW,
  );

  it(
    'merges one date across files, reports conflicting values and lists what the scoring cannot use',
    async () => {
      const base = readJson<{
        panels: Array<{
          panelName: string;
          dateCollected: string;
          panelResults: Array<Record<string, unknown>>;
        }>;
      }>(join(FIXTURE_DIR, 'quest-trend-2024.expected.json'));
      const a = join(home.dir, 'same-day-a.json');
      writeFileSync(a, JSON.stringify(base));
      const lipids = base.panels.find((p) => p.panelName.startsWith('LIPID'));
      const cholesterol = lipids?.panelResults.find((r) => r.loincCode === '2093-3') as Record<
        string,
        unknown
      >;
      const result = (over: Record<string, unknown>) => ({ ...cholesterol, ...over });
      const b = join(home.dir, 'same-day-b.json');
      writeFileSync(
        b,
        JSON.stringify({
          ...base,
          panels: [
            {
              ...lipids,
              panelResults: [
                result({ resultValue: String(Number(cholesterol.resultValue) + 17) }),
                result({
                  biomarker: 'INSULIN',
                  loincCode: '20448-7',
                  resultValue: '7',
                  resultUnit: 'mg',
                  ucumCode: 'mg',
                }),
                result({ biomarker: 'MYSTERY MARKER', loincCode: null, resultValue: '3' }),
              ],
            },
            {
              ...lipids,
              dateCollected: '',
              panelResults: [result({ biomarker: 'UNDATED', loincCode: '2085-9' })],
            },
          ],
        }),
      );
      const r = await run([
        'report',
        'from-labs',
        a,
        b,
        '--dob',
        DOB,
        '--sex',
        'female',
        '--no-smoker',
        '--out',
        join(home.dir, 'same-day'),
        '--json',
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      const out = json<FromLabsJson>(r);
      expect(out.files.map((f) => f.kind)).toEqual(['extraction', 'extraction']);
      expect(out.events.map((e) => [e.date, e.sources])).toEqual([
        ['2024-02-20', ['same-day-a.json', 'same-day-b.json']],
      ]);
      expect(out.conflicts).toEqual([
        {
          date: '2024-02-20',
          code: '2093-3',
          name: cholesterol.biomarker,
          readings: [
            { value: String(cholesterol.resultValue), unit: 'mg/dL', source: 'same-day-a.json' },
            { value: String(Number(cholesterol.resultValue) + 17), unit: 'mg/dL', source: 'same-day-b.json' },
          ],
        },
      ]);
      const reasons = (reason: string) => out.unusable.filter((u) => u.reason === reason);
      expect(reasons('conflict').map((u) => [u.source, u.in_request])).toEqual([
        ['same-day-a.json', false],
        ['same-day-b.json', false],
      ]);
      expect(reasons('unit_not_convertible').map((u) => [u.code, u.in_request])).toEqual([['20448-7', true]]);
      expect(reasons('no_loinc').map((u) => u.source)).toEqual(['same-day-b.json']);
      expect(reasons('no_date').map((u) => u.code)).toEqual(['2085-9']);
      expect(reasons('not_a_scoring_input').length).toBeGreaterThan(10);

      const request = readJson<{
        report_metadata: { smoker: boolean };
        health_events: Array<{
          predictors: Array<{ observation_code: string; doubts?: Array<{ code: string }> }>;
        }>;
      }>(out.request);
      expect(request.report_metadata.smoker).toBe(false);
      const predictors = request.health_events[0]?.predictors ?? [];
      // Both readings of the conflict are carried, doubted as a conflict, so the report can list them.
      const conflicting = predictors.filter((p) => p.observation_code === '2093-3');
      expect(conflicting.map((p) => p.doubts?.map((d) => d.code))).toEqual([['conflict'], ['conflict']]);
      expect(predictors.map((p) => p.observation_code)).toContain('20448-7');
      expect(out.left_out.filter((v) => v.observation_code === '2093-3').map((v) => v.why)).toEqual([
        'two different values on one date',
        'two different values on one date',
      ]);

      const text = await run([
        'report',
        'from-labs',
        a,
        b,
        '--dob',
        DOB,
        '--sex',
        'female',
        '--out',
        join(home.dir, 'same-day'),
      ]);
      expect(text.stdout).toMatch(/Conflicts: one code, one date, different values \(neither used\)/);
      expect(text.stdout).toContain(
        `2024-02-20  2093-3 ${cholesterol.biomarker}: ${cholesterol.resultValue} mg/dL (same-day-a.json) vs`,
      );
      expect(text.stdout).toMatch(/1 result, a unit that does not convert to the model's unit: INSULIN/);
    },
    SLOW,
  );

  it('without --dob or --sex, or with a Bundle and no --dob, it stops with a usage error', async () => {
    // Refused before any work: one spawned run, the other two run many to one child process.
    const noDob = await run(['report', 'from-labs', pdfs[0] as string, '--sex', 'female', '--out', home.dir]);
    expect(noDob.exitCode).toBe(2);
    expect(noDob.stderr).toMatch(/Missing required flag dob/);
    const bundle = join(home.dir, 'labs.fhir.json');
    const [noSex, generate] = (await assayMany(
      [
        ['report', 'from-labs', pdfs[0] as string, '--dob', DOB, '--out', home.dir],
        ['report', 'generate', bundle, '--out', home.dir],
      ],
      env,
    )) as [CliResult, CliResult];
    runs.push(noSex, generate);
    expect(noSex.exitCode).toBe(2);
    expect(noSex.stderr).toMatch(/--sex female\|male/);
    expect(generate.exitCode).toBe(2);
    expect(generate.stderr).toMatch(/FHIR Bundle of lab results/);
  });

  it(
    "sends the report where the profile says, and keeps the profile's credential out of the request file",
    async () => {
      const receiver = await startReceiver();
      try {
        const token = 'profile-secret-7f3a';
        const profile = join(home.dir, 'me.json');
        writeFileSync(
          profile,
          JSON.stringify({
            statin: true,
            configuration: { callback_url: `${receiver.url}/done`, auth_type: 'bearer', auth_token: token },
          }),
        );
        const input = join(FIXTURE_DIR, 'quest-trend-2025.expected.json');
        const out = join(home.dir, 'profiled');
        const r = await run([
          'report',
          'from-labs',
          input,
          '--dob',
          DOB,
          '--sex',
          'female',
          '--profile',
          profile,
          '--out',
          out,
          '--json',
        ]);
        expect(r.exitCode, r.stderr).toBe(0);
        const put = receiver.requests.find((q) => q.method === 'PUT');
        const post = receiver.requests.find((q) => q.method === 'POST');
        expect(put?.body.subarray(0, 5).toString()).toBe('%PDF-');
        expect(post?.headers.authorization).toBe(`Bearer ${token}`);
        const written = readFileSync(join(out, 'health-report.request.json'), 'utf8');
        expect(written).not.toContain(token);
        expect(written).not.toContain(receiver.url);
        expect(JSON.parse(written).report_metadata.statin).toBe(true);
      } finally {
        await receiver.close();
      }
    },
    SLOW,
  );

  // Last: it greps what every test above printed and wrote.
  it('the date of birth is in no output, no file written, nothing in the home, and no PHI of the PDFs either', () => {
    const phi = YEARS.flatMap((y) => readJson<string[]>(join(FIXTURE_DIR, `quest-trend-${y}.phi.json`)));
    expect(runs.length).toBeGreaterThanOrEqual(7);
    for (const r of runs) {
      for (const form of DOB_FORMS) expect(`${r.stdout}\n${r.stderr}`).not.toContain(form);
    }
    const written = filesUnder(home.dir).filter((f) => statSync(f).size > 0);
    expect(written.some((f) => f.endsWith('.sqlite') || f.endsWith('.db'))).toBe(true);
    for (const file of written) {
      const text = readFileSync(file).toString('latin1');
      for (const form of DOB_FORMS)
        expect(text.includes(form), `${file} holds the date of birth`).toBe(false);
      if (/\.(json|pdf)$/.test(file) || file.includes(`${join(home.dir, 'home')}`))
        for (const value of phi) expect(text.includes(value), `${file} holds PHI`).toBe(false);
    }
  });
});
