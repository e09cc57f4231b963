import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/** One HTTP request shape for autocannon to repeat. */
export interface CannonRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
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
  latency: { p99: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types and this project has no @types for it: the few members used are typed here.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: CannonRequest & { connections: number; duration: number; workers: number },
) => Promise<CannonResult>;

const CONNECTIONS = 10;

/** Requests/s and p99 over `seconds`, after a 1 s warm-up; any non-2xx answer fails the benchmark. */
export async function measure(request: CannonRequest, seconds: number): Promise<Measurement> {
  const load = { ...request, connections: CONNECTIONS, workers: 1 };
  await autocannon({ ...load, duration: 1 });
  const before = performance.eventLoopUtilization();
  const r = await autocannon({ ...load, duration: seconds });
  const busy = performance.eventLoopUtilization(before);
  if (r.non2xx > 0 || r.errors > 0) {
    throw new Error(
      `${request.url}: ${r.non2xx} non-2xx answers and ${r.errors} errors; the figures would lie`,
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
