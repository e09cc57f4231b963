/**
 * `assay review`'s own server: the review page for the documents of one command, on 127.0.0.1 only, on a
 * free port. The URL printed carries a one-time token; its first use trades it for an HttpOnly,
 * SameSite=Strict session cookie and redirects to the same page without it, so the token left in the
 * terminal or the browser's history opens nothing. Every other request needs the cookie.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { indexHtml } from './assets/page.js';
import { pathOf, readCookie, setSessionCookie } from './cookies.js';
import type { ReviewDoc } from './review-doc.js';
import { registerReviewRoutes, securityHeaders } from './routes.js';

export interface LocalReview {
  /** The page to open, with its one-time token. */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

const SESSION_SECONDS = 12 * 60 * 60;
const SAFE_PATH = /^\/(review\/[A-Za-z0-9_-]+)?$/;

const sameSecret = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startLocalReview(
  docs: ReviewDoc[],
  opts: { port?: number } = {},
): Promise<LocalReview> {
  const app = Fastify({ logger: false });
  let token: string | null = randomBytes(32).toString('base64url');
  const sessions = new Set<string>();
  let port = 0;
  // Cookies are per host, not per port: two review servers at once must not replace each other's session.
  const cookieName = () => `assay_review_${port}`;

  app.addHook('onRequest', async (req, reply) => {
    securityHeaders(reply);
    // Only this address: a page of another site that points a name of its own at 127.0.0.1 (DNS
    // rebinding) sends its own Host and is turned away.
    if (req.host !== `127.0.0.1:${port}` && req.host !== `localhost:${port}`)
      return reply.status(421).send({ detail: 'Use the address `assay review` printed.' });
    const presented = (req.query as { token?: unknown }).token;
    if (typeof presented === 'string') {
      if (!token || !sameSecret(presented, token))
        return reply.status(403).send({ detail: 'This review link was already used or is not valid.' });
      token = null;
      const session = randomBytes(32).toString('base64url');
      sessions.add(session);
      setSessionCookie(req, reply, {
        name: cookieName(),
        value: session,
        path: '/',
        maxAgeSeconds: SESSION_SECONDS,
      });
      const path = pathOf(req);
      return reply.redirect(SAFE_PATH.test(path) ? path : '/', 303);
    }
    if (req.url.startsWith('/review/assets/')) return;
    const session = readCookie(req, cookieName());
    if (!session || !sessions.has(session))
      return reply
        .status(403)
        .send({ detail: 'No review session: open the link `assay review` printed (it works once).' });
  });

  const byId = new Map(docs.map((d) => [d.id, d]));
  registerReviewRoutes(app, {
    docFor: async (_req: FastifyRequest, docId: string) => byId.get(docId) ?? null,
    by: () => 'cli',
  });
  app.get('/', async (_req, reply) => {
    const [only] = docs;
    if (docs.length === 1 && only) return reply.redirect(`/review/${encodeURIComponent(only.id)}`, 303);
    return reply.type('text/html; charset=utf-8').send(indexHtml(docs));
  });

  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  port = (app.server.address() as { port: number }).port;
  const [only] = docs;
  const start = docs.length === 1 && only ? `/review/${encodeURIComponent(only.id)}` : '/';
  return {
    url: `http://127.0.0.1:${port}${start}?token=${token}`,
    app,
    close: () => app.close(),
  };
}
