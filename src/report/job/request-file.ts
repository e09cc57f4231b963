import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../../errors.js';
import {
  type FullReportRequest,
  hasDestination,
  type ParsedReportRequest,
  parseReportRequest,
} from '../../schemas/report.js';
import { isFhirBundle, resultsOfBundle } from '../from-labs/lab-results.js';
import type { Person } from '../from-labs/person.js';
import { buildLabRequest, type LabRequest } from '../from-labs/request.js';
import { snapshotEvent } from '../from-labs/snapshot.js';

export interface RequestFile {
  path: string;
  /** File name without .json: the stem of <name>.pdf and <name>.report.json. */
  name: string;
  /** sha256 of the bytes read: with the name, the idempotency key of watch mode. */
  hash: string;
  parsed: ParsedReportRequest;
  /** For a FHIR Bundle of lab results: the events, conflicts and unusable results of the request built. */
  fromLabs?: Omit<LabRequest, 'request'>;
}

export interface LoadOptions {
  condensed: boolean;
  hasOut: boolean;
  /** The person a FHIR Bundle's results are about (date of birth, sex ...); asked for only for a Bundle. */
  person?: () => Person;
  /** report_metadata members given by flags (--lookback, --use-doubtful); they win over the file's. */
  metadata?: { lookback_months?: number; use_doubtful?: boolean };
}

const isRequestFile = (f: string) => f.endsWith('.json') && !f.endsWith('.report.json');

/** The request files named on the command line: files as given, directories by their *.json. */
export function expandRequestPaths(paths: string[]): string[] {
  return paths.flatMap((p) => {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(p);
    } catch {
      throw new UsageError(`${p}: no such file or directory.`);
    }
    if (!stat.isDirectory()) return [p];
    return readdirSync(p)
      .filter(isRequestFile)
      .sort()
      .map((f) => join(p, f));
  });
}

export { isRequestFile };

/**
 * A full request turned into a condensed one (`--condensed`): its latest event, completed from earlier
 * events inside the lookback window when the request sets one (snapshot.ts).
 */
function condensedFrom(parsed: ParsedReportRequest): ParsedReportRequest {
  if (parsed.variant === 'condensed') return parsed;
  const { health_events: _events, ...rest } = parsed.request as FullReportRequest;
  return {
    variant: 'condensed',
    request: { ...rest, health_event: snapshotEvent(parsed.request as FullReportRequest) },
  };
}

/** Flags' report_metadata members over the file's; a file that is no object is left to the validator. */
function withMetadata(json: unknown, members: LoadOptions['metadata']): unknown {
  const given = Object.entries(members ?? {}).filter(([, v]) => v !== undefined);
  if (given.length === 0 || typeof json !== 'object' || json === null) return json;
  const request = json as { report_metadata?: unknown };
  if (typeof request.report_metadata !== 'object' || request.report_metadata === null) return json;
  return { ...request, report_metadata: { ...request.report_metadata, ...Object.fromEntries(given) } };
}

/**
 * Read and validate one request file. Without `out`, the request must name a destination itself; the error
 * says how to fix either way.
 */
export function loadRequestFile(path: string, opts: LoadOptions): RequestFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new UsageError(`${path}: cannot read the file (${(cause as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new UsageError(`${path}: not valid JSON (${(cause as Error).message}).`);
  }
  let fromLabs: RequestFile['fromLabs'];
  if (isFhirBundle(json)) {
    const { request, ...rest } = requestFromBundle(path, json, opts);
    json = request;
    fromLabs = rest;
  }
  const full = parseReportRequest(withMetadata(json, opts.metadata), {
    requireDestination: false,
    what: path,
  });
  const parsed = opts.condensed ? condensedFrom(full) : full;
  if (!opts.hasOut && !hasDestination(parsed.request)) {
    throw new UsageError(`${path}: the request has no destination, so the report would go nowhere.`, [
      'Pass --out DIR to write <name>.pdf and <name>.report.json to a directory.',
      'Or set report_metadata.configuration.storage_presigned_url or callback_url in the request.',
    ]);
  }
  return {
    path,
    // A Bundle written by `lab extract --format fhir` is <name>.fhir.json; its report is <name>.pdf.
    name: basename(path).replace(fromLabs ? /(\.fhir)?\.json$/i : /\.json$/i, ''),
    hash: createHash('sha256').update(bytes).digest('hex'),
    parsed,
    ...(fromLabs ? { fromLabs } : {}),
  };
}

/** A FHIR Bundle of lab Observations becomes a full request, built as `report from-labs` builds one. */
function requestFromBundle(
  path: string,
  bundle: Parameters<typeof resultsOfBundle>[0],
  opts: LoadOptions,
): LabRequest {
  const example = `assay report generate ${basename(path)} --dob 1970-01-31 --sex female --out reports/`;
  const what = `${path} is a FHIR Bundle of lab results, so the request is built from it`;
  if (!opts.person) throw new UsageError(`${what} with --dob and --sex.`, [example]);
  let person: Person;
  try {
    person = opts.person();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${what}. ${error.message}`, [example]);
    throw error;
  }
  return buildLabRequest(resultsOfBundle(bundle, basename(path)), person);
}

/** The request's destinations dropped (`--no-deliver`): the report is rendered to --out and sent nowhere. */
export function withoutDestinations(file: RequestFile): void {
  const config = file.parsed.request.report_metadata.configuration;
  file.parsed.request.report_metadata.configuration = {
    auth_type: 'none',
    auth_key_name: config.auth_key_name,
  };
}
