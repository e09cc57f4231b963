import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction as HookDone,
} from 'fastify';
import type { ApiKey } from '../keys/api-keys.js';
import type { KeyVerifier } from '../keys/verifier.js';
import { HttpError } from './error-bodies.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

/** Paths anyone may read: probes and the API description (/docs and the assets under it). */
const PUBLIC = new Set(['/healthz', '/readyz', '/openapi.json', '/docs']);
const isPublic = (path: string) => PUBLIC.has(path) || path.startsWith('/docs/');

/**
 * Every route but the public ones needs `x-api-key` (SPEC.md Authentication; report routes too, by our
 * choice since SPEC.md leaves them open). Upload PUTs to a signed URL authenticate by their signature.
 */
export function registerAuth(
  app: FastifyInstance,
  keys: KeyVerifier,
  opts: { signedByUrl?: (req: FastifyRequest, path: string) => boolean } = {},
): void {
  app.decorateRequest('apiKey', null);
  // A callback hook rather than an async one: it runs on every request, and the promise was measurable.
  // A cached key is answered synchronously; only a key the verifier must read from the store waits.
  app.addHook('onRequest', (req: FastifyRequest, _reply: FastifyReply, done: HookDone) => {
    const query = req.url.indexOf('?');
    const path = query === -1 ? req.url : req.url.slice(0, query);
    if (isPublic(path) || opts.signedByUrl?.(req, path)) return done();
    const presented = req.headers['x-api-key'];
    const accept = (key: ApiKey | null) => {
      if (!key)
        return done(new HttpError(401, 'unauthorized', 'Missing or invalid API key (header x-api-key).'));
      req.apiKey = key;
      done();
    };
    const key = keys.check(Array.isArray(presented) ? presented[0] : presented);
    if (key instanceof Promise) key.then(accept, done);
    else accept(key);
  });
}
