import type { RateRule } from './rate-limit.js';

const fromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** SPEC.md Limits, each overridable by environment (benchmarks raise them). */
export function limitsFromEnv() {
  return {
    uploadsPerHour: {
      bucket: 'lab.upload.hour',
      limit: fromEnv('ASSAY_LIMIT_UPLOADS_PER_HOUR', 100),
      windowMs: 3_600_000,
    } satisfies RateRule,
    refdataPerSecond: {
      bucket: 'refdata.second',
      limit: fromEnv('ASSAY_LIMIT_REFDATA_PER_SECOND', 50),
      windowMs: 1_000,
    } satisfies RateRule,
    refdataPerDay: {
      bucket: 'refdata.day',
      limit: fromEnv('ASSAY_LIMIT_REFDATA_PER_DAY', 1_000),
      windowMs: 86_400_000,
    } satisfies RateRule,
  };
}

export type Limits = ReturnType<typeof limitsFromEnv>;

/**
 * Connection limits, each overridable by environment. The whole request, body included, must arrive
 * within requestTimeoutMs (50 MB at 4 Mbit/s fits in two minutes), so a client trickling a body cannot
 * hold a connection for ever; and one address may hold at most maxConnectionsPerIp sockets at once, so a
 * thousand trickling connections from one place cannot keep every other client out.
 */
export function connectionLimitsFromEnv() {
  return {
    requestTimeoutMs: fromEnv('ASSAY_REQUEST_TIMEOUT_MS', 120_000),
    maxConnectionsPerIp: fromEnv('ASSAY_MAX_CONNECTIONS_PER_IP', 128),
  };
}
