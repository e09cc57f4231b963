import { afterEach, describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/delivery/http.js';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';
import { authHeaders } from '../../src/report/delivery/auth.js';
import { callbackPutUrl, postCallback, putCallbackPdf } from '../../src/report/delivery/callback.js';
import { putPresigned } from '../../src/report/delivery/put-presigned.js';
import { type Receiver, startReceiver } from './support/receiver.js';

// The receivers here listen on 127.0.0.1, which deliveries refuse unless the process allows it.
allowPrivateTargets(true);

const pdf = Buffer.from('%PDF-1.3 a small test document %%EOF');
const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('PUT to a pre-signed URL', () => {
  it('sends the PDF bytes with Content-Type application/pdf and Content-Length', async () => {
    const r = await receiver();
    const result = await putPresigned(`${r.url}/bucket/report.pdf?X-Signature=abc`, pdf);
    expect(result).toMatchObject({ ok: true, status: 200 });
    const [req] = r.requests;
    expect(req?.method).toBe('PUT');
    expect(req?.url).toBe('/bucket/report.pdf?X-Signature=abc');
    expect(req?.headers['content-type']).toBe('application/pdf');
    expect(req?.headers['content-length']).toBe(String(pdf.length));
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body.equals(pdf)).toBe(true);
  });

  it('treats a 403 as final, explaining that the URL must be signed for PUT', async () => {
    const r = await receiver((_q, res) => res.writeHead(403).end('<Error>SignatureDoesNotMatch</Error>'));
    const result = await putPresigned(`${r.url}/bucket/report.pdf`, pdf);
    expect(result).toMatchObject({ ok: false, final: true, status: 403, errorType: 'PresignedUrlForbidden' });
    expect(result.message).toMatch(/PUT/);
    expect(result.message).toMatch(/GET/);
  });

  it('does not follow a redirect: a 3xx is a final failure and the target is never called', async () => {
    const target = await receiver();
    const r = await receiver((_q, res) => res.writeHead(307, { Location: `${target.url}/elsewhere` }).end());
    const result = await putPresigned(`${r.url}/x`, pdf);
    expect(result).toMatchObject({ ok: false, final: true, status: 307, errorType: 'RedirectNotFollowed' });
    expect(target.requests).toHaveLength(0);
  });

  it('times out a receiver that never answers, with the same error as any other lack of an answer', async () => {
    const r = await receiver(() => {
      /* never answers */
    });
    const result = await putPresigned(`${r.url}/slow`, pdf, { timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, final: false, errorType: 'DeliveryNetworkError' });
  });

  it('marks 5xx and 429 retryable with Retry-After, other 4xx final', async () => {
    const codes = [503, 429, 400];
    const r = await receiver((_q, res, i) => res.writeHead(codes[i] ?? 500, { 'Retry-After': '7' }).end());
    const results = [];
    for (const _ of codes) results.push(await putPresigned(`${r.url}/x`, pdf));
    expect(results.map((x) => [x.status, x.final, x.retryAfterMs])).toEqual([
      [503, false, 7000],
      [429, false, 7000],
      [400, true, 7000],
    ]);
  });
});

describe('callback deliveries', () => {
  const body = {
    job_id: 'job-1',
    status: 'success' as const,
    processing_time: 1.25,
    timestamp: '2025-03-14T09:30:00.000Z',
  };

  it('POSTs the A4 payload as JSON', async () => {
    const r = await receiver();
    const result = await postCallback(
      { url: `${r.url}/hook`, authType: 'none', token: null, keyName: 'X-API-Key' },
      body,
    );
    expect(result.ok).toBe(true);
    expect(r.requests[0]?.method).toBe('POST');
    expect(r.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.requests[0]?.body.toString() ?? '')).toEqual(body);
    expect(r.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('PUTs the raw PDF to callback_url?job_id=<id>, keeping an existing query', async () => {
    const r = await receiver();
    const target = {
      url: `${r.url}/hook?tenant=7`,
      authType: 'none' as const,
      token: null,
      keyName: 'X-API-Key',
    };
    await putCallbackPdf(target, 'job-42', pdf);
    const req = r.requests[0];
    expect(req?.method).toBe('PUT');
    const url = new URL(req?.url ?? '', r.url);
    expect(url.searchParams.get('job_id')).toBe('job-42');
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(req?.headers['content-type']).toBe('application/pdf');
    expect(req?.body.equals(pdf)).toBe(true);
    expect(callbackPutUrl('https://x.example/cb', 'a b')).toBe('https://x.example/cb?job_id=a+b');
  });

  it.each([
    ['bearer', 'tok-123', 'X-API-Key', { authorization: 'Bearer tok-123' }],
    [
      'basic',
      'user:pass',
      'X-API-Key',
      { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    ],
    ['api_key', 'key-9', 'X-API-Key', { 'x-api-key': 'key-9' }],
    ['api_key', 'key-9', 'X-Partner-Key', { 'x-partner-key': 'key-9' }],
  ] as const)('authenticates with %s', async (authType, token, keyName, expected) => {
    const r = await receiver();
    await postCallback({ url: `${r.url}/hook`, authType, token, keyName }, body);
    await putCallbackPdf({ url: `${r.url}/hook`, authType, token, keyName }, 'job-1', pdf);
    for (const req of r.requests) expect(req.headers).toMatchObject(expected);
  });

  it('sends no credential header for auth_type none', () => {
    expect(authHeaders('none', 'ignored', 'X-API-Key')).toEqual({});
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, capped and never negative', () => {
    const now = Date.parse('2025-03-14T09:30:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 14 Mar 2025 09:31:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Fri, 14 Mar 2025 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(3_600_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
