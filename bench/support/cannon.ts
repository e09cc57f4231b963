import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/** One HTTP request shape for autocannon to repeat. */
export interface CannonRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer must have (default any 2xx): a 404 route is measured as a 404 route. */
  status?: number;
}

export interface Measurement {
  rps: number;
  p99: number;
  /** Response bytes per request (headers and body). */
  bytes: number;
  /**
   * Microseconds the main thread (where the servers run) was busy per request: steadier than req/s on a
   * shared machine, since it does not move with how fast the load generator's core happens to be.
   */
  busyUs: number;
}

interface CannonResult {
  requests: { average: number; total: number };
  statusCodeStats?: Record<string, { count: number }>;
  latency: { p99: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types and this project has no @types for it: the few members used are typed here.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: Omit<CannonRequest, 'status'> & { connections: number; duration: number; workers: number },
) => Promise<CannonResult>;

/**
 * Requests/s and p99 over `seconds` at `connections` (default 10), after a 1 s warm-up; an answer of any
 * other status than expected (any 2xx, or `request.status`) fails the benchmark.
 */
export async function measure(
  request: CannonRequest,
  seconds: number,
  connections = 10,
): Promise<Measurement> {
  const { status, ...shape } = request;
  const load = { ...shape, connections, workers: 1 };
  await autocannon({ ...load, duration: 1 });
  const before = performance.eventLoopUtilization();
  const r = await autocannon({ ...load, duration: seconds });
  const busy = performance.eventLoopUtilization(before);
  const wrong = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => (status === undefined ? !code.startsWith('2') : Number(code) !== status))
    .reduce((n, [, stat]) => n + stat.count, 0);
  if (wrong > 0 || r.errors > 0) {
    throw new Error(
      `${request.url}: ${wrong} answers not ${status ?? '2xx'} and ${r.errors} errors; the figures would lie`,
    );
  }
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    bytes: Math.round(r.throughput.total / Math.max(1, r.requests.total)),
    busyUs: (busy.active * 1000) / Math.max(1, r.requests.total),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
