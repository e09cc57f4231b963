import pg from 'pg';
import { inject } from 'vitest';
import type { PgServer } from './postgres-server.js';

let databases = 0;

/**
 * The run's PostgreSQL server (test/support/postgres-global.ts) for the calling test file. Each test takes a
 * database of its own with createDatabase(), named for this process and a random tail so files never share one.
 */
export function postgresForSuite(): Pick<PgServer, 'createDatabase' | 'dir'> {
  const shared = () => {
    const server = inject('assayPg');
    if (!server) throw new Error('postgresForSuite: no PostgreSQL for this run; the system tier starts one.');
    return server;
  };
  return {
    async createDatabase() {
      const { url } = shared();
      databases += 1;
      const name = `assay_${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url.replace('/postgres?', `/${name}?`);
    },
    get dir() {
      return shared().dir;
    },
  };
}
