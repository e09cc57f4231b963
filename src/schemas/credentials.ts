/**
 * Rules for what a caller gives us to authenticate our deliveries with. Each is checked when the request
 * arrives (422), because a value that only fails at delivery ends up quoted in an error message, a log line
 * or the store; a credential must never get that far.
 */

/**
 * Headers an `api_key` credential may not be sent as: they frame or route the request (a Host or
 * Content-Length of the caller's choosing desynchronises the exchange) or describe the body we send.
 */
export const FORBIDDEN_AUTH_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'content-type',
  'content-encoding',
  'proxy-authorization',
  'proxy-connection',
  'http2-settings',
]);

/** Visible Latin-1 with inner spaces/tabs (RFC 9110 field-value): no CR, LF, NUL or other controls. */
const HEADER_VALUE = /^[\x21-\x7E\x80-\xFF](?:[\t\x20-\x7E\x80-\xFF]*[\x21-\x7E\x80-\xFF])?$/;
/** The same without the Latin-1 limit, for a basic credential, which is sent base64-encoded as UTF-8. */
const PRINTABLE = /^[^\p{Cc}](?:[^\p{Cc}]*[^\p{Cc}])?$/u;

/** Why this token cannot be sent as the given auth type, or null when it can. */
export function tokenProblem(authType: string, token: string): string | null {
  if (authType === 'basic')
    return PRINTABLE.test(token)
      ? null
      : 'expected a credential without control characters (CR, LF, NUL...) or surrounding spaces';
  return HEADER_VALUE.test(token)
    ? null
    : 'expected a credential of visible Latin-1 characters: no CR, LF or other control characters, no characters outside Latin-1, no surrounding spaces';
}

/** Why this header cannot carry an api_key credential, or null when it can. */
export function keyNameProblem(name: string): string | null {
  return FORBIDDEN_AUTH_HEADERS.has(name.toLowerCase())
    ? `expected a header that does not frame the request (not ${name}); X-API-Key is the default`
    : null;
}

/** True when the URL carries user:password@ (credentials that would be stored and logged with it). */
export function hasUserinfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

export const USERINFO_MESSAGE =
  'expected a URL without user:password@; send the credential as auth_type/auth_token';
