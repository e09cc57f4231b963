import { hash } from 'node:crypto';
import { constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Below this a gzip header and a deflate stream save too little to be worth a client's inflating. */
const MIN_GZIP_BYTES = 1024;
const MAX_CACHED_HEADERS = 64;

interface Encoded {
  identity: Buffer;
  /** Weak: the same JSON is sent plain or gzip-encoded, byte-different but semantically one answer. */
  etag: string;
  gzip?: Buffer;
}

/** A bounded memo of Accept-Encoding values: clients send few distinct ones, junk ones must not grow it. */
class HeaderCache extends Map<string, string> {
  override set(key: string, value: string): this {
    if (this.size >= MAX_CACHED_HEADERS) this.clear();
    return super.set(key, value);
  }
}

/**
 * Answers built from values shared until the data changes (the reference data store hands back the same
 * objects per dataset version). Each is serialised to UTF-8 once, and compressed once for clients that
 * accept gzip: re-stringifying and re-encoding kilobytes of rows on every request was most of its cost,
 * and all 48 KB of lab ranges shrink to a tenth. Weak, so a replaced dataset's bytes go with it.
 */
export class JsonAnswers {
  private readonly encoded = new WeakMap<object, Encoded>();
  private readonly texts = new WeakMap<object, string>();
  private readonly negotiator = new Negotiator({
    supportedValues: ['gzip', 'identity'],
    cache: new HeaderCache(),
  });

  /** The value's JSON text, for answers that embed a shared value in a per-request one. */
  json(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      this.texts.set(value, text);
    }
    return text;
  }

  /**
   * Send the value's JSON, gzip-encoded when the request accepts it and it is big enough to gain; or a 304
   * when the request's If-None-Match names this answer's ETag (RFC 9110 13.1.2, weak comparison), so a
   * client polling reference data that has not changed receives no body at all.
   */
  send(req: FastifyRequest, reply: FastifyReply, value: object): void {
    const entry = this.entry(value);
    reply.header('etag', entry.etag).header('vary', 'accept-encoding');
    const condition = req.headers['if-none-match'];
    if (condition !== undefined && noneMatchHits(condition, entry.etag)) {
      reply.code(304).send();
      return;
    }
    reply.type(JSON_TYPE);
    const accepted = req.headers['accept-encoding'];
    if (
      entry.identity.length >= MIN_GZIP_BYTES &&
      accepted &&
      this.negotiator.negotiate(accepted) === 'gzip'
    ) {
      entry.gzip ??= gzipSync(entry.identity, { level: constants.Z_BEST_COMPRESSION });
      reply.header('content-encoding', 'gzip').send(entry.gzip);
      return;
    }
    reply.send(entry.identity);
  }

  private entry(value: object): Encoded {
    let entry = this.encoded.get(value);
    if (entry === undefined) {
      const identity = Buffer.from(JSON.stringify(value));
      entry = { identity, etag: `W/"${hash('sha256', identity, 'base64url').slice(0, 27)}"` };
      this.encoded.set(value, entry);
    }
    return entry;
  }
}

/** If-None-Match: `*`, or a list of entity tags any of which weakly matches ours (the W/ prefix ignored). */
function noneMatchHits(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = etag.slice(2);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque;
  });
}
