/**
 * The review page's routes, shared by `assay review`'s local server and `assay serve`: the page, its
 * script and stylesheet, its state, revisions, page images and exports. Who may see which document is
 * the caller's to say (`docFor`): a session cookie of the local server, or an API key's signed session
 * under serve. Every answer carries `Cache-Control: no-store` and a CSP that lets the page load nothing
 * but these routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toCsv } from '../lab/output/csv.js';
import { toFhirBundle } from '../lab/output/fhir.js';
import type { ExtractionCore } from '../lab/types.js';
import { formatZodError } from '../schemas/errors.js';
import { REVIEW_JS } from './assets/client.js';
import { REVIEW_CSS, REVIEW_ICON, reviewHtml } from './assets/page.js';
import { renderPage } from './page-image.js';
import type { ReviewDoc } from './review-doc.js';
import { reviewPages, reviewState } from './review-state.js';
import { applyRevisions, newRevision, revisionInputSchema } from './revisions.js';

const MAX_PDF_BYTES = 50 * 1024 * 1024;

export const REVIEW_CSP = [
  "default-src 'none'",
  "img-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every review answer, errors included: nothing cached, sniffed, framed or referred. */
export function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', REVIEW_CSP);
  reply.header('cache-control', 'no-store');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-resource-policy', 'same-origin');
}

export interface ReviewRouteOptions {
  /** The document this request may review at /review/:docId, or null (answered 404). */
  docFor(req: FastifyRequest, docId: string): Promise<ReviewDoc | null>;
  /** Who makes a change: 'cli', or the API key's id. */
  by(req: FastifyRequest): string;
}

/** A review error in the `{detail}` shape the non-lab routes use, with the review headers. */
function fail(reply: FastifyReply, status: number, detail: string) {
  securityHeaders(reply);
  return reply.status(status).send({ detail });
}

/**
 * A change must come from the page itself: the cookie is SameSite=Strict already, and a browser's Origin
 * (or Sec-Fetch-Site) naming another site is refused on top of it.
 */
function crossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site && site !== 'same-origin') return true;
  const origin = req.headers.origin;
  return origin !== undefined && origin !== `${req.protocol}://${req.host}`;
}

export function registerReviewRoutes(app: FastifyInstance, opts: ReviewRouteOptions): void {
  app.addHook('onRequest', async (_req, reply) => securityHeaders(reply));

  app.get('/review/assets/review.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').send(REVIEW_JS),
  );
  app.get('/review/assets/icon.svg', async (_req, reply) => reply.type('image/svg+xml').send(REVIEW_ICON));
  app.get('/review/assets/review.css', async (_req, reply) =>
    reply.type('text/css; charset=utf-8').send(REVIEW_CSS),
  );

  const withDoc =
    (
      handler: (doc: ReviewDoc, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    ): ((req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (req, reply) => {
      const { docId } = req.params as { docId: string };
      const doc = await opts.docFor(req, docId);
      if (!doc) return fail(reply, 404, `Nothing to review at ${docId}.`);
      return handler(doc, req, reply);
    };

  app.get(
    '/review/:docId',
    withDoc(async (doc, _req, reply) =>
      reply.type('text/html; charset=utf-8').send(reviewHtml(doc.id, doc.label)),
    ),
  );

  app.get(
    '/review/:docId/api/state',
    withDoc(async (doc) => reviewState(doc)),
  );

  app.post(
    '/review/:docId/api/revisions',
    withDoc(async (doc, req, reply) => {
      if (crossSite(req)) return fail(reply, 403, 'Changes are only taken from the review page itself.');
      const parsed = revisionInputSchema.safeParse(req.body);
      if (!parsed.success) return fail(reply, 400, formatZodError(parsed.error));
      const state = await reviewState(doc);
      if (!state.rows.some((r) => r.id === parsed.data.resultId))
        return fail(reply, 404, `No result ${parsed.data.resultId} in this document.`);
      await doc.append(newRevision(parsed.data, opts.by(req)));
      return reviewState(doc);
    }),
  );

  // The reviewer's own copy of the PDF, for page images where none is kept (serve): memory only.
  app.addContentTypeParser('application/pdf', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.put(
    '/review/:docId/api/pdf',
    { bodyLimit: MAX_PDF_BYTES },
    withDoc(async (doc, req, reply) => {
      if (crossSite(req)) return fail(reply, 403, 'The PDF is only taken from the review page itself.');
      if (!doc.attachPdf || doc.pdf) return fail(reply, 404, 'This review has its PDF already.');
      const body = req.body;
      if (!Buffer.isBuffer(body) || body.subarray(0, 5).toString('latin1') !== '%PDF-')
        return fail(reply, 400, 'Expected the PDF itself (Content-Type: application/pdf).');
      const bytes = new Uint8Array(body);
      doc.attachPdf(bytes);
      doc.pdf = { bytes };
      return reviewState(doc);
    }),
  );

  app.get(
    '/review/:docId/api/pages/:page',
    withDoc(async (doc, req, reply) => {
      const page = Number((req.params as { page: string }).page);
      if (!doc.pdf) return fail(reply, 404, 'No PDF is at hand for this document.');
      if (!Number.isInteger(page) || !reviewPages(await doc.original()).has(page))
        return fail(reply, 404, 'No such page with results.');
      const png = await renderPage(doc.pdf, page);
      if (!png) return fail(reply, 404, 'The page could not be rendered.');
      return reply.type('image/png').send(png);
    }),
  );

  app.get(
    '/review/:docId/api/export/:format',
    withDoc(async (doc, req, reply) => {
      const format = (req.params as { format: string }).format;
      const reviewed = applyRevisions(await doc.original(), await doc.revisions());
      const name = `${doc.id}.reviewed`;
      const core = reviewed as unknown as ExtractionCore;
      if (format === 'json') {
        reply.header('content-disposition', `attachment; filename="${name}.json"`);
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(reviewed, null, 2));
      }
      if (format === 'fhir') {
        reply.header('content-disposition', `attachment; filename="${name}.fhir.json"`);
        const bundle = toFhirBundle([{ source: doc.id, result: core }]);
        return reply.type('application/fhir+json; charset=utf-8').send(JSON.stringify(bundle, null, 2));
      }
      if (format === 'csv') {
        reply.header('content-disposition', `attachment; filename="${name}.csv"`);
        return reply.type('text/csv; charset=utf-8').send(toCsv([{ file: doc.id, result: core }]));
      }
      return fail(reply, 404, 'Formats: json, fhir, csv.');
    }),
  );
}
