import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import { readCookie, setSessionCookie } from '../../review/cookies.js';
import { PdfMemory } from '../../review/pdf-memory.js';
import { completedLabJob, jobReviewDoc } from '../../review/review-doc.js';
import { registerReviewRoutes, securityHeaders } from '../../review/routes.js';
import { ReviewSessions, SESSION_COOKIE, SESSION_TTL_MS } from '../../review/serve-session.js';
import type { Area } from '../area.js';
import { HttpError, notFound } from '../error-bodies.js';

const SESSION_PATH = /^\/review\/[^/]+\/session$/;

/**
 * The review pages authenticate themselves (a signed one-time URL, then a session cookie): a browser
 * sends no x-api-key. Minting the URL, `POST /review/{jobId}/session`, goes through the API key like every
 * other route.
 */
export const reviewAuthenticatesItself = (req: FastifyRequest, path: string): boolean =>
  path.startsWith('/review/') && !(req.method === 'POST' && SESSION_PATH.test(path));

const sessionSchema = z.object({ url: z.string(), expiresAt: z.string() });

/** The review page of a lab job (README "Trust in each row"), for the API key that owns the job. */
export const reviewArea: Area = {
  name: 'review',
  components: { ReviewSession: sessionSchema },
  routes: [
    {
      method: 'post',
      path: '/review/{jobId}/session',
      summary:
        'A one-time URL (one minute) that opens the review page of a completed lab job you own in a browser.',
      tag: 'review',
      responses: {
        200: { description: 'The URL to open', schema: sessionSchema },
        404: { description: 'Unknown job (or another key’s)' },
        409: { description: 'The job has no results to review' },
      },
    },
    {
      method: 'get',
      path: '/review/{jobId}',
      summary: 'The review page (opened through the URL the session route returns; then a session cookie).',
      tag: 'review',
      public: true,
      responses: { 200: { description: 'HTML page' }, 404: { description: 'No session for this job' } },
    },
  ],

  async register(app, deps) {
    const sessions = new ReviewSessions(deps.home);
    const pdfs = new PdfMemory(SESSION_TTL_MS);
    const publicBase = process.env.ASSAY_PUBLIC_URL?.replace(/\/$/, '');

    app.post('/review/:jobId/session', async (req, reply) => {
      const { jobId } = req.params as { jobId: string };
      const owner = req.apiKey?.id ?? null;
      try {
        await completedLabJob(deps.engine, jobId, owner);
      } catch (error) {
        if (error instanceof NotFoundError) return notFound(req, reply, `No lab job with id ${jobId}.`);
        throw new HttpError(409, 'conflict', (error as Error).message);
      }
      const { path, expiresAt } = await sessions.ticketUrl(jobId, owner ?? '');
      return {
        url: `${publicBase ?? `${req.protocol}://${req.host}`}${path}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    });

    // Opening the one-time URL: the ticket becomes the cookie, and the page is loaded again without it.
    app.addHook('onRequest', async (req, reply) => {
      const query = req.query as { ticket?: unknown; signature?: unknown };
      const match = /^\/review\/([^/?]+)$/.exec(req.url.split('?')[0] ?? '');
      if (!match?.[1] || typeof query.ticket !== 'string' || typeof query.signature !== 'string') return;
      securityHeaders(reply);
      const jobId = decodeURIComponent(match[1]);
      const keyId = await sessions.redeem(jobId, query.ticket, query.signature);
      if (keyId === null)
        return reply.status(403).send({ detail: 'This review link has expired or was already used.' });
      setSessionCookie(req, reply, {
        name: SESSION_COOKIE,
        value: await sessions.cookie(jobId, keyId),
        path: `/review/${jobId}`,
        maxAgeSeconds: SESSION_TTL_MS / 1000,
      });
      return reply.redirect(`/review/${encodeURIComponent(jobId)}`, 303);
    });

    // The key a request's session names, once docFor has checked it: the author of its revisions.
    const keyOfRequest = new WeakMap<FastifyRequest, string>();

    registerReviewRoutes(app, {
      async docFor(req, jobId) {
        const keyId = await sessions.session(jobId, readCookie(req, SESSION_COOKIE));
        if (keyId === null) return null;
        keyOfRequest.set(req, keyId);
        // The job must still be this key's (a CLI job, with no owner, is reviewed with `assay review`).
        const held = `${keyId}:${jobId}`;
        const bytes = pdfs.get(held);
        const doc = await jobReviewDoc(deps.engine, jobId, {
          owner: keyId,
          pdf: bytes ? { bytes } : null,
        }).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        if (doc) doc.attachPdf = (pdf) => pdfs.put(held, pdf);
        return doc;
      },
      by: (req) => keyOfRequest.get(req) ?? 'unknown',
    });
  },
};
