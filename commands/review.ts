import { Args, Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../src/cli/engine.js';
import { EngineCommand } from '../src/cli/engine-command.js';
import { closeOnSignal } from '../src/cli/interrupt.js';
import { startReview } from '../src/review/run-review.js';
import type { ReviewOutput } from '../src/schemas/cli/misc.js';

export default class Review extends EngineCommand<typeof Review> {
  static override summary = 'Review extracted lab results beside the page they were read from.';
  static override description = [
    'Starts a local page on 127.0.0.1 (a free port) showing each result row beside its page image, ' +
      'doubtful rows first. Keyboard: j/k next and previous, a accept, e/u/r/n edit value, unit, range or ' +
      'name, x not a result, Enter save, Esc cancel. Every change is saved as a revision (who, when, what); ' +
      'the extracted result is kept as it was, and every output reads the reviewed one.',
    'Give a PDF or a folder of PDFs (extracted first, like `assay lab extract`), a lab job id, or a result ' +
      'file written by `lab extract --out` (revisions go to <name>.review.json beside it and the reviewed ' +
      'result to <name>.reviewed.json). A job keeps no copy of its PDF once it ends: give --pdf to see the ' +
      'pages of a job or of a result file with no <name>.pdf beside it.',
    'The URL printed carries a one-time token, traded on first use for a session cookie. The browser is ' +
      'opened only where there is a display; --no-open just prints the URL; --json prints {url, documents}. ' +
      'Runs until Ctrl-C. Exit code 2 for a file that is not a result, 3 for an unknown job, 1 when no PDF ' +
      'given completed.',
  ].join('\n\n');

  static override examples = [
    '<%= config.bin %> review report.pdf',
    '<%= config.bin %> review results/report.json --pdf report.pdf',
    '<%= config.bin %> review 3f0c2a9e-... --no-open',
    '<%= config.bin %> review scans/ --json',
  ];

  static override args = {
    input: Args.string({
      description: 'A PDF, a result .json, a lab job id or a folder of PDFs.',
      required: true,
    }),
  };

  static override flags = {
    open: Flags.boolean({
      description: 'Open the page in the browser (default: when there is a display).',
      allowNo: true,
    }),
    pdf: Flags.string({ description: 'The PDF of a job id or result file, to show its pages.' }),
    'any-lab': Flags.boolean({
      description: 'When extracting PDFs: also accept laboratories other than the supported vendors.',
      default: false,
    }),
    port: Flags.integer({ description: 'Port on 127.0.0.1 (default: a free one).', min: 0, max: 65_535 }),
  };

  async run(): Promise<ReviewOutput> {
    const session = await startReview({
      inputs: [this.args.input],
      home: this.home,
      openEngine: () => this.openEngine(),
      pdf: this.flags.pdf,
      anyLab: this.flags['any-lab'],
      port: this.flags.port,
      open: this.flags.open,
      json: this.jsonEnabled(),
      concurrency: defaultConcurrency(),
      leaseMs: leaseMsFromEnv(),
      log: (line) => this.logToStderr(line),
    });
    if (this.jsonEnabled()) this.logJson(session.summary);
    else this.log(`Review page: ${session.summary.url}\n(Ctrl-C to stop.)`);
    closeOnSignal(() => session.close());
    return new Promise<never>(() => {});
  }
}
