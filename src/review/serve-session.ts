/**
 * How a browser reaches `/review/{jobId}` under `assay serve`, where every route wants an x-api-key header
 * a browser will not send. The key's holder asks `POST /review/{jobId}/session` (with the header) for a
 * signed URL good for one minute and one use; opening it trades the ticket for a session cookie
 * (HttpOnly, SameSite=Strict, Path=/review/{jobId}, 30 minutes) naming the job and the key.
 *
 * Both are HMACs under a key of the keys folder (shared by every node through ASSAY_KEYS_DIR), so any
 * node can check them and the store holds no sessions. A ticket's one use is remembered by the node that
 * took it: for its one minute, another node could take it once more; the cookie it gives is the same.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { homeKey } from '../home-secrets.js';

export const TICKET_TTL_MS = 60_000;
export const SESSION_TTL_MS = 30 * 60_000;

interface Signed {
  /** What is signed: 'ticket' or 'session', so one can never pass for the other. */
  use: 'ticket' | 'session';
  jobId: string;
  keyId: string;
  expires: number;
  nonce?: string;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export class ReviewSessions {
  private readonly spent = new Map<string, number>();
  private key: Buffer | null = null;

  constructor(private readonly home: string) {}

  private async signer(): Promise<Buffer> {
    this.key ??= Buffer.from(await homeKey(this.home, 'review-session'), 'base64');
    return this.key;
  }

  private async sign(payload: string): Promise<string> {
    return createHmac('sha256', await this.signer())
      .update(payload)
      .digest('base64url');
  }

  private async open(payload: string, signature: string, use: Signed['use'], jobId: string, now: number) {
    const expected = Buffer.from(await this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let value: Signed;
    try {
      value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Signed;
    } catch {
      return null;
    }
    if (value.use !== use || value.jobId !== jobId || !(value.expires > now)) return null;
    return value;
  }

  /** The path and query of a one-time URL that opens the job's review as `keyId`. */
  async ticketUrl(
    jobId: string,
    keyId: string,
    now = Date.now(),
  ): Promise<{ path: string; expiresAt: number }> {
    const expires = now + TICKET_TTL_MS;
    const ticket = b64({
      use: 'ticket',
      jobId,
      keyId,
      expires,
      nonce: randomBytes(16).toString('base64url'),
    });
    // The request log hides a query's `signature=` (request-log.ts), so the URL logged cannot be replayed.
    return {
      path: `/review/${jobId}?ticket=${ticket}&signature=${await this.sign(ticket)}`,
      expiresAt: expires,
    };
  }

  /** The key a valid, unspent ticket for `jobId` names, spending it; null otherwise. */
  async redeem(jobId: string, ticket: string, signature: string, now = Date.now()): Promise<string | null> {
    const value = await this.open(ticket, signature, 'ticket', jobId, now);
    if (!value?.nonce || this.spent.has(value.nonce)) return null;
    for (const [nonce, expires] of this.spent) if (expires <= now) this.spent.delete(nonce);
    this.spent.set(value.nonce, value.expires);
    return value.keyId;
  }

  async cookie(jobId: string, keyId: string, now = Date.now()): Promise<string> {
    const payload = b64({ use: 'session', jobId, keyId, expires: now + SESSION_TTL_MS });
    return `${payload}.${await this.sign(payload)}`;
  }

  /** The key a session cookie for `jobId` names while it is valid; null otherwise. */
  async session(jobId: string, cookie: string | null, now = Date.now()): Promise<string | null> {
    const dot = cookie?.indexOf('.') ?? -1;
    if (!cookie || dot === -1) return null;
    const value = await this.open(cookie.slice(0, dot), cookie.slice(dot + 1), 'session', jobId, now);
    return value?.keyId ?? null;
  }
}

export const SESSION_COOKIE = 'assay_review';
