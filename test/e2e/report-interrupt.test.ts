/**
 * `report generate` over a batch, interrupted: like `lab extract`, it says what ended and what is left and
 * exits 128 + the signal (130 SIGINT, 143 SIGTERM) instead of 0; unfinished jobs stay in the store.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('report generate, interrupted', () => {
  const home = tmpHome('assay-e2e-report-int-');
  afterAll(() => home.cleanup());

  // SIGTERM takes the same path with 143 (signalExitCode; test/e2e/lab-batch-cli.test.ts runs both).
  for (const [signal, code] of [['SIGINT', 130]] as const) {
    it(`${signal} while a delivery hangs: exit ${code}, and it says how many are left`, {
      timeout: 60_000,
    }, async () => {
      // A receiver that takes the callback's connection and never answers: the report cannot end.
      let seen!: () => void;
      const reached = new Promise<void>((resolve) => {
        seen = resolve;
      });
      const receiver = createServer(() => seen());
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      const request = JSON.parse(
        readFileSync(join(ROOT, 'fixtures/reports/full-required-only.json'), 'utf8'),
      );
      request.report_metadata.configuration.callback_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/r`;
      const file = join(home.dir, `hang-${signal}.json`);
      writeFileSync(file, JSON.stringify(request));
      const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'report', 'generate', file], {
        env: { ...process.env, NO_COLOR: '1', ASSAY_HOME: home.dir, ASSAY_ALLOW_PRIVATE_TARGETS: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      try {
        await reached;
        child.kill(signal);
        const [exit] = (await once(child, 'exit')) as [number | null];
        expect(exit, stderr).toBe(code);
        expect(stderr).toMatch(new RegExp(`Interrupted by ${signal}: 1 left unfinished in the store`));
        expect(stdout).toContain('0 of 1 reports completed.');
      } finally {
        child.kill('SIGKILL');
        receiver.closeAllConnections();
        receiver.close();
      }
    });
  }
});

describe('report generate --watch, interrupted', () => {
  const home = tmpHome('assay-e2e-report-watch-');
  afterAll(() => home.cleanup());

  it('renders a request dropped into the folder, then stops on SIGINT with 130 and says so', {
    timeout: 90_000,
  }, async () => {
    const inbox = join(home.dir, 'inbox');
    const out = join(home.dir, 'out');
    mkdirSync(inbox);
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/run.js'), 'report', 'generate', '--watch', inbox, '--out', out],
      { env: { ...process.env, NO_COLOR: '1', ASSAY_HOME: home.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 600 && !test(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(test(), stderr).toBe(true);
    };
    try {
      await until(() => stderr.includes('Watching'));
      const request = readFileSync(join(ROOT, 'fixtures/reports/full-required-only.json'), 'utf8');
      writeFileSync(join(inbox, 'one.json'), request);
      await until(() => existsSync(out) && readdirSync(out).some((f) => f.endsWith('.pdf')));
      child.kill('SIGINT');
      const [exit] = (await once(child, 'exit')) as [number | null];
      expect(exit, stderr).toBe(130);
      expect(stderr).toContain('Stopped (SIGINT)');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
