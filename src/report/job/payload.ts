import type { Sealed } from '../../home-secrets.js';
import type { ReportConfiguration, ReportVariant } from '../../schemas/report.js';

export const REPORT_KINDS = { full: 'report.full', condensed: 'report.condensed' } as const;

export function reportKindName(variant: ReportVariant): string {
  return REPORT_KINDS[variant];
}

export function isReportKind(kind: string): boolean {
  return kind === REPORT_KINDS.full || kind === REPORT_KINDS.condensed;
}

/** Where the CLI's --out wants the files: `<dir>/<name>.pdf` and `<dir>/<name>.report.json`. */
export interface OutTarget {
  dir: string;
  name: string;
}

/**
 * A report job's payload. The request's health values are sealed with the home's payload key: the job
 * store keeps payloads until pruned and prints them in `assay jobs show`. The configuration the deliveries
 * need stays readable, without its auth_token: that was moved to a credential file at submission, and
 * credentialRef names that file.
 */
export interface ReportJobPayload {
  variant: ReportVariant;
  /** The request with uid_ext blanked and the configuration left out, sealed (see home-secrets.ts). */
  request: Sealed;
  configuration: ConfigWithoutToken;
  /** The submitting home's reports folder: where a kind built without files of its own looks (one box). */
  reportDir: string;
  credentialRef: string | null;
  /**
   * The file holding storage_presigned_url as given (configuration keeps it without query or userinfo).
   * Absent on jobs stored before it existed, whose configuration holds the whole URL.
   */
  storageRef?: string | null;
  /**
   * The file holding callback_url as given, when it carries more than its address (a query string, which
   * may hold a token): configuration keeps it without query or userinfo. Absent when the URL had nothing
   * to hide, and on jobs stored before it existed.
   */
  callbackUrlRef?: string | null;
  out?: OutTarget;
}

/** What a completed report job stores as its result. */
export interface ReportJobResult {
  variant: ReportVariant;
  events: number;
  bytes: number;
  sha256: string;
  /** The blob key of the PDF kept until its deliveries end; null when there is nothing to deliver. */
  pdf_path: string | null;
  out_pdf: string | null;
  out_json: string | null;
  render_seconds: number;
}

export type ConfigWithoutToken = Omit<ReportConfiguration, 'auth_token'>;

/** The sealed blobs a report job's deliveries read: credential, storage URL, callback URL. */
export function deliverySecretRefs(p: ReportJobPayload): string[] {
  return [p.credentialRef, p.storageRef, p.callbackUrlRef].filter((ref): ref is string => Boolean(ref));
}

/** The configuration as the job store may hold it. */
export function withoutToken(config: ReportConfiguration): ConfigWithoutToken {
  const { auth_token: _token, ...rest } = config;
  return rest;
}
