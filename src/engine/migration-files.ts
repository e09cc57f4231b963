import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';

/** One numbered schema step: `NNNN_name.sql` in a store's migrations folder. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The numbered migrations of one store (`src/engine/<store>/migrations`), in order. */
export function loadMigrations(store: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(packageRoot(), 'src', 'engine', store, 'migrations');
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}
