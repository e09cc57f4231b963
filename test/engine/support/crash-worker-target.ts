import { isPostgresUrl } from '../../../src/engine/postgres/url.js';
import type { StoreTarget } from '../../../src/store/target.js';

/** A crash test names its store in one argument: a postgres:// URL, or else the SQLite home directory. */
export const storeTarget = (arg: string): StoreTarget =>
  isPostgresUrl(arg) ? { home: '', store: arg } : { home: arg };
