import { Args, Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { NotFoundError } from '../../src/errors.js';
import { LAB_EXTRACT } from '../../src/lab/job/kind.js';
import { type LabStatusBody, labStatusBody } from '../../src/lab/job/status-body.js';
import { reviewedResult } from '../../src/review/job-reviews.js';
import type { LabStatusOutput } from '../../src/schemas/cli/lab.js';

export default class LabStatus extends EngineCommand<typeof LabStatus> {
  static override summary =
    'Show the status of a lab extraction job (the body the HTTP status endpoint returns).';
  static override description = [
    'Completed jobs show the full extraction result (panels, results, mergeActions, validationFlags, ' +
      'coverage); rejected ones their rejection_reason and rejection_detail (why, in one sentence; ' +
      '--explain adds rejection_evidence, the counts the verdict rests on), failed ones the error {code, ' +
      'message}. Works for ' +
      'jobs submitted by any process sharing the same home. Exit code 3 for an unknown job.',
    formatsSee('Lab status bodies'),
  ].join('\n\n');

  static override examples = [
    '<%= config.bin %> lab status 3f0c...',
    '<%= config.bin %> lab status <id> --json',
    '<%= config.bin %> lab status <id> --explain',
  ];

  static override flags = {
    explain: Flags.boolean({
      description: 'For a rejected document, also the evidence the verdict rests on (counts, never text).',
      default: false,
    }),
  };

  static override args = {
    jobId: Args.string({ description: 'Job id, as printed by `assay lab extract`.', required: true }),
  };

  async run(): Promise<LabStatusOutput> {
    const engine = await this.openEngine();
    try {
      const job = await engine.store.get(this.args.jobId);
      if (!job || job.kind !== LAB_EXTRACT)
        throw new NotFoundError(`No lab extraction job with id ${this.args.jobId}.`, [
          'List lab jobs with `assay jobs list --kind lab.extract`.',
        ]);
      // Once a person has reviewed the result, the reviewed version is the result (src/review).
      const body = await reviewedResult(
        engine.blobs,
        job.id,
        labStatusBody(job, { explain: this.flags.explain }),
      );
      for (const line of describe(body)) this.log(line);
      return body;
    } finally {
      await engine.close();
    }
  }
}

function describe(body: LabStatusBody): string[] {
  const lines = [`job     ${body.jobId}`, `status  ${body.status}`];
  if ('panels' in body) {
    const results = body.panels.reduce((n, panel) => n + panel.panelResults.length, 0);
    lines.push(
      `lab     ${body.labName ?? '(unknown)'}`,
      `date    ${body.dateCollected ?? '(unknown)'}`,
      `panels  ${body.panels.length} (${results} results)`,
      `dob     found: ${body.verification.dobFound}, matches: ${body.verification.dobMatches ?? 'n/a'}`,
    );
    return lines;
  }
  if (body.rejection_reason) lines.push(`reason  ${body.rejection_reason}`);
  if (body.detected_lab !== undefined) lines.push(`lab     ${body.detected_lab ?? '(none found)'}`);
  if (body.rejection_detail) lines.push(`why     ${body.rejection_detail}`);
  for (const item of body.rejection_evidence ?? []) lines.push(`        ${item}`);
  if (body.error) lines.push(`error   ${body.error.code}: ${body.error.message}`);
  return lines;
}
