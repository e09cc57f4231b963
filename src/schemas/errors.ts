import { z } from 'zod';
import { UsageError } from '../errors.js';

/** SPEC.md's error body outside the lab routes (reports, reference data): `{detail}`. */
export const detailErrorSchema = z.object({ detail: z.string() });

/** One validation problem: where in the document, and what was expected there. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** `health_events[0].predictors[2].observation_code`: the path as a reader of the JSON would write it. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}

/** Every issue of a zod error as path + message, in document order. */
export function schemaIssues(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** A readable, multi-line account of a zod error: one `path: expected ...` line per issue. */
export function formatZodError(error: z.ZodError): string {
  return schemaIssues(error)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('\n');
}

/** A document that does not match its SPEC.md schema; carries the issues for --json and HTTP bodies. */
export class SchemaValidationError extends UsageError {
  readonly issues: SchemaIssue[];

  constructor(what: string, error: z.ZodError) {
    super(`${what} is not valid:\n${formatZodError(error)}`, [], 'invalid_request');
    this.issues = schemaIssues(error);
  }
}
