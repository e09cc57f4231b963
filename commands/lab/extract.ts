import { mkdir, readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { type Interrupt, listenForInterrupt, signalExitCode } from '../../src/cli/interrupt.js';
import { renderTable } from '../../src/cli/table.js';
import type { Engine } from '../../src/engine/engine.js';
import type { JobRecord } from '../../src/engine/types.js';
import { EXIT, UsageError } from '../../src/errors.js';
import {
  alreadyDone,
  collectPdfs,
  type FileResult,
  isPdf,
  markDone,
  summaryRow,
} from '../../src/lab/batch/files.js';
import { INTERRUPT_GRACE_MS, runBatch } from '../../src/lab/batch/run.js';
import {
  batchSummary,
  type Interrupted,
  interruptedCounts,
  rejectionLines,
} from '../../src/lab/batch/summary.js';
import { watchedFile, watchStableMs } from '../../src/lab/batch/watch-file.js';
import { checkDob, type LabSubmission, submitLabFile } from '../../src/lab/job/kind.js';
import { labStatusBody } from '../../src/lab/job/status-body.js';
import { closeSharedThreadPool, sharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { type Format, parseFormats, render, writeOne } from '../../src/lab/output/formats.js';
import { outputNames } from '../../src/lab/output/names.js';
import { reviewedResult } from '../../src/review/job-reviews.js';

export default class LabExtract extends EngineCommand<typeof LabExtract> {
  static override summary = 'Extract structured results from lab report PDFs.';
  static override description = [
    'Each PDF becomes a lab.extract job in the shared store: language check, PHI detection and redaction, ' +
      'validation, then panels and results mapped to LOINC and UCUM. Workers run in this process until ' +
      'every job ends. With --watch, PDFs dropped into a folder are extracted as they arrive, until Ctrl-C. ' +
      'Scanned PDFs need pdftoppm and tesseract on PATH (check with `assay doctor`).',
    'Output: one row per PDF (status, panels, results). With --json, {files: [{file, output, result}]}, ' +
      'where result is the job status body: when completed, labName, dateCollected, verification, panels ' +
      'with their results (value, unit, LOINC, UCUM, reference range, page), mergeActions, validationFlags ' +
      '(doubts such as unread_row or ocr_low_confidence) and coverage (rows read out of the rows that looked ' +
      'like results); otherwise the status with its rejection_reason or error. --out DIR writes each body to ' +
      'DIR/<name>.json (DIR/<folder>/<name>.json when two PDFs share a name); identical PDFs are extracted once.',
    'Exit code 0 only when every file completed; 1 when any was rejected or failed; 130 on Ctrl-C (143 on ' +
      'SIGTERM), after saying what ended and what is left: the same command run again resumes.',
    formatsSee('Lab extraction'),
  ].join('\n\n');

  static override examples = [
    '<%= config.bin %> lab extract report.pdf',
    '<%= config.bin %> lab extract scans/ --out results/ --dob 1980-04-12',
    '<%= config.bin %> lab extract a.pdf b.pdf --reject-if-phi --json',
    '<%= config.bin %> lab extract --watch inbox/ --out results/',
    '<%= config.bin %> lab extract scans/ --out results/ --format json,fhir,csv',
    '<%= config.bin %> lab extract report.pdf --format fhir --subject Patient/123 > bundle.json',
    '<%= config.bin %> lab extract reports/ --format csv > results.csv',
  ];

  // Any number of files and folders.
  static override strict = false;

  static override flags = {
    out: Flags.string({ description: 'Write <name>.json with the status body of each <name>.pdf here.' }),
    dob: Flags.string({
      description: 'Date of birth (YYYY-MM-DD) to check against the report; compared, never stored.',
    }),
    'reject-if-phi': Flags.boolean({
      description: 'Reject (and delete) documents that contain PHI instead of redacting it.',
      default: false,
    }),
    'any-lab': Flags.boolean({
      description: 'Also extract reports of laboratories other than the supported vendors (generic parser).',
      default: false,
    }),
    concurrency: Flags.integer({ description: 'PDFs processed at the same time.', min: 1, max: 64 }),
    watch: Flags.string({ description: 'Watch this folder and extract PDFs dropped into it, until Ctrl-C.' }),
    format: Flags.string({
      description:
        'Output formats, several allowed (json,fhir,csv): json is the status body; fhir a FHIR R4 Bundle ' +
        '(DiagnosticReport per panel, Observation per result, LOINC and UCUM); csv one row per result. ' +
        'With --out, <name>.json, <name>.fhir.json and <name>.csv per PDF; without it, one fhir or csv ' +
        'document for the whole batch on stdout.',
      multiple: true,
      default: ['json'],
    }),
    explain: Flags.boolean({
      description:
        'For each rejected PDF, print the evidence the verdict rests on (counts and laboratory names, never ' +
        'text of the document), and add it to the status body as rejection_evidence.',
      default: false,
    }),
    subject: Flags.string({
      description:
        'A reference of yours for the person (e.g. Patient/123) put in the FHIR output as subject.',
    }),
  };

  async run(): Promise<{ files: FileResult[] }> {
    const { argv } = await this.parse(LabExtract);
    const inputs = argv as string[];
    if (this.flags.dob !== undefined) checkDob(this.flags.dob);
    this.formats();
    if (!this.flags.watch) this.stdoutFormat();
    if (!this.flags.watch && inputs.length === 0)
      throw new UsageError('Give one or more PDF files or folders, or --watch DIR.', [
        'assay lab extract report.pdf',
      ]);
    if (this.flags.watch && inputs.length > 0)
      throw new UsageError('Pass PDF files or --watch DIR, not both.', [
        'Drop the files into the watched folder instead.',
      ]);
    const files = this.flags.watch ? [] : await collectPdfs(inputs);
    // The threads compile pdf.js and the pipeline while this thread opens the store and submits the batch.
    sharedThreadPool().prestart(files.length);
    const engine = await this.openEngine();
    engine.startWorker({
      concurrency: this.flags.concurrency ?? defaultConcurrency(),
      leaseMs: leaseMsFromEnv(),
    });
    if (this.flags.watch) return this.watchFolder(engine, resolve(this.flags.watch));
    const interrupt = listenForInterrupt();
    try {
      return await this.extractBatch(engine, files, interrupt);
    } finally {
      // Still listening while the store closes: a late Ctrl-C must not cut the close short.
      await shutdown(engine);
      interrupt.dispose();
    }
  }

  private options(): Omit<LabSubmission, 'pdf' | 'filename'> {
    return {
      dateOfBirth: this.flags.dob,
      rejectIfPHI: this.flags['reject-if-phi'],
      anyLab: this.flags['any-lab'],
    };
  }

  private async extractBatch(
    engine: Engine,
    files: string[],
    interrupt: Interrupt,
  ): Promise<{ files: FileResult[]; interrupted?: Interrupted }> {
    const run = await runBatch(engine, files, {
      home: this.home,
      submission: this.options(),
      outDir: this.flags.out,
      formats: this.formats(),
      subject: this.flags.subject,
      quiet: this.jsonEnabled(),
      interrupt,
      explain: this.flags.explain,
    });
    const results = run.files;
    const names = outputNames(files);
    const table = renderTable(
      ['FILE', 'STATUS', 'PANELS', 'RESULTS'],
      results.map((r) =>
        summaryRow(r, `${names.get(r.file) ?? basename(r.file, extname(r.file))}${extname(r.file)}`),
      ),
    );
    const summary = [
      ...rejectionLines(results, this.flags.explain),
      batchSummary(results, run.interrupted),
    ].join('\n');
    const onStdout = this.stdoutFormat();
    if (onStdout) {
      // The document owns stdout; the summary goes to stderr.
      process.stdout.write(render(onStdout, results, { subject: this.flags.subject }));
      this.logToStderr(table);
      this.logToStderr(summary);
    } else {
      this.log(table);
      this.log(summary);
    }
    if (run.interrupted) {
      process.exitCode = signalExitCode(run.interrupted);
      return { files: results, interrupted: interruptedCounts(results, run.interrupted) };
    }
    if (results.some((r) => r.result.status !== 'completed')) process.exitCode = EXIT.jobFailed;
    return { files: results };
  }

  private formats(): Format[] {
    return parseFormats(this.flags.format ?? ['json']);
  }

  /** The one fhir or csv document to print when there is no --out to write files to. */
  private stdoutFormat(): Exclude<Format, 'json'> | null {
    if (this.flags.out) return null;
    const documents = this.formats().filter((f): f is Exclude<Format, 'json'> => f !== 'json');
    if (documents.length === 0) return null;
    if (documents.length > 1 || this.jsonEnabled())
      throw new UsageError('Only one document can go to stdout.', [
        'Give --out DIR to write every format, or ask for one of fhir and csv without --json.',
      ]);
    return documents[0] ?? null;
  }

  /** The status body of a finished job, written to --out in each format asked for. */
  private async record(
    engine: Engine,
    file: string,
    job: JobRecord,
    outDir = this.flags.out,
  ): Promise<FileResult> {
    const result = await reviewedResult(
      engine.blobs,
      job.id,
      labStatusBody(job, { explain: this.flags.explain }),
    );
    let output: string | null = null;
    if (outDir) {
      for (const format of this.formats()) {
        const written = await writeOne(outDir, format, { file, result }, { subject: this.flags.subject });
        if (format === 'json') output = written;
      }
    }
    return { file, output, result };
  }

  /**
   * One file of a hot folder: skipped when it is no regular file, left for its next change while its PDF
   * trailer has not arrived, else extracted once (a done marker records it) and its outputs written.
   * True when it was extracted now.
   */
  private async takeWatched(
    engine: Engine,
    file: string,
    ctx: {
      doneDir: string;
      outDir: string;
      waiting: Set<string>;
      unfinished: Set<string>;
      signal: AbortSignal;
    },
  ): Promise<boolean> {
    const seen = await watchedFile(file);
    if (!seen.take) {
      if (seen.why === 'not_a_file')
        this.logToStderr(
          `${basename(file)}: not a regular file in the folder (a link, FIFO or device): skipped.`,
        );
      else if (!ctx.waiting.has(file))
        this.logToStderr(`${basename(file)}: not a whole PDF yet (no %%EOF trailer): waiting for the rest.`);
      if (seen.why === 'incomplete') ctx.waiting.add(file);
      return false;
    }
    ctx.waiting.delete(file);
    if (await alreadyDone(ctx.doneDir, file)) return false;
    const job = await submitLabFile(engine, this.home, {
      pdf: await readFile(file),
      filename: basename(file),
      ...this.options(),
    });
    ctx.unfinished.add(file);
    const [finished] = await engine.waitFor([job.id], { signal: ctx.signal });
    const result = await this.record(engine, file, finished ?? job, ctx.outDir);
    await markDone(ctx.doneDir, file, job.id);
    ctx.unfinished.delete(file);
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(result)}\n`);
    else this.log(`${basename(file)}: ${result.result.status}${result.output ? ` -> ${result.output}` : ''}`);
    return true;
  }

  /**
   * Hot folder: every PDF that appears in `dir` (once fully written) is extracted and its body written to
   * --out (default <dir>/results). A marker in <dir>/.assay-done records each file done, with its size and
   * time, so a restarted watcher skips what it already did but redoes a file that was replaced.
   */
  private async watchFolder(engine: Engine, dir: string): Promise<never> {
    const outDir = this.flags.out ?? join(dir, 'results');
    const doneDir = join(dir, '.assay-done');
    await mkdir(doneDir, { recursive: true });
    // chokidar only for --watch: a batch does not pay for it.
    const { watch } = await import('chokidar');
    const watcher = watch(dir, {
      depth: 0,
      ignoreInitial: false,
      // Links are not followed: a link out of the folder is reported and skipped, never read.
      followSymlinks: false,
      awaitWriteFinish: { stabilityThreshold: watchStableMs(), pollInterval: 100 },
      ignored: (path, stats) => basename(path).startsWith('.') || (!!stats?.isFile() && !isPdf(path)),
    });
    const interrupt = listenForInterrupt();
    let extracted = 0;
    const unfinished = new Set<string>();
    const busy = new Set<string>();
    const waiting = new Set<string>();
    const handle = async (file: string) => {
      if (!isPdf(file) || busy.has(file)) return;
      busy.add(file);
      try {
        const ctx = { doneDir, outDir, waiting, unfinished, signal: interrupt.signal };
        if (await this.takeWatched(engine, file, ctx)) extracted += 1;
      } finally {
        busy.delete(file);
      }
    };
    const take = (file: string) => {
      handle(file).catch((error: Error) => {
        // Waits cut short by Ctrl-C are counted in the summary, not reported one by one.
        if (!interrupt.signal.aborted) this.logToStderr(`${basename(file)}: ${error.message}`);
      });
    };
    watcher.on('add', take);
    // A file still being written when first seen is looked at again each time it grows.
    watcher.on('change', take);

    interrupt.signal.addEventListener('abort', async () => {
      const signal = interrupt.received() ?? 'SIGINT';
      await watcher.close();
      // Unfinished files have no done marker: the next watch submits them again and gets the same job back.
      await engine.stopWorkers(INTERRUPT_GRACE_MS);
      const counts = { signal, ended: extracted, left: unfinished.size };
      if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify({ interrupted: counts })}\n`);
      else
        this.logToStderr(
          `Stopped (${signal}): ${extracted} PDFs extracted; ${unfinished.size} unfinished, picked up by the next watch.`,
        );
      await shutdown(engine).catch(() => {});
      process.exit(signalExitCode(signal));
    });
    // Said once the folder has been read and Ctrl-C is handled: a caller may wait for this line.
    watcher.once('ready', () => {
      if (!this.jsonEnabled())
        this.logToStderr(`Watching ${dir} for PDFs (Ctrl-C to stop); results go to ${outDir}.`);
    });
    return new Promise<never>(() => {});
  }
}

async function shutdown(engine: Engine): Promise<void> {
  await engine.close();
  await closeSharedThreadPool();
}
