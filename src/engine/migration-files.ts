import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';

/** One numbered schema step: `NNNN_name.sql` in a store's migrations folder. */
export interface Migration {
  version: number;
  name: string;
  /** The step's SQL, read from its file when first asked for. */
  readonly sql: string;
}

/**
 * The numbered migrations of one store (`src/engine/<store>/migrations`), in order. Only the folder is read
 * here; a step's file is read when its SQL is: a store already at the latest version reads none (every
 * `assay` command opens the store, `jobs list` included).
 */
export function loadMigrations(store: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(packageRoot(), 'src', 'engine', store, 'migrations');
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => {
      let sql: string | undefined;
      return {
        version: Number(f.slice(0, 4)),
        name: f,
        get sql() {
          sql ??= readFileSync(join(dir, f), 'utf8');
          return sql;
        },
      };
    });
}
