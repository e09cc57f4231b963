import { isIP } from 'node:net';
import { hasUserinfo, USERINFO_MESSAGE } from '../schemas/credentials.js';
import { HttpError } from './error-bodies.js';

/** IPv4 ranges a caller must not point the server at: loopback, private, link-local, CGNAT, unspecified. */
const PRIVATE_V4 = [
  /^127\./,
  /^10\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^169\.254\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
  /^0\./,
];

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true;
  if (isIP(host) === 4) return PRIVATE_V4.some((r) => r.test(host));
  if (isIP(host) === 6)
    return host === '::1' || host === '::' || /^(fc|fd|fe80)/.test(host) || host.startsWith('::ffff:');
  return false;
}

/**
 * Callback, webhook and upload URLs a caller gives us must be https and must not point inside our network
 * (server-side request forgery), unless the server was started to allow it (tests, a closed network).
 * Names are checked as written; a name that resolves to a private address is not caught here.
 */
export function checkTargetUrl(value: string, field: string, allowPrivate: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HttpError(422, 'validation_error', `${field}: expected an absolute URL`);
  }
  // Userinfo would be stored with the job and written wherever the URL is shown.
  if (hasUserinfo(value)) throw new HttpError(422, 'validation_error', `${field}: ${USERINFO_MESSAGE}`);
  if (allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new HttpError(422, 'validation_error', `${field}: expected an http(s) URL`);
    }
    return;
  }
  if (url.protocol !== 'https:')
    throw new HttpError(422, 'validation_error', `${field}: expected an https URL`);
  if (isPrivateHost(url.hostname)) {
    throw new HttpError(
      422,
      'validation_error',
      `${field}: private, loopback and link-local addresses are refused`,
    );
  }
}
