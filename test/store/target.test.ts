import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBlobStore } from '../../src/blobs/open.js';
import { openJobStore } from '../../src/engine/open-store.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { openKeyStore } from '../../src/keys/open.js';
import { openLimitStore } from '../../src/limits/open.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { postgresUrl } from '../../src/store/target.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const MESSAGE = '--store (ASSAY_STORE) must be a postgres:// or postgresql:// connection string.';

describe('the --store value', () => {
  const home = tmpHome('assay-store-target-');
  afterAll(() => home.cleanup());

  it('names the home when unset or sqlite, and PostgreSQL for either scheme', () => {
    expect(postgresUrl({ home: home.dir }, 'jobs')).toBeNull();
    expect(postgresUrl({ home: home.dir, store: 'sqlite' }, 'jobs')).toBeNull();
    expect(postgresUrl({ home: home.dir, store: 'postgresql://db/assay' }, 'jobs')).toBe(
      'postgresql://db/assay',
    );
    expect(postgresUrl({ home: home.dir, store: 'POSTGRES://db/assay' }, 'jobs')).toBe('POSTGRES://db/assay');
  });

  // Each opener says what it would keep under --home; a wrong value never falls back to the home's file.
  it.each([
    ['jobs', openJobStore, 'Leave it unset to keep jobs in the SQLite file under --home.'],
    ['kept files', openBlobStore, 'Leave it unset to keep jobs and files under --home.'],
    [
      'keys',
      openKeyStore,
      'Leave it unset to keep jobs, keys and rate limits in the SQLite file under --home.',
    ],
    [
      'limits',
      openLimitStore,
      'Leave it unset to keep jobs, keys and rate limits in the SQLite file under --home.',
    ],
    [
      'reference data',
      openRefdataStore,
      'Leave it unset to keep reference data in the SQLite file under --home.',
    ],
  ])('%s: anything else is one usage error, before the home is touched', async (_, open, hint) => {
    const error = await open({ home: home.dir, store: 'mysql://db/assay' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: MESSAGE, exitCode: EXIT.usage, suggestions: [hint] });
    expect(existsSync(join(home.dir, 'assay.db'))).toBe(false);
  });
});
