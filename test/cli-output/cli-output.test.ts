/**
 * Issue #32: each command's `--json` output checked against its schema (src/schemas/cli/) and compared with
 * a snapshot (__snapshots__/<case>.json) in which ids, times, secrets and temporary paths are placeholders.
 * The built CLI (dist/: `npm run build` first) runs in-process, many commands per child process
 * (test/e2e/support/run-many.mjs), over a fresh home and real fixtures: lab PDFs and report requests. A
 * member added to an output fails its strict schema until the schema describes it; a changed value fails
 * the snapshot (review the diff, then `npx vitest run test/cli-output -u`).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as jobs from '../../src/schemas/cli/jobs.js';
import * as keys from '../../src/schemas/cli/keys.js';
import * as lab from '../../src/schemas/cli/lab.js';
import * as misc from '../../src/schemas/cli/misc.js';
import * as refdata from '../../src/schemas/cli/refdata.js';
import * as report from '../../src/schemas/cli/report.js';
import { formatPath } from '../../src/schemas/errors.js';
import { assayMany, type CliResult } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the second batch needs from the first: ids the first printed. */
interface Context {
  out: string;
  ids: Record<string, string>;
}

interface Case {
  /** Also the snapshot's file name. */
  name: string;
  argv: (ctx: Context) => string[];
  /** The exit code; null: not compared (doctor's depends on the machine, review is stopped). */
  exit: number | null;
  schema: z.ZodType;
  /** Members whose values change from run to run (secrets, durations): `<member>` in the snapshot. */
  mask?: string[];
  /** The part of a long output the snapshot keeps (the schema still checks all of it). */
  snapshot?: (json: never) => unknown;
  /** Entries in the order of their placeholders, where the command's own order is not stable. */
  sorted?: boolean;
  /** Facts the snapshot must not merely record (a report that failed would be snapshotted as failed). */
  check?: (json: never, result: CliResult) => void;
}

const MASKED = ['workerId', 'render_seconds', 'bytes', 'sha256'];

/** The first `n` entries of a long list, and how many there are. */
const sample = (list: unknown[], n = 3) => ({ count: list.length, first: list.slice(0, n) });

const NAMES_CSV = [
  'name,unit',
  'LDL-CHOLESTEROL,mg/dL (calc)',
  '"BILIRUBIN, TOTAL",mg/dL',
  'HEMOGLOBIN A1c,% of total Hgb',
  'Glucoze fastin,mg/dL',
  'Zzyzx quotient,',
  '',
].join('\n');

const NMR = 'fixtures/labs/labcorp-v1-nmr-hormones.pdf';

/** On a fresh home, in this order: no case needs an id. */
const FIRST: Case[] = [
  {
    name: 'db-migrate',
    argv: () => ['db', 'migrate', '--json'],
    exit: 0,
    schema: misc.dbMigrateOutputSchema,
  },
  {
    name: 'lab-extract',
    argv: ({ out }) => [
      'lab',
      'extract',
      NMR,
      'fixtures/labs/reject-other-lab.pdf',
      'fixtures/labs/corrupt-truncated.pdf',
      '--out',
      join(out, 'labs'),
      '--format',
      'json,fhir',
      '--explain',
      '--json',
    ],
    exit: 1,
    schema: lab.labExtractOutputSchema,
    check: (json: lab.LabExtractOutput) =>
      expect(json.files.map((f) => f.result.status)).toEqual(['completed', 'invalid_document', 'failed']),
  },
  {
    name: 'lab-extract-reject-phi',
    argv: () => ['lab', 'extract', 'fixtures/labs/phi-heavy-quest.pdf', '--reject-if-phi', '--json'],
    exit: 1,
    schema: lab.labExtractOutputSchema,
  },
  {
    name: 'lab-map',
    argv: () => ['lab', 'map', 'GLUCOSE', '--unit', 'mg/dL', '--json'],
    exit: 0,
    schema: lab.labMapOutputSchema,
  },
  {
    name: 'lab-map-file',
    argv: ({ out }) => ['lab', 'map', '--file', join(out, 'names.csv'), '--json'],
    exit: 0,
    schema: lab.labMapOutputSchema,
  },
  {
    name: 'jobs-demo',
    argv: () => ['jobs', 'demo', '--count', '2', '--work-ms', '0', '--json'],
    exit: 0,
    schema: jobs.jobsDemoOutputSchema,
  },
  {
    name: 'jobs-demo-failing',
    argv: () => ['jobs', 'demo', '--count', '1', '--fail-times', '99', '--work-ms', '0', '--json'],
    exit: 1,
    schema: jobs.jobsDemoOutputSchema,
  },
  {
    name: 'report-generate',
    argv: ({ out }) => [
      'report',
      'generate',
      'fixtures/reports/full-no-destination.json',
      'fixtures/reports/condensed-required-only.json',
      '--no-deliver',
      '--out',
      join(out, 'reports'),
      '--json',
    ],
    exit: 0,
    schema: report.reportGenerateOutputSchema,
    check: (json: report.ReportGenerateOutput) =>
      expect(json.reports.map((r) => [r.status, r.error_message])).toEqual([
        ['completed', null],
        ['completed', null],
      ]),
  },
  {
    name: 'score',
    argv: () => ['score', 'fixtures/reports/full-no-destination.json', '--json'],
    exit: 0,
    schema: misc.scoreOutputSchema,
  },
  {
    name: 'score-condensed',
    argv: () => ['score', 'fixtures/reports/condensed-required-only.json', '--json'],
    exit: 0,
    schema: misc.scoreOutputSchema,
  },
  {
    name: 'refdata-concepts',
    argv: () => ['refdata', 'concepts', '--json'],
    exit: 0,
    schema: refdata.refdataConceptsOutputSchema,
    snapshot: (json: unknown[]) => sample(json),
  },
  {
    name: 'refdata-stats',
    argv: () => ['refdata', 'stats', '--sex', 'female', '--age', '50', '--event-id', 'cli-output', '--json'],
    exit: 0,
    schema: refdata.refdataStatsOutputSchema,
  },
  {
    name: 'refdata-top',
    argv: () => ['refdata', 'top', '--json'],
    exit: 0,
    schema: refdata.refdataTopOutputSchema,
  },
  {
    name: 'refdata-ranges',
    argv: () => ['refdata', 'ranges', '--sex', 'female', '--vendor', 'quest', '--json'],
    exit: 0,
    schema: refdata.refdataRangesOutputSchema,
    snapshot: (json: unknown[]) => sample(json),
  },
  {
    name: 'refdata-sync',
    argv: () => ['refdata', 'sync', '--json'],
    exit: 0,
    schema: refdata.refdataSyncOutputSchema,
  },
  {
    name: 'keys-create',
    argv: () => ['keys', 'create', '--name', 'cli-output', '--json'],
    exit: 0,
    schema: keys.keysCreateOutputSchema,
    mask: ['key', 'webhookSecret'],
  },
  {
    name: 'doctor',
    argv: () => ['doctor', '--json'],
    // What this machine has installed decides ok, each status and each detail: the snapshot keeps the checks.
    exit: null,
    schema: misc.doctorOutputSchema,
    snapshot: (json: misc.DoctorOutput) => json.checks.map((c) => c.check),
    check: (json: misc.DoctorOutput, r: CliResult) => expect(r.exitCode).toBe(json.ok ? 0 : 1),
  },
  {
    name: 'jobs-prune-dry-run',
    argv: () => ['jobs', 'prune', '--older-than', '30', '--dry-run', '--json'],
    exit: 0,
    schema: jobs.jobsPruneOutputSchema,
  },
  {
    // After every command that runs workers here (they run jobs of any kind): `jobs work` runs these two.
    name: 'jobs-demo-no-wait',
    argv: () => ['jobs', 'demo', '--count', '2', '--work-ms', '0', '--no-wait', '--json'],
    exit: 0,
    schema: jobs.jobsDemoOutputSchema,
  },
  {
    name: 'error-not-found',
    argv: () => ['jobs', 'show', 'no-such-job', '--json'],
    exit: 3,
    schema: misc.cliErrorOutputSchema,
  },
];

/** With the ids the first batch printed (Context.ids), in this order. */
const SECOND: Case[] = [
  {
    name: 'lab-status',
    argv: ({ ids }) => ['lab', 'status', ids.labCompleted as string, '--json'],
    exit: 0,
    schema: lab.labStatusBodySchema,
  },
  {
    name: 'lab-status-rejected',
    argv: ({ ids }) => ['lab', 'status', ids.labRejected as string, '--explain', '--json'],
    exit: 0,
    schema: lab.labStatusBodySchema,
  },
  {
    name: 'lab-status-failed',
    argv: ({ ids }) => ['lab', 'status', ids.labFailed as string, '--json'],
    exit: 0,
    schema: lab.labStatusBodySchema,
  },
  {
    name: 'jobs-show',
    argv: ({ ids }) => ['jobs', 'show', ids.demo as string, '--payload', '--json'],
    exit: 0,
    schema: jobs.jobViewSchema,
  },
  {
    name: 'jobs-show-report',
    argv: ({ ids }) => ['jobs', 'show', ids.report as string, '--json'],
    exit: 0,
    schema: jobs.jobViewSchema,
  },
  {
    name: 'jobs-retry',
    argv: ({ ids }) => ['jobs', 'retry', ids.failing as string, '--json'],
    exit: 0,
    schema: jobs.jobViewSchema,
  },
  {
    // The retried job would fail 99 times more: cancelled, it leaves the queue to the two --no-wait jobs.
    name: 'jobs-cancel',
    argv: ({ ids }) => ['jobs', 'cancel', ids.failing as string, '--json'],
    exit: 0,
    schema: jobs.jobViewSchema,
  },
  {
    name: 'jobs-work',
    argv: () => ['jobs', 'work', '--drain', '--json'],
    exit: 0,
    schema: jobs.jobsWorkOutputSchema,
    check: (json: jobs.JobsWorkOutput) => expect(json).toMatchObject({ done: 2, failed: 0 }),
  },
  {
    name: 'keys-revoke',
    argv: ({ ids }) => ['keys', 'revoke', ids.key as string, '--json'],
    exit: 0,
    schema: keys.keysRevokeOutputSchema,
  },
  {
    name: 'keys-list',
    argv: () => ['keys', 'list', '--json'],
    exit: 0,
    schema: keys.keysListOutputSchema,
  },
  {
    name: 'report-status',
    argv: ({ ids }) => ['report', 'status', ids.report as string, '--json'],
    exit: 0,
    schema: report.reportStatusOutputSchema,
  },
  {
    name: 'report-generate-fhir',
    argv: ({ out }) => [
      'report',
      'generate',
      join(out, 'labs', 'labcorp-v1-nmr-hormones.fhir.json'),
      '--dob',
      '1970-01-31',
      '--sex',
      'female',
      '--out',
      join(out, 'fhir-report'),
      '--json',
    ],
    exit: 0,
    schema: report.reportGenerateOutputSchema,
    check: (json: report.ReportGenerateOutput) => expect(json.reports[0]?.status).toBe('completed'),
  },
  {
    // These results score no domain: --allow-empty renders the report anyway, with the reasons.
    name: 'report-from-labs',
    argv: ({ out }) => [
      'report',
      'from-labs',
      join(out, 'labs', 'labcorp-v1-nmr-hormones.json'),
      '--dob',
      '1970-01-31',
      '--sex',
      'female',
      '--allow-empty',
      '--out',
      join(out, 'from-labs'),
      '--json',
    ],
    exit: 0,
    schema: report.reportFromLabsOutputSchema,
    check: (json: report.ReportFromLabsOutput) => expect(json.report?.status).toBe('completed'),
  },
  {
    name: 'jobs-list',
    argv: () => ['jobs', 'list', '--json'],
    exit: 0,
    schema: jobs.jobsListOutputSchema,
    // Each result is checked by the schema and snapshotted by the command that made it: here, its members.
    snapshot: (json: Array<{ result: unknown }>) =>
      json.map((job) => ({
        ...job,
        result: job.result && typeof job.result === 'object' ? Object.keys(job.result) : job.result,
      })),
    // Newest first, and jobs made in the same millisecond by id: in the order of their <id:N> here.
    sorted: true,
  },
  {
    name: 'jobs-prune',
    argv: () => ['jobs', 'prune', '--older-than', '0', '--json'],
    exit: 0,
    schema: jobs.jobsPruneOutputSchema,
  },
];

/** `review` serves until stopped: run in a process of its own, read its JSON, then stopped. */
const REVIEW: Case = {
  name: 'review',
  argv: ({ out }) => ['review', join(out, 'labs', 'labcorp-v1-nmr-hormones.json'), '--no-open', '--json'],
  exit: null,
  schema: misc.reviewOutputSchema,
  mask: ['url'],
};

const CASES = [...FIRST, ...SECOND, REVIEW];

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;

/**
 * Placeholders for what differs from run to run: temporary paths, ids (`<id:N>`, numbered in the order
 * first seen across every output, so one job keeps its number from command to command), ISO times, and
 * the masked members.
 */
function normaliser(paths: Array<[string, string]>) {
  const ids = new Map<string, string>();
  const text = (s: string) => {
    let out = s;
    for (const [path, label] of paths) out = out.split(path).join(label);
    return out
      .replace(UUID, (id) => {
        if (!ids.has(id)) ids.set(id, `<id:${ids.size + 1}>`);
        return ids.get(id) as string;
      })
      .replace(ISO_TIME, '<time>');
  };
  const walk = (value: unknown, mask: ReadonlySet<string>): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map((v) => walk(v, mask));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mask.has(k) && v !== null ? `<${k}>` : walk(v, mask)]),
    );
  };
  return walk;
}

const placeholderNumber = (id: string) => Number(/^<id:(\d+)>$/.exec(id)?.[1] ?? Number.NaN);
const sortByPlaceholder = (list: Array<{ id: string }>) =>
  [...list].sort((a, b) => placeholderNumber(a.id) - placeholderNumber(b.id));

/**
 * A failed parse, one line per issue. Of a union (a lab status body is the extraction result or a status
 * with its reason), the issues of the option that came closest: zod's own message is only "Invalid input".
 */
function explain(issues: readonly z.core.$ZodIssue[], at: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
      return explain(closest, path);
    }
    return [`${formatPath(path)}: ${issue.message}`];
  });
}

const problems = (schema: z.ZodType, value: unknown): string => {
  const parsed = schema.safeParse(value);
  return parsed.success ? '' : explain(parsed.error.issues).join('\n');
};

interface Output {
  result: CliResult;
  json: unknown;
  snapshot: string;
}

function parseStdout(c: Case, r: CliResult): unknown {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${c.name}: stdout is not JSON (exit ${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
  }
}

/** Runs `review`, reads the JSON it prints once the page is up, then stops it. */
async function runReview(argv: string[], env: Record<string, string>): Promise<CliResult> {
  const child = execa(process.execPath, [join(ROOT, 'bin/run.js'), ...argv], {
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    reject: false,
    timeout: 30_000,
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        JSON.parse(stdout);
        resolve();
      } catch {
        // Not all of it yet.
      }
    });
    child.once('exit', (code) => reject(new Error(`review exited (${code}) before its JSON:\n${stderr}`)));
  });
  child.kill('SIGTERM');
  await child;
  return { exitCode: undefined, stdout, stderr };
}

describe('--json output of each command: strict schema and snapshot (built CLI)', () => {
  const home = tmpHome('assay-cli-output-');
  const out = tmpHome('assay-cli-output-out-');
  const env = { ASSAY_HOME: home.dir, ASSAY_LLM_URL: '' };
  const outputs = new Map<string, Output>();
  const jsonOf = <T>(name: string): T => {
    const output = outputs.get(name);
    if (!output) throw new Error(`${name} did not run`);
    return output.json as T;
  };

  beforeAll(async () => {
    writeFileSync(join(out.dir, 'names.csv'), NAMES_CSV);
    mkdirSync(join(out.dir, 'labs'));
    const ctx: Context = { out: out.dir, ids: {} };
    const paths: Array<[string, string]> = [
      [out.dir, '<out>'],
      [realpathSync(out.dir), '<out>'],
      [home.dir, '<home>'],
      [realpathSync(home.dir), '<home>'],
    ];
    const normalise = normaliser(paths);
    const record = (c: Case, result: CliResult) => {
      const json = parseStdout(c, result);
      const kept = c.snapshot ? c.snapshot(json as never) : json;
      let normalised = normalise(kept, new Set([...MASKED, ...(c.mask ?? [])]));
      if (c.sorted) normalised = sortByPlaceholder(normalised as Array<{ id: string }>);
      outputs.set(c.name, { result, json, snapshot: `${JSON.stringify(normalised, null, 2)}\n` });
    };

    const first = await assayMany(
      FIRST.map((c) => c.argv(ctx)),
      env,
    );
    for (const [i, c] of FIRST.entries()) record(c, first[i] as CliResult);
    const extract = jsonOf<lab.LabExtractOutput>('lab-extract');
    const [labCompleted, labRejected, labFailed] = extract.files.map((f) => f.result.jobId);
    Object.assign(ctx.ids, {
      labCompleted,
      labRejected,
      labFailed,
      demo: jsonOf<jobs.JobsDemoOutput>('jobs-demo').jobs[0]?.id,
      failing: jsonOf<jobs.JobsDemoOutput>('jobs-demo-failing').jobs[0]?.id,
      report: jsonOf<report.ReportGenerateOutput>('report-generate').reports[0]?.job_id,
      key: jsonOf<keys.KeysCreateOutput>('keys-create').id,
    });

    // `review` reads only its result file: it runs beside the second batch.
    const [second, review] = await Promise.all([
      assayMany(
        SECOND.map((c) => c.argv(ctx)),
        env,
      ),
      runReview(REVIEW.argv(ctx), env),
    ]);
    for (const [i, c] of SECOND.entries()) record(c, second[i] as CliResult);
    record(REVIEW, review);
  }, 120_000);

  afterAll(() => {
    home.cleanup();
    out.cleanup();
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const output = outputs.get(c.name);
    if (!output) throw new Error(`${c.name} did not run`);
    if (c.exit !== null) expect(output.result.exitCode, output.result.stderr).toBe(c.exit);
    expect(problems(c.schema, output.json)).toBe('');
    c.check?.(output.json as never, output.result);
    await expect(output.snapshot).toMatchFileSnapshot(`__snapshots__/${c.name}.json`);
  });

  it('a member no schema describes fails the check, at any depth', () => {
    /** The output passes; with `extra` added where `at` says, it fails with a message naming it. */
    const failsWithExtra = <T>(schema: z.ZodType, name: string, at: (copy: T) => object | undefined) => {
      const json = jsonOf<T>(name);
      expect(problems(schema, json)).toBe('');
      const copy = structuredClone(json);
      const target = at(copy);
      if (!target) throw new Error(`${name}: nothing to add a member to`);
      Object.assign(target, { extra: 1 });
      expect(problems(schema, copy)).toMatch(/: Unrecognized key: "extra"$/);
    };
    failsWithExtra(jobs.jobsPruneOutputSchema, 'jobs-prune', (json: object) => json);
    failsWithExtra(
      lab.labExtractOutputSchema,
      'lab-extract',
      (json: { files: Array<{ result: { panels?: Array<{ panelResults: object[] }> } }> }) =>
        json.files[0]?.result.panels?.[0]?.panelResults[0],
    );
    // A job's result against its kind's schema; a model's output against its model's.
    failsWithExtra(jobs.jobsDemoOutputSchema, 'jobs-demo', (json: jobs.JobsDemoOutput) => {
      const result = json.jobs[0]?.result;
      return result && typeof result === 'object' ? result : undefined;
    });
    failsWithExtra(
      misc.scoreOutputSchema,
      'score',
      (json: misc.ScoreOutput) => Object.values(json.events[0]?.models ?? {})[0],
    );
    const list = jsonOf<jobs.JobsListOutput>('jobs-list');
    expect(problems(jobs.jobsListOutputSchema, [{ ...list[0], kind: 'new.kind', result: {} }])).toBe(
      '[0].result: no result schema for job kind new.kind: add it to JOB_RESULT_SCHEMAS',
    );
  });
});
