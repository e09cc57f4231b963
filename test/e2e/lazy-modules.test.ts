import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, json } from './cli.js';

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const TRACER = fileURLToPath(new URL('../../bench/support/module-trace.mjs', import.meta.url));
/** Packages only extraction and render threads need: a main thread that loads them pays for nothing. */
const THREAD_ONLY = ['pdfjs-dist', 'pdfkit', '@napi-rs/canvas', 'franc'];

function loadedPackages(traceFile: string): Set<string> {
  const lines = readFileSync(traceFile, 'utf8').split('\n');
  const names = lines.map((l) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(l)?.[1]).filter(Boolean);
  return new Set(names as string[]);
}

describe('each process loads only the job handlers it runs (real processes, traced module loads)', () => {
  const home = tmpHome('assay-lazy-e2e-');
  afterAll(() => home.cleanup());
  const traced = (name: string) => {
    const file = join(home.dir, `${name}.trace`);
    return {
      file,
      env: { ASSAY_HOME: home.dir, ASSAY_MODULE_TRACE: file, NODE_OPTIONS: `--import=${TRACER}` },
    };
  };

  it('`assay jobs list` loads no PDF, canvas or language-detection module', async () => {
    const t = traced('jobs-list');
    const r = await assay(['jobs', 'list', '--json'], t.env);
    expect(r.exitCode).toBe(0);
    const loaded = loadedPackages(t.file);
    expect(loaded.has('better-sqlite3')).toBe(true); // the trace sees what the command really used
    for (const name of THREAD_ONLY) expect(loaded, name).not.toContain(name);
    expect(loaded, 'the PostgreSQL client on the SQLite default').not.toContain('pg');
  });

  it("`assay serve`'s main thread answers JSON, 404 and unauthenticated requests without pdf.js or pdfkit", async () => {
    const key = json<{ key: string }>(
      await assay(['keys', 'create', '--name', 'lazy', '--json'], { ASSAY_HOME: home.dir }),
    ).key;
    const t = traced('serve');
    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log-level', 'silent'], {
      env: { ...process.env, ...t.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const stats = await fetch(`${url}/predictor-statistics/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        header: {
          event_id: '7d9f6a1e-3c1b-4a53-9d0e-2f7c1a9b8e11',
          event_asof_dtutc: '2026-01-15T10:00:00Z',
        },
        sex: 'female',
        age: 50,
      }),
    });
    expect(stats.status).toBe(200);
    expect((await fetch(`${url}/lab-results/no-such-job`, { headers })).status).toBe(404);
    expect((await fetch(`${url}/lab-ranges/`)).status).toBe(401);
    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    expect(code).toBe(0);

    const loaded = loadedPackages(t.file);
    expect(loaded.has('fastify')).toBe(true);
    for (const name of THREAD_ONLY) expect(loaded, name).not.toContain(name);
  });
});
