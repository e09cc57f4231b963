import type { FastifyReply, FastifyRequest } from 'fastify';

/** The value of one cookie on the request, or null (no cookie library: the review pages need one name). */
export function readCookie(req: FastifyRequest, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return null;
}

/**
 * The review session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), scoped to `path`, gone when the browser closes or after `maxAgeSeconds`; Secure over HTTPS.
 */
export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  cookie: { name: string; value: string; path: string; maxAgeSeconds: number },
): void {
  const parts = [
    `${cookie.name}=${encodeURIComponent(cookie.value)}`,
    `Path=${cookie.path}`,
    `Max-Age=${cookie.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (req.protocol === 'https') parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}

/** The request's path without its query: where a token exchange redirects to. */
export function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
}
