import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { signalExitCode } from '../../src/cli/interrupt.js';
import { personFlags, personFrom } from '../../src/cli/person-flags.js';
import { waitWithProgress } from '../../src/cli/progress.js';
import { type RunningWorkers, withWorkers } from '../../src/cli/run-workers.js';
import { renderTable } from '../../src/cli/table.js';
import { printDeliveryFailures } from '../../src/delivery/failure-words.js';
import { onDeliveryFailure } from '../../src/delivery/http.js';
import type { Engine } from '../../src/engine/engine.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { requestFileText } from '../../src/report/from-labs/request.js';
import { conflictLines, unusableLines } from '../../src/report/from-labs/summary.js';
import { writeFileAtomic } from '../../src/report/job/files.js';
import type { ReportJobResult } from '../../src/report/job/payload.js';
import {
  prestartRenderThreads,
  renderOnThisThread,
  reportJobSlots,
} from '../../src/report/job/render-pool.js';
import {
  expandRequestPaths,
  loadRequestFile,
  type RequestFile,
  withoutDestinations,
} from '../../src/report/job/request-file.js';
import { requireReportStatus, waitForReport } from '../../src/report/job/status.js';
import { submitReport } from '../../src/report/job/submit.js';
import type { GeneratedReportOutput, ReportGenerateOutput } from '../../src/schemas/cli/report.js';

export default class ReportGenerate extends EngineCommand<typeof ReportGenerate> {
  static override summary = 'Generate PDF health reports from report request files (JSON).';
  static override description = [
    'Input: request files, or folders of *.json request files. A request holds report_metadata (event_id, ' +
      'event_asof_dtutc, and a configuration naming storage_presigned_url and/or callback_url), uid_ext, and ' +
      'either health_events (a full report over a time series) or health_event (a condensed one-page ' +
      'report); each event has health_event_id, event_age and predictors [{observation_code (LOINC), value, ' +
      'unit}].',
    'Each request becomes a report job run by workers in this process. The PDF goes where the request says ' +
      '(a PUT to the pre-signed URL, a callback) and, with --out, to <DIR>/<name>.pdf with the report model ' +
      'as <DIR>/<name>.report.json; a request without a destination needs --out.',
    'Output: one row per request. With --json, {reports: [{file, variant, job_id, status, created_at, ' +
      'updated_at, error_type, error_message, out_pdf, out_json}]}. Exit code 0 only when every report ' +
      'completed.',
    'A FHIR R4 Bundle of lab Observations (what `lab extract --format fhir` writes) is also accepted: the ' +
      'request is built from it as `report from-labs` builds one (needs --dob and --sex; the other person ' +
      'flags and --profile apply), and with --out written to <DIR>/<name>.request.json.',
    formatsSee('Report request'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> report generate request.json --out reports/',
    '<%= config.bin %> report generate requests/ --out reports/ --json',
    '<%= config.bin %> report generate --watch inbox/ --out reports/',
    '<%= config.bin %> report generate results.fhir.json --dob 1970-01-31 --sex female --out reports/',
  ];
  static override strict = false;
  static override flags = {
    ...personFlags,
    condensed: Flags.boolean({
      description: 'Make a one-page condensed report (of the latest event for a full request).',
      default: false,
    }),
    out: Flags.string({ description: 'Also write <name>.pdf and <name>.report.json to this directory.' }),
    deliver: Flags.boolean({
      description:
        "Deliver to the request's destinations (pre-signed URL, callback). --no-deliver renders to --out only.",
      default: true,
      allowNo: true,
    }),
    watch: Flags.string({ description: 'Keep watching this directory for request files until Ctrl-C.' }),
    concurrency: Flags.integer({ description: 'Jobs run at the same time.', min: 1, max: 64 }),
  };

  async run(): Promise<ReportGenerateOutput> {
    const { argv } = await this.parse(ReportGenerate);
    const paths = argv as string[];
    if (paths.length === 0 && !this.flags.watch) {
      throw new UsageError('Name at least one request file or directory, or pass --watch DIR.', [
        'assay report generate request.json --out reports/',
      ]);
    }
    if (paths.length > 0 && this.flags.watch) {
      throw new UsageError('Pass request files or --watch DIR, not both.', [
        'Drop the files into the watched directory instead.',
      ]);
    }
    if (!this.flags.deliver && !this.flags.out)
      throw new UsageError('--no-deliver renders to --out only: name the directory.', [
        'assay report generate request.json --no-deliver --out reports/',
      ]);
    const person = () => personFrom(this.flags, 'report generate results.fhir.json');
    const requestPaths = expandRequestPaths(paths);
    // One report renders on this thread (a render thread would cost more than it saves). Several: the
    // render threads start now, one per request up to the pool's size, and load pdfkit while this thread
    // reads the requests, opens the store and scores, instead of after the first report's model is built.
    if (requestPaths.length === 1) renderOnThisThread();
    else prestartRenderThreads(requestPaths.length);
    const files = requestPaths.map((p) =>
      loadRequestFile(p, {
        condensed: this.flags.condensed,
        hasOut: Boolean(this.flags.out),
        person,
        metadata: { lookback_months: this.flags.lookback, use_doubtful: this.flags['use-doubtful'] },
      }),
    );
    if (!this.flags.deliver) for (const file of files) withoutDestinations(file);
    const fromLabs = new Map(files.map((file) => [file, this.describeFromLabs(file)]));
    if (paths.length > 0 && files.length === 0) {
      throw new UsageError(`No request files (*.json) in ${paths.join(', ')}.`);
    }
    const engine = await this.openEngine();
    // Unless told (--concurrency, ASSAY_CONCURRENCY): two jobs per render thread, which keeps them busy.
    const concurrency =
      this.flags.concurrency ?? (process.env.ASSAY_CONCURRENCY ? defaultConcurrency() : reportJobSlots());
    const slots = { concurrency, leaseMs: leaseMsFromEnv() };
    const dir = this.flags.watch;
    if (dir) {
      const signal = await withWorkers(engine, { ...slots, onSignal: 'report' }, (workers) =>
        this.watch(engine, dir, workers),
      );
      process.exit(signalExitCode(signal));
    }
    return withWorkers(engine, { ...slots, onSignal: 'report' }, async (workers) => {
      // The in-process worker delivers: say why a delivery got no answer (DNS, refused, timeout).
      const stopFailures = printDeliveryFailures(onDeliveryFailure, (line) => this.logToStderr(line));
      try {
        return await this.generate(engine, files, fromLabs, workers);
      } finally {
        stopFailures();
      }
    });
  }

  private async generate(
    engine: Engine,
    files: RequestFile[],
    fromLabs: Map<RequestFile, string | null>,
    workers: RunningWorkers,
  ): Promise<ReportGenerateOutput> {
    const out = this.flags.out ? resolve(this.flags.out) : undefined;
    const jobs = [];
    for (const file of files) {
      const { job } = await submitReport(engine, file.parsed, {
        home: this.home,
        ...(out ? { out: { dir: out, name: file.name } } : {}),
      });
      // The id only: the record holds the sealed request, a copy per report that a batch need not keep.
      jobs.push({ job: { id: job.id }, file });
    }
    try {
      await waitWithProgress(
        engine,
        jobs.map(({ job, file }) => ({ id: job.id, label: file.name })),
        { quiet: this.jsonEnabled(), signal: workers.signal },
      );
    } catch (error) {
      if (!workers.signal.aborted) throw error;
    }
    const reports: GeneratedReportOutput[] = [];
    for (const { job, file } of jobs) {
      // A rendered report may still be delivering. Interrupted: each report as it stands; unfinished ones
      // stay queued in the store for the next worker.
      const status = workers.signal.aborted
        ? await requireReportStatus(engine.store, job.id)
        : await waitForReport(engine.store, job.id, { signal: workers.signal }).catch((error: unknown) => {
            if (!workers.signal.aborted) throw error;
            return requireReportStatus(engine.store, job.id);
          });
      const result = ((await engine.store.get(job.id))?.result ?? {}) as Partial<ReportJobResult>;
      reports.push({
        file: file.path,
        variant: file.parsed.variant,
        ...status,
        out_pdf: result.out_pdf ?? null,
        out_json: result.out_json ?? null,
        ...(file.fromLabs ? { from_labs: { ...file.fromLabs, request: fromLabs.get(file) ?? null } } : {}),
      });
    }
    this.log(
      renderTable(
        ['FILE', 'STATUS', 'JOB', 'PDF', 'ERROR'],
        reports.map((r) => [
          r.file,
          r.status,
          r.job_id,
          r.out_pdf,
          r.error_type ? `${r.error_type}: ${r.error_message}` : '',
        ]),
      ),
    );
    const failed = reports.filter((r) => r.status !== 'completed').length;
    this.log(`${reports.length - failed} of ${reports.length} reports completed.`);
    const interrupted = workers.received();
    if (interrupted) {
      const left = reports.filter((r) => r.status !== 'completed' && r.status !== 'failed').length;
      this.logToStderr(
        `Interrupted by ${interrupted}: ${left} left unfinished in the store; \`assay jobs work --drain\` finishes them.`,
      );
      process.exitCode = signalExitCode(interrupted);
      return { reports };
    }
    if (failed > 0) process.exitCode = EXIT.jobFailed;
    return { reports };
  }

  /** For a Bundle input: what the request built from it holds, and the request written beside the report. */
  private describeFromLabs(file: RequestFile): string | null {
    if (!file.fromLabs) return null;
    const { events, conflicts, unusable } = file.fromLabs;
    this.log(`${basename(file.path)}: ${events.length} events (${events.map((e) => e.date).join(', ')})`);
    if (conflicts.length > 0) {
      this.log('Conflicts: one code, one date, different values (neither used):');
      for (const line of conflictLines(conflicts)) this.log(line);
    }
    if (unusable.length > 0) {
      this.log('Results the scoring cannot use:');
      for (const line of unusableLines(unusable)) this.log(line);
    }
    if (!this.flags.out) return null;
    const dir = resolve(this.flags.out);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${file.name}.request.json`);
    // 0600, as the report PDF is: it holds the person's results.
    writeFileAtomic(path, requestFileText(file.parsed.request));
    this.log(`Request: ${path}`);
    return path;
  }

  /** Until Ctrl-C (or SIGTERM): then closes the watcher, says so, and gives the signal for the exit code. */
  private async watch(engine: Engine, dir: string, workers: RunningWorkers): Promise<NodeJS.Signals> {
    // chokidar only for --watch: a one-off run does not pay for it.
    const { watchRequests } = await import('../../src/report/job/watch.js');
    const watcher = watchRequests(engine, {
      dir,
      home: this.home,
      ...(this.flags.out ? { out: this.flags.out } : {}),
      condensed: this.flags.condensed,
      deliver: this.flags.deliver,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    workers.beforeClose(() => watcher.close());
    await watcher.ready;
    process.stderr.write(`Watching ${dir} for report requests; Ctrl-C to stop.\n`);
    if (!workers.signal.aborted) await once(workers.signal, 'abort');
    const received = workers.received() ?? 'SIGINT';
    process.stderr.write(`Stopped (${received}); requests still queued are picked up by the next watch.\n`);
    return received;
  }
}
