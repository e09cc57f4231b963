import { basename, join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { personFlags, personFrom, requiredDob } from '../../src/cli/person-flags.js';
import { waitWithProgress } from '../../src/cli/progress.js';
import { withWorkers } from '../../src/cli/run-workers.js';
import { renderTable } from '../../src/cli/table.js';
import { printDeliveryFailures } from '../../src/delivery/failure-words.js';
import { onDeliveryFailure } from '../../src/delivery/http.js';
import type { Engine } from '../../src/engine/engine.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { labStatusBody } from '../../src/lab/job/status-body.js';
import { emptyReportReasons } from '../../src/report/from-labs/empty.js';
import type { Conflict, Unusable } from '../../src/report/from-labs/events.js';
import { submitPdfs } from '../../src/report/from-labs/extract-pdfs.js';
import {
  collectInputs,
  type FileOutcome,
  type InputFiles,
  type ReadFile,
  readExtraction,
  readJsonInput,
} from '../../src/report/from-labs/inputs.js';
import type { Person } from '../../src/report/from-labs/person.js';
import { buildLabRequest, type EventSummary, requestFileText } from '../../src/report/from-labs/request.js';
import { snapshotEvent } from '../../src/report/from-labs/snapshot.js';
import { conflictLines, unusableLines } from '../../src/report/from-labs/summary.js';
import { writeFileAtomic } from '../../src/report/job/files.js';
import type { ReportJobResult } from '../../src/report/job/payload.js';
import { waitForReport } from '../../src/report/job/status.js';
import { submitReport } from '../../src/report/job/submit.js';
import { excludedValues, type ValueNote } from '../../src/report/model/excluded.js';
import { reviewedResult } from '../../src/review/job-reviews.js';
import {
  type FullReportRequest,
  type ParsedReportRequest,
  type ReportStatusRecord,
  requestEvents,
} from '../../src/schemas/report.js';
import { scoreRequest } from '../../src/scoring/score-request.js';
import type { EventScore } from '../../src/scoring/types.js';

interface FromLabsReport extends ReportStatusRecord {
  variant: string;
  out_pdf: string | null;
  out_json: string | null;
}

interface FromLabsOutput {
  files: FileOutcome[];
  events: EventSummary[];
  conflicts: Conflict[];
  unusable: Unusable[];
  /** Values of scoring inputs left out of the scores (doubted, conflicting, unconvertible), with why. */
  left_out: ValueNote[];
  request: string;
  /** Why nothing could be scored (what to add); empty when something was. */
  empty_reasons: string[];
  /** Null when nothing could be scored and --allow-empty was not given. */
  report: FromLabsReport | null;
}

export default class ReportFromLabs extends EngineCommand<typeof ReportFromLabs> {
  static override summary = 'Build a health report from lab PDFs or lab results, in one command.';
  static override description = [
    'Input: lab report PDFs, extraction JSON files (what `lab extract --out` writes), FHIR R4 Bundles ' +
      '(what `lab extract --format fhir` writes), or folders of them. PDFs are extracted first, as ' +
      '`lab extract` does.',
    'Results are grouped into health events by collection date: one event per date, results of one date ' +
      'from several files merged. Two different values for one LOINC code on one date are a conflict: both ' +
      'are listed and neither is used (never averaged). The report is as of the latest visit: a value it ' +
      'lacks is taken from the most recent earlier visit within --lookback months (default 12; 0: off) and ' +
      'shown with its date; earlier visits are scored the same way. A value extraction doubts (an OCR ' +
      'misreading ...) is left out of the scores and listed, unless --use-doubtful. Blood pressure and body ' +
      'size, which lab reports do not print, come from --sbp, --dbp, --bmi or --height and --weight. ' +
      'Each predictor keeps its LOINC code, its value and ' +
      'its UCUM unit. Ages come from --dob by arithmetic only: the first event carries the whole years ' +
      'completed that day, later events the exact time since, and the date of birth itself is never ' +
      'stored, printed or written.',
    'The report request built is written to <DIR>/<name>.request.json, then the same report job as ' +
      '`report generate` runs and writes <DIR>/<name>.pdf and <DIR>/<name>.report.json (the report model). ' +
      'The request file can be scored with `assay score` or given to `report generate` again.',
    'Output: the files read, the events, the conflicts, and the results the scoring cannot use with why ' +
      '(no date, no LOINC code, a code no model reads, a unit that does not convert ...). With --json, ' +
      '{files, events, conflicts, unusable, left_out, request, empty_reasons, report}. Exit code 0 when the ' +
      'report completed; 1 when it failed, or when nothing could be scored (no domain, no biological age: ' +
      'the reasons say which tests or flags to add; --allow-empty renders it anyway, exit 0); 2 for a usage ' +
      'error (including inputs with no usable result).',
    formatsSee('Report from lab results'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> report from-labs labs/ --dob 1970-01-31 --sex female --out report/',
    '<%= config.bin %> report from-labs a.pdf b.pdf results/c.json --dob 1970-01-31 --sex male --no-smoker',
    '<%= config.bin %> report from-labs labs/ --dob 1970-01-31 --sex male --sbp 128 --bmi 26.4 --lookback 18',
    '<%= config.bin %> report from-labs labs/ --dob 1970-01-31 --sex female --profile me.json --json',
  ];
  static override strict = false;
  static override flags = {
    ...personFlags,
    dob: requiredDob,
    out: Flags.string({
      description: 'Directory for <name>.request.json, <name>.pdf and <name>.report.json.',
      default: '.',
    }),
    name: Flags.string({
      description: 'File name stem of the request and the report.',
      default: 'health-report',
    }),
    condensed: Flags.boolean({
      description: 'Make a one-page condensed report of the latest event instead of the full report.',
      default: false,
    }),
    'any-lab': Flags.boolean({
      description: 'Also extract reports of laboratories other than the supported vendors (generic parser).',
      default: false,
    }),
    concurrency: Flags.integer({ description: 'PDFs processed at the same time.', min: 1, max: 64 }),
    'allow-empty': Flags.boolean({
      description: 'Render the report even when no domain and no biological age can be computed (exit 0).',
      default: false,
    }),
  };

  async run(): Promise<FromLabsOutput> {
    const { argv } = await this.parse(ReportFromLabs);
    if (argv.length === 0)
      throw new UsageError('Name the lab PDFs, result files (JSON) or folders to build the report from.', [
        'assay report from-labs labs/ --dob 1970-01-31 --sex female --out report/',
      ]);
    checkName(this.flags.name);
    const person = personFrom(this.flags, 'report from-labs labs/');
    const inputs = await collectInputs(argv as string[]);
    const engine = await this.openEngine();
    const slots = { concurrency: this.flags.concurrency ?? defaultConcurrency(), leaseMs: leaseMsFromEnv() };
    return withWorkers(engine, slots, async () => {
      // The in-process worker delivers: say why a delivery got no answer (DNS, refused, timeout).
      const stopFailures = printDeliveryFailures(onDeliveryFailure, (line) => this.logToStderr(line));
      try {
        return await this.build(engine, inputs, person);
      } finally {
        stopFailures();
      }
    });
  }

  private async build(engine: Engine, inputs: InputFiles, person: Person): Promise<FromLabsOutput> {
    const read = [
      ...(await this.extractPdfs(engine, inputs.pdfs, person.dob)),
      ...inputs.json.map(readJsonInput),
    ];
    const files = read.map((r) => r.outcome);
    this.log(renderTable(['FILE', 'KIND', 'STATUS', 'RESULTS'], files.map(fileRow)));
    const built = buildLabRequest(
      read.flatMap((r) => r.results),
      person,
    );
    const out = resolve(this.flags.out);
    const parsed: ParsedReportRequest = this.flags.condensed
      ? { variant: 'condensed', request: condensedOf(built.request) }
      : { variant: 'full', request: built.request };
    const requestPath = writeRequest(out, this.flags.name, parsed);
    const leftOut = excludedValues(requestEvents(parsed.request), parsed.request.report_metadata);
    this.describe(built, files, requestPath, leftOut);
    const summary = {
      files,
      events: built.events,
      conflicts: built.conflicts,
      unusable: built.unusable,
      left_out: leftOut,
      request: requestPath,
    };
    const empty = emptyReportReasons(scoreRequest(parsed.request).events.at(-1) as EventScore);
    if (empty && !this.flags['allow-empty']) {
      this.logToStderr('\nNothing to score: no domain and no biological age can be computed.');
      for (const line of empty) this.logToStderr(`  ${line}`);
      this.logToStderr('No report was made; --allow-empty makes it anyway.');
      process.exitCode = EXIT.jobFailed;
      return { ...summary, empty_reasons: empty, report: null };
    }
    const report = await this.runReport(engine, parsed, { dir: out, name: this.flags.name });
    return { ...summary, empty_reasons: empty ?? [], report };
  }

  private async extractPdfs(engine: Engine, pdfs: string[], dob: string): Promise<ReadFile[]> {
    if (pdfs.length === 0) return [];
    const jobs = await submitPdfs(engine, this.home, pdfs, {
      dateOfBirth: dob,
      anyLab: this.flags['any-lab'],
    });
    const finished = await waitWithProgress(
      engine,
      jobs.map((job, i) => ({ id: job.id, label: basename(pdfs[i] ?? job.id) })),
      { quiet: this.jsonEnabled() },
    );
    // A PDF reviewed before (jobs are shared by content) is read as reviewed.
    const bodies = await Promise.all(
      finished.map((job) => reviewedResult(engine.blobs, job.id, labStatusBody(job))),
    );
    return bodies.map((body, i) => readExtraction(pdfs[i] ?? '', body, 'pdf'));
  }

  private describe(
    built: ReturnType<typeof buildLabRequest>,
    files: FileOutcome[],
    requestPath: string,
    leftOut: ValueNote[],
  ): void {
    for (const f of files.filter((f) => f.dob_mismatch))
      this.logToStderr(
        `Warning: ${basename(f.file)} prints a date of birth other than --dob: another person's report?`,
      );
    this.log('');
    this.log(
      renderTable(
        ['EVENT', 'PREDICTORS', 'FILES'],
        built.events.map((e) => [e.date, e.predictors, e.sources.join(', ')]),
      ),
    );
    if (built.conflicts.length > 0) {
      this.log(`\nConflicts: one code, one date, different values (neither used):`);
      for (const line of conflictLines(built.conflicts)) this.log(line);
    }
    if (built.unusable.length > 0) {
      this.log('\nResults the scoring cannot use:');
      for (const line of unusableLines(built.unusable)) this.log(line);
    }
    if (leftOut.length > 0) {
      this.log('\nLeft out of the scores (--use-doubtful scores doubted values):');
      for (const v of leftOut)
        this.log(`  ${v.date ?? `age ${v.event_age}`}  ${v.name} ${v.value} ${v.unit}: ${v.why}`);
    }
    this.log(`\nRequest: ${requestPath}`);
  }

  private async runReport(
    engine: Engine,
    parsed: ParsedReportRequest,
    out: { dir: string; name: string },
  ): Promise<FromLabsReport> {
    const { job } = await submitReport(engine, parsed, { home: this.home, out });
    await waitWithProgress(engine, [{ id: job.id, label: `${out.name}.pdf` }], { quiet: this.jsonEnabled() });
    const status = await waitForReport(engine.store, job.id);
    const result = ((await engine.store.get(job.id))?.result ?? {}) as Partial<ReportJobResult>;
    const report = {
      variant: parsed.variant,
      ...status,
      out_pdf: result.out_pdf ?? null,
      out_json: result.out_json ?? null,
    };
    if (report.status === 'completed') this.log(`Report: ${report.out_pdf}`);
    else {
      this.log(`Report ${report.status}: ${report.error_type}: ${report.error_message}`);
      process.exitCode = EXIT.jobFailed;
    }
    return report;
  }
}

function fileRow(f: FileOutcome): Array<string | number> {
  return [basename(f.file), f.kind, f.reason ? `${f.status} (${f.reason})` : f.status, f.results];
}

/** The condensed request: one event, the as-of snapshot of the latest visit (snapshot.ts). */
function condensedOf(request: FullReportRequest) {
  const { health_events, ...rest } = request;
  return { ...rest, health_event: snapshotEvent(request) };
}

/**
 * --name is a file name stem: '../../x' or 'a/b' would put the request and the report outside --out.
 * Checked before anything is read or written.
 */
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name) || basename(name) !== name)
    throw new UsageError('--name is the stem of the file names written in --out, not a path.', [
      'assay report from-labs labs/ --dob 1970-01-31 --sex female --out report/ --name 2025-checkup',
    ]);
}

/** The request, 0600 as the PDF and the report model are (it holds the person's results), written whole. */
function writeRequest(dir: string, name: string, parsed: ParsedReportRequest): string {
  const path = join(dir, `${name}.request.json`);
  writeFileAtomic(path, requestFileText(parsed.request));
  return path;
}
