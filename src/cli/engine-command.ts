import { type Command, Flags } from '@oclif/core';
import type { Engine } from '../engine/engine.js';
import type { JobStore } from '../engine/store.js';
import type { StoreTarget } from '../store/target.js';
import { BaseCommand } from './base-command.js';

export const STORE_FLAG_DESCRIPTION =
  'Job store: a postgres:// connection string shared by several nodes, or unset for the SQLite file under ' +
  '--home. Jobs, API keys, rate limits, reference data and kept files (uploads, report PDFs, sealed ' +
  'credentials) move there; the keys that seal stay in ASSAY_KEYS_DIR (default <home>/keys), never in it.';

/** A command that opens the job engine: it takes --store / ASSAY_STORE besides --home. */
export abstract class EngineCommand<T extends typeof Command> extends BaseCommand<T> {
  static override baseFlags = {
    ...BaseCommand.baseFlags,
    store: Flags.string({ description: STORE_FLAG_DESCRIPTION, env: 'ASSAY_STORE', helpGroup: 'GLOBAL' }),
  };

  /** The --store value; a postgres:// URL may carry a password, so it is never printed. */
  protected get store(): string | undefined {
    return (this.flags as { store?: string }).store;
  }

  /** --home and --store, as every store opener takes them. */
  protected get storeTarget(): StoreTarget {
    return { home: this.home, store: this.store };
  }

  /**
   * The engine: the job store, every job kind and the blob store. Imported when called, as are the stores:
   * a command module loads only oclif and its own code until it runs.
   */
  protected async openEngine(): Promise<Engine> {
    const { openEngine } = await import('./engine.js');
    return openEngine(this.storeTarget);
  }

  /**
   * The job store alone, for commands that only read or cancel jobs (`jobs list`, `jobs cancel`, `report
   * status`): none of the job kinds' modules (PDF, report, delivery and webhook code) nor the blob store,
   * which the engine loads.
   */
  protected async openJobStore(): Promise<JobStore> {
    const { openJobStore } = await import('../engine/open-store.js');
    return openJobStore(this.storeTarget);
  }
}
