/** Shared by the engine benchmark and its worker processes. */
export const NOOP = 'noop';
/**
 * Jobs one assay worker process runs at once: 16 as a node would run real jobs, 800 to hold as many as
 * pg-boss's throughput setting below.
 */
export const ASSAY_SETTINGS = { 'assay-16': 16, 'assay-800': 800 } as const;
export type AssaySetting = keyof typeof ASSAY_SETTINGS;

/**
 * pg-boss 10 (the last major that runs on Node 20) waits out its polling interval (0.5 s at least) after
 * every fetch, so a work() loop runs at most batchSize jobs per half second. Two settings: the same 16 jobs
 * in flight per process as assay, and a throughput setting with 800.
 */
export const PG_BOSS_SETTINGS = {
  'pg-boss-16': { loops: 1, batchSize: 16 },
  'pg-boss-800': { loops: 4, batchSize: 200 },
} as const;
export type PgBossSetting = keyof typeof PG_BOSS_SETTINGS;
