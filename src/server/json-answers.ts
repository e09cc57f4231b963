import { constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Below this a gzip header and a deflate stream save too little to be worth a client's inflating. */
const MIN_GZIP_BYTES = 1024;
const MAX_CACHED_HEADERS = 64;

interface Encoded {
  json: string;
  identity: Buffer;
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
  private readonly negotiator = new Negotiator({
    supportedValues: ['gzip', 'identity'],
    cache: new HeaderCache(),
  });

  /** The value's JSON text. */
  json(value: object): string {
    return this.entry(value).json;
  }

  /** Send the value's JSON, gzip-encoded when the request accepts it and it is big enough to gain. */
  send(req: FastifyRequest, reply: FastifyReply, value: object): void {
    const entry = this.entry(value);
    reply.type(JSON_TYPE).header('vary', 'accept-encoding');
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
      const json = JSON.stringify(value);
      entry = { json, identity: Buffer.from(json) };
      this.encoded.set(value, entry);
    }
    return entry;
  }
}
