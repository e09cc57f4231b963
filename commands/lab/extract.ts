import { basename, extname, join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../../src/cli/engine.js';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { signalExitCode } from '../../src/cli/interrupt.js';
import { type WorkerSlots, withWorkers } from '../../src/cli/run-workers.js';
import { renderTable } from '../../src/cli/table.js';
import type { Engine } from '../../src/engine/engine.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { collectPdfs, summaryRow } from '../../src/lab/batch/files.js';
import { type BatchOptions, runBatch } from '../../src/lab/batch/run.js';
import { batchSummary, interruptedCounts, rejectionLines } from '../../src/lab/batch/summary.js';
import { watchPdfs } from '../../src/lab/batch/watch.js';
import { checkDob } from '../../src/lab/job/kind.js';
import { sharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { type Format, parseFormats, render } from '../../src/lab/output/formats.js';
import { outputNames } from '../../src/lab/output/names.js';
import type { LabExtractOutput } from '../../src/schemas/cli/lab.js';

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

  async run(): Promise<LabExtractOutput> {
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
    if (this.flags.watch) return this.watchFolder(engine, resolve(this.flags.watch));
    return withWorkers(engine, { ...this.slots(), onSignal: 'report' }, (workers) =>
      this.extractBatch(engine, files, workers),
    );
  }

  private slots(): WorkerSlots {
    return { concurrency: this.flags.concurrency ?? defaultConcurrency(), leaseMs: leaseMsFromEnv() };
  }

  /** What a batch and a watched folder share: how each PDF is submitted and its outputs written. */
  private batchOptions() {
    return {
      home: this.home,
      submission: {
        dateOfBirth: this.flags.dob,
        rejectIfPHI: this.flags['reject-if-phi'],
        anyLab: this.flags['any-lab'],
      },
      formats: this.formats(),
      subject: this.flags.subject,
      explain: this.flags.explain,
    };
  }

  private async extractBatch(
    engine: Engine,
    files: string[],
    interrupt: BatchOptions['interrupt'],
  ): Promise<LabExtractOutput> {
    const run = await runBatch(engine, files, {
      ...this.batchOptions(),
      outDir: this.flags.out,
      quiet: this.jsonEnabled(),
      interrupt,
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

  /**
   * Hot folder: every PDF that appears in `dir` (once fully written) is extracted and its body written to
   * --out (default <dir>/results), until Ctrl-C; then says what it did and exits 130 (143 on SIGTERM).
   */
  private async watchFolder(engine: Engine, dir: string): Promise<never> {
    const json = this.jsonEnabled();
    const signal = await withWorkers(engine, { ...this.slots(), onSignal: 'report' }, async (workers) => {
      const { extracted, unfinished } = await watchPdfs(engine, {
        ...this.batchOptions(),
        dir,
        outDir: this.flags.out ?? join(dir, 'results'),
        json,
        signal: workers.signal,
        say: (line) => (json ? process.stdout.write(`${line}\n`) : this.log(line)),
        warn: (line) => this.logToStderr(line),
      });
      const received = workers.received() ?? 'SIGINT';
      const counts = { signal: received, ended: extracted, left: unfinished };
      if (json) process.stdout.write(`${JSON.stringify({ interrupted: counts })}\n`);
      else
        this.logToStderr(
          `Stopped (${received}): ${extracted} PDFs extracted; ${unfinished} unfinished, picked up by the next watch.`,
        );
      return received;
    });
    process.exit(signalExitCode(signal));
  }
}
