/**
 * `npm run bench -- blobs [MB]`: time to put and get one upload-sized blob (default 50 MB, the pre-signed
 * upload limit) in the home's files and in PostgreSQL (a durable throwaway server on a unix socket), and
 * the process's peak RSS, to size nodes. Each figure is the median of 5 runs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '../src/blobs/file.js';
import { PgBlobStore } from '../src/blobs/postgres.js';
import type { BlobStore } from '../src/blobs/store.js';
import { startPostgres } from '../test/support/postgres-server.js';

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function measure(name: string, store: BlobStore, bytes: Buffer): Promise<void> {
  const puts: number[] = [];
  const gets: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await store.put(`uploads/bench-${i}.pdf`, bytes);
    puts.push(performance.now() - t);
    t = performance.now();
    const back = await store.get(`uploads/bench-${i}.pdf`);
    gets.push(performance.now() - t);
    if (back?.length !== bytes.length) throw new Error(`${name}: read back ${back?.length} bytes`);
    await store.delete(`uploads/bench-${i}.pdf`);
  }
  const mb = bytes.length / 1e6;
  const rate = (ms: number) => `${(mb / (ms / 1000)).toFixed(0)} MB/s`;
  console.log(
    `${name.padEnd(10)} put ${median(puts).toFixed(0)} ms (${rate(median(puts))})  ` +
      `get ${median(gets).toFixed(0)} ms (${rate(median(gets))})  ` +
      `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
}

export async function run(args: string[]): Promise<void> {
  const bytes = randomBytes(Number(args[0] ?? 50) * 1e6);
  console.log(`one ${bytes.length / 1e6} MB blob, median of ${RUNS}`);
  const home = mkdtempSync(join(tmpdir(), 'assay-bench-blobs-'));
  const server = await startPostgres({ durable: true });
  try {
    await measure('home files', new FileBlobStore(home), bytes);
    const pg = await PgBlobStore.open(await server.createDatabase());
    await measure('postgres', pg, bytes);
    await pg.close();
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
