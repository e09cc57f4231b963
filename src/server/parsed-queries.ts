const MAX_REMEMBERED = 256;

/**
 * A route's validated query, remembered by the raw query string it came from: the parsed query is a pure
 * function of that string, and clients repeat the same few queries, so validating them again (a schema
 * parse per request) is work done once. Only queries that validated are kept, since a refusal throws; the
 * bound keeps junk queries from growing memory: forgotten all at once when full, like the key cache.
 */
export class ParsedQueries<T> {
  private readonly parsed = new Map<string, T>();

  constructor(private readonly max = MAX_REMEMBERED) {}

  /** The query part of a URL, after `?` ('' when there is none). */
  static rawOf(url: string): string {
    const q = url.indexOf('?');
    return q === -1 ? '' : url.slice(q + 1);
  }

  /** What `parse` gives for this raw query; it runs only for a query not seen (or forgotten). */
  get(raw: string, parse: () => T): T {
    const known = this.parsed.get(raw);
    if (known !== undefined) return known;
    const value = parse();
    if (this.parsed.size >= this.max) this.parsed.clear();
    this.parsed.set(raw, value);
    return value;
  }
}
