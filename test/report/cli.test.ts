import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ReportGenerate from '../../commands/report/generate.js';
import ReportStatus from '../../commands/report/status.js';
import Score from '../../commands/score.js';
import { Engine } from '../../src/engine/engine.js';
import { createRegistry } from '../../src/kinds.js';
import { watchRequests } from '../../src/report/job/watch.js';
import { FIXTURE_DIR, fixtureJson, fixtureNames } from './support/fixtures.js';
import { runCommand } from './support/run-command.js';

let tmp: string;

/** Run a command class in this process, capturing stdout, stderr and the exit code it sets. */
const run = (command: Parameters<typeof runCommand>[0], argv: string[]) =>
  runCommand(command, argv, join(tmp, 'home'));

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'assay-report-cli-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('assay score', () => {
  it("prints PREVENT's 10-year risks and the model of each domain, and --json carries them", async () => {
    const file = join(FIXTURE_DIR, 'full-no-destination.json');
    const json = await run(Score, [file, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      events: Array<{
        models: Record<string, { value: number; risk_10y: number; risk_30y: number | null }>;
        domains: Array<{ domain: string; model: string | null; model_reason: string }>;
      }>;
    };
    const latest = report.events.at(-1);
    for (const id of ['prevent_total_cvd', 'prevent_ascvd', 'prevent_heart_failure']) {
      expect(latest?.models[id]?.risk_10y).toBeGreaterThan(0);
    }
    const cv = latest?.domains.find((d) => d.domain === 'cardiovascular');
    expect(cv?.model).toBe('prevent_total_cvd');
    expect(cv?.model_reason).toContain('PREVENT');
    expect(latest?.domains.find((d) => d.domain === 'metabolic')?.model).toBe('san_antonio_diabetes_7_5y');

    const text = await run(Score, [file]);
    const pct = (v: number | undefined) => `${((v ?? Number.NaN) * 100).toFixed(1)}%`;
    expect(text.stdout).toContain(
      `PREVENT 10-year risk: total cardiovascular disease ${pct(latest?.models.prevent_total_cvd?.value)}`,
    );
    expect(text.stdout).toContain(`atherosclerotic CVD ${pct(latest?.models.prevent_ascvd?.value)}`);
    expect(text.stdout).toContain(`heart failure ${pct(latest?.models.prevent_heart_failure?.value)}`);
    expect(text.stdout).toContain(`cardiovascular: ${cv?.model_reason}`);
  });
});

describe('assay report generate', () => {
  it('writes <name>.pdf and <name>.report.json with --out and prints the A3 records under --json', async () => {
    const out = join(tmp, 'out');
    const file = join(FIXTURE_DIR, 'full-no-destination.json');
    const res = await run(ReportGenerate, [file, '--out', out, '--json', '--concurrency', '1']);
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout) as { reports: Array<Record<string, unknown>> };
    expect(body.reports).toHaveLength(1);
    expect(body.reports[0]).toMatchObject({ status: 'completed', variant: 'full', error_type: null });
    expect(readFileSync(join(out, 'full-no-destination.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const model = JSON.parse(readFileSync(join(out, 'full-no-destination.report.json'), 'utf8'));
    expect(model.events).toHaveLength(2);
    expect(JSON.stringify(model)).not.toContain('synthetic-user-004');

    const status = await run(ReportStatus, [String(body.reports[0]?.job_id), '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ job_id: body.reports[0]?.job_id, status: 'completed' });
  });

  it('--no-deliver renders every bundled request to --out and sends nothing, whatever destinations they name', async () => {
    const out = join(tmp, 'out');
    const res = await run(ReportGenerate, [FIXTURE_DIR, '--no-deliver', '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const body = JSON.parse(res.stdout) as {
      reports: Array<{ file: string; status: string; out_pdf: string }>;
    };
    expect(body.reports).toHaveLength(fixtureNames().length);
    for (const r of body.reports) {
      expect(r.status, r.file).toBe('completed');
      expect(readFileSync(r.out_pdf).subarray(0, 5).toString()).toBe('%PDF-');
    }
    const noOut = await run(ReportGenerate, [FIXTURE_DIR, '--no-deliver']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--no-deliver renders to --out only');
  });

  it('--condensed turns a full request into a one-event report', async () => {
    const out = join(tmp, 'out');
    const res = await run(ReportGenerate, [
      join(FIXTURE_DIR, 'full-no-destination.json'),
      '--condensed',
      '--out',
      out,
      '--json',
    ]);
    expect(JSON.parse(res.stdout).reports[0]).toMatchObject({ variant: 'condensed', status: 'completed' });
  });

  it('refuses a request with neither destination nor --out, saying how to fix it', async () => {
    const res = await run(ReportGenerate, [join(FIXTURE_DIR, 'full-no-destination.json')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('has no destination');
    expect(res.stderr).toContain('--out DIR');
  });

  it('names the path of a validation error in the file', async () => {
    const json = fixtureJson('full-no-destination') as { health_events: Array<{ event_age: unknown }> };
    (json.health_events[0] as { event_age: unknown }).event_age = 'forty';
    const file = join(tmp, 'bad.json');
    writeFileSync(file, JSON.stringify(json));
    const res = await run(ReportGenerate, [file, '--out', join(tmp, 'out')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('health_events[0].event_age');
  });

  it('status of an unknown job exits 3', async () => {
    const res = await run(ReportStatus, ['00000000-0000-4000-8000-000000000000']);
    expect(res.code).toBe(3);
  });
});

describe('watch mode', () => {
  it('takes files once fully written and skips them after a restart', async () => {
    const inbox = join(tmp, 'inbox');
    const out = join(tmp, 'out');
    const home = join(tmp, 'home');
    const request = readFileSync(join(FIXTURE_DIR, 'condensed-required-only.json'), 'utf8');
    const json = JSON.parse(request);
    json.report_metadata.configuration = {};

    const session = async (expectLine: RegExp) => {
      const engine = Engine.open(home, createRegistry({ home }));
      engine.startWorker({ concurrency: 1, pollMs: 20 });
      const lines: string[] = [];
      const watcher = watchRequests(engine, {
        dir: inbox,
        home,
        out,
        condensed: false,
        log: (l) => lines.push(l),
      });
      await watcher.ready;
      return {
        lines,
        done: vi.waitFor(() => expect(lines.join('\n')).toMatch(expectLine), {
          timeout: 15_000,
          interval: 50,
        }),
        close: async () => {
          await watcher.close();
          await engine.close();
        },
      };
    };

    rmSync(inbox, { recursive: true, force: true });
    mkdirSync(inbox, { recursive: true });
    const first = await session(/snap: job \S+ completed/);
    writeFileSync(join(inbox, 'snap.json'), JSON.stringify(json));
    await first.done;
    await first.close();
    expect(existsSync(join(out, 'snap.pdf'))).toBe(true);

    const second = await session(/snap: already handled/);
    await second.done;
    await second.close();
  });
});
