/**
 * `--json` output of `assay jobs list|show|retry|cancel|demo|work|prune` (docs/formats.md: Jobs). A job's
 * view is one contract for every kind; its `result` is the kind's own, checked against the kind's schema
 * below (a refinement, so the type stays `unknown` as the engine stores it). Objects are strict, so a member
 * added to the output fails test/cli-output until it is described here.
 */
import { z } from 'zod';
import { extractionCoreSchema, REJECTION_REASONS } from './lab.js';
import { reportJobFailureSchema, reportJobResultSchema } from './report.js';

export const JOB_STATES = ['held', 'ready', 'running', 'done', 'failed', 'cancelled'] as const;

/** What a lab.extract job stores when it did not complete (the status body is made from it). */
export const storedLabRejectionSchema = z.strictObject({
  rejection_reason: z.enum(REJECTION_REASONS).optional(),
  detected_lab: z.string().nullable().optional(),
  rejection_detail: z.string().optional(),
  rejection_evidence: z.array(z.string()).optional(),
  error: z.strictObject({ message: z.string().optional(), kinds: z.array(z.string()).optional() }).optional(),
});

/** The result of each job kind, as `jobs show` prints it; null until a job ends (and for failed lab jobs). */
export const JOB_RESULT_SCHEMAS: Record<string, z.ZodType> = {
  'demo.hash': z.strictObject({
    n: z.number().int(),
    digest: z.string().regex(/^[0-9a-f]{16}$/),
    attempts: z.number().int(),
  }),
  'lab.extract': z.union([extractionCoreSchema, storedLabRejectionSchema]),
  'lab.webhook': z.strictObject({ httpStatus: z.number().int(), attempts: z.number().int() }),
  'report.full': z.union([reportJobResultSchema, reportJobFailureSchema]),
  'report.condensed': z.union([reportJobResultSchema, reportJobFailureSchema]),
  'report.deliver': z.strictObject({
    step: z.enum(['storage_put', 'callback_put', 'callback_post']),
    delivered: z.boolean(),
    attempt: z.number().int(),
    http_status: z.number().int().nullable(),
    target: z.string(),
    error_type: z.string().nullable(),
    error_message: z.string().nullable(),
    retry_after_ms: z.number().optional(),
  }),
};

/** A job as `assay jobs show --json` prints it (src/cli/job-view.ts); `payload` only with --payload. */
export const jobViewSchema = z
  .strictObject({
    id: z.string(),
    kind: z.string(),
    status: z.string(),
    state: z.enum(JOB_STATES),
    /** The base name of a lab job's PDF, else null. */
    file: z.string().nullable(),
    attempts: z.number().int().min(0),
    maxAttempts: z.number().int().min(1),
    createdAt: z.iso.datetime().nullable(),
    updatedAt: z.iso.datetime().nullable(),
    runAt: z.iso.datetime().nullable(),
    workerId: z.string().nullable(),
    parentId: z.string().nullable(),
    errorType: z.string().nullable(),
    errorMessage: z.string().nullable(),
    result: z.unknown(),
    /** The submitted input, with --payload: the kind's own, report values sealed. */
    payload: z.unknown().optional(),
  })
  .superRefine((job, ctx) => {
    if (job.result === null) return;
    const schema = JOB_RESULT_SCHEMAS[job.kind];
    if (!schema) {
      ctx.addIssue({
        code: 'custom',
        path: ['result'],
        message: `no result schema for job kind ${job.kind}: add it to JOB_RESULT_SCHEMAS`,
        input: job.result,
      });
      return;
    }
    const parsed = schema.safeParse(job.result);
    if (parsed.success) return;
    for (const issue of parsed.error.issues)
      ctx.addIssue({
        code: 'custom',
        path: ['result', ...issue.path],
        message: `${job.kind} result: ${issue.message}`,
        input: job.result,
      });
  });

/** `jobs list --json`: newest first. */
export const jobsListOutputSchema = z.array(jobViewSchema);

/** `jobs demo --json` (each job as `jobs show` prints it). */
export const jobsDemoOutputSchema = z.strictObject({ jobs: z.array(jobViewSchema) });

/** `jobs prune --json`. */
export const jobsPruneOutputSchema = z.strictObject({
  deleted: z.number().int().min(0),
  files: z.number().int().min(0),
  olderThanDays: z.number().int().min(0),
  dryRun: z.boolean(),
});

/** `jobs work --json`. */
export const jobsWorkOutputSchema = z.strictObject({
  workerId: z.string(),
  done: z.number().int().min(0),
  failed: z.number().int().min(0),
  retried: z.number().int().min(0),
});

/** `jobs show|retry|cancel --json`. */
export type JobViewOutput = z.infer<typeof jobViewSchema>;
export type JobsListOutput = z.infer<typeof jobsListOutputSchema>;
export type JobsDemoOutput = z.infer<typeof jobsDemoOutputSchema>;
export type JobsPruneOutput = z.infer<typeof jobsPruneOutputSchema>;
export type JobsWorkOutput = z.infer<typeof jobsWorkOutputSchema>;
