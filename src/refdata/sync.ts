import type Database from 'better-sqlite3';
import { bundledDataset, datasetVersion, type RefDataset, validateDataset } from './dataset.js';
import type { ChangeCounts, RefdataBackend } from './refdata-store.js';
import { datasetRows, type TableName } from './rows.js';
import { readFolderDataset } from './sources/folder.js';
import { readServerDataset } from './sources/http.js';
import { RefdataStore } from './store.js';

/** Where a sync takes its data from. */
export type RefdataSource =
  | { kind: 'bundled' }
  | { kind: 'server'; url: string; apiKey?: string; ages?: readonly number[] }
  | { kind: 'folder'; dir: string };

export type ResourceName =
  | 'reference_data'
  | 'predictor_statistics'
  | 'top_disease_predictors'
  | 'lab_ranges';

export interface SyncResult {
  dataset_version: string;
  source: string;
  scoring_version: string;
  synced_at: string;
  resources: Record<ResourceName, ChangeCounts>;
}

export interface SyncOptions {
  /** Called inside the transaction after each resource is written (progress; tests use it to crash mid-way). */
  onProgress?: (resource: ResourceName, counts: ChangeCounts) => void;
  fetch?: typeof fetch;
  now?: () => Date;
}

/** `--from` as a source: an http(s) URL is a server, anything else a folder; absent is the bundled dataset. */
export function sourceFromFlag(from: string | undefined, apiKey?: string): RefdataSource {
  if (!from) return { kind: 'bundled' };
  if (/^https?:\/\//i.test(from)) return { kind: 'server', url: from, apiKey };
  return { kind: 'folder', dir: from };
}

const RESOURCE_TABLES: Record<ResourceName, TableName[]> = {
  reference_data: ['concepts'],
  predictor_statistics: ['statistics'],
  top_disease_predictors: ['topDomains', 'top'],
  lab_ranges: ['labRanges'],
};
const RESOURCE_OF = Object.fromEntries(
  Object.entries(RESOURCE_TABLES).flatMap(([resource, tables]) => tables.map((t) => [t, resource])),
) as Record<TableName, ResourceName>;

/**
 * Replace the stored reference data with `source`'s (a SQLite connection is taken as that home's store).
 * The data are read and validated in full first; then every table is brought to the new content in ONE
 * transaction, so a crash or kill at any point leaves the previous dataset whole, and concurrent readers
 * (on any node) see either the old or the new dataset, never a mix. Rows already equal are left alone: syncing the same data twice reports 0 changes the second time.
 */
export async function syncRefdata(
  target: RefdataStore | RefdataBackend | Database.Database,
  source: RefdataSource = { kind: 'bundled' },
  options: SyncOptions = {},
): Promise<SyncResult> {
  const store = target instanceof RefdataStore ? target : new RefdataStore(target);
  const { dataset, label, origin } = await readSource(store, source, options);
  const valid = validateDataset(dataset, label);
  const meta = {
    dataset_version: datasetVersion(valid, origin),
    source: label,
    scoring_version: valid.scoring_version,
    synced_at: (options.now ?? (() => new Date()))().toISOString(),
  };
  const resources = {} as Record<ResourceName, ChangeCounts>;
  for (const resource of Object.keys(RESOURCE_TABLES) as ResourceName[])
    resources[resource] = { added: 0, updated: 0, removed: 0 };
  await store.backend.replace(datasetRows(valid), meta, (table, c) => {
    const resource = RESOURCE_OF[table];
    const counts = resources[resource];
    counts.added += c.added;
    counts.updated += c.updated;
    counts.removed += c.removed;
    if (RESOURCE_TABLES[resource].at(-1) === table) options.onProgress?.(resource, counts);
  });
  return { ...meta, resources };
}

async function readSource(
  store: RefdataStore,
  source: RefdataSource,
  options: SyncOptions,
): Promise<{ dataset: RefDataset; label: string; origin: string }> {
  if (source.kind === 'bundled') return { dataset: bundledDataset(), label: 'bundled', origin: 'bundled' };
  if (source.kind === 'server') {
    const dataset = await readServerDataset({
      url: source.url,
      apiKey: source.apiKey,
      ages: source.ages,
      fetch: options.fetch,
      now: options.now,
    });
    return { dataset, label: source.url, origin: 'server' };
  }
  const base = await store.dataset();
  return { dataset: readFolderDataset(source.dir, base), label: source.dir, origin: 'folder' };
}
