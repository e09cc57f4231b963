import { isIP } from 'node:net';
import { isPublicAddress } from '../delivery/addresses.js';
import { hasUserinfo, USERINFO_MESSAGE } from '../schemas/credentials.js';
import { HttpError } from './error-bodies.js';

/**
 * Refused as written: names that always mean this machine or an internal zone, and any IP literal that is
 * not public (isPublicAddress: loopback in every IPv6 spelling, NAT64 and mapped private IPv4, site-local,
 * multicast, broadcast, benchmarking...). Other names are checked when each delivery connects.
 */
function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/**
 * Callback, webhook and upload URLs a caller gives us must be https and must not point inside our network
 * (server-side request forgery), unless the server was started to allow it (tests, a closed network).
 * Here the URL is checked as written; the address a name resolves to is checked when each delivery
 * connects (src/delivery/target-guard.ts), under the policy of the process delivering it.
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
