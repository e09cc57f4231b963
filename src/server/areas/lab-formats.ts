/**
 * The results of a completed extraction in the format the client's Accept header asks for: SPEC.md's
 * JSON by default, a FHIR R4 Bundle (application/fhir+json), or CSV (text/csv). No subject reference is
 * added: the server holds none, and identifies nobody.
 */
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExtractionResults } from '../../lab/job/status-body.js';
import { toCsv } from '../../lab/output/csv.js';
import { toFhirBundle } from '../../lab/output/fhir.js';

export const FHIR_JSON = 'application/fhir+json';
export const CSV = 'text/csv';
const JSON_TYPE = 'application/json';

const negotiator = new Negotiator({ supportedValues: [JSON_TYPE, FHIR_JSON, CSV] });

export function answerIn(body: ExtractionResults, req: FastifyRequest, reply: FastifyReply): unknown {
  const accept = req.headers.accept;
  const type = accept ? (negotiator.negotiate(accept) ?? JSON_TYPE) : JSON_TYPE;
  reply.header('vary', 'Accept');
  if (type === FHIR_JSON) {
    reply.type(`${FHIR_JSON}; charset=utf-8`);
    return JSON.stringify(toFhirBundle([{ source: body.jobId, result: body }]));
  }
  if (type === CSV) {
    reply.type(`${CSV}; charset=utf-8`);
    return toCsv([{ file: body.jobId, result: body }]);
  }
  return body;
}
