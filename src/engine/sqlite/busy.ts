import { setTimeout as sleep } from 'node:timers/promises';
import { StoreError } from '../../errors.js';

/**
 * How long one statement may wait for a lock inside SQLite. better-sqlite3 is synchronous: while SQLite
 * waits, the event loop waits with it, so this stays short and longer waits happen in `retryBusy`, where
 * the loop keeps serving requests.
 */
export const STATEMENT_BUSY_MS = 20;

/** How long a store call keeps retrying a locked database before it gives up (ASSAY_BUSY_BUDGET_MS). */
export const BUSY_BUDGET_MS = 15_000;

/** The budget in force: ASSAY_BUSY_BUDGET_MS when set to a positive whole number, else 15 s. */
export function busyBudgetMs(): number {
  const set = Number(process.env.ASSAY_BUSY_BUDGET_MS);
  return Number.isInteger(set) && set > 0 ? set : BUSY_BUDGET_MS;
}

/** Another connection holds the lock (another process's transaction, a checkpoint). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Run a synchronous store call, and while the database is locked retry it after growing pauses (10 ms up to
 * 500 ms, with jitter so processes do not retry in step) until the budget is spent. Each try is one whole
 * transaction, so a retry never repeats half of one.
 */
export async function retryBusy<T>(run: () => T, budgetMs = busyBudgetMs()): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause = 10; ; pause = Math.min(500, pause * 2)) {
    try {
      return run();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() + pause > deadline)
        throw new StoreError('The job store stayed locked by another process; try again shortly.', {
          cause: error,
        });
    }
    await sleep(pause / 2 + Math.random() * (pause / 2));
  }
}
