import { accessSync, constants, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/doctor/doctor.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, json } from './cli.js';

/** The program's path on this machine's PATH, or null. */
function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return null;
}

const allPresent = ['pdftoppm', 'pdfimages', 'tesseract'].every((c) => onPath(c) !== null);

describe('assay doctor (real CLI processes)', () => {
  const home = tmpHome('assay-e2e-doctor-');
  // A PATH holding poppler's programs (where this machine has them) and no tesseract.
  const bin = mkdtempSync(join(tmpdir(), 'assay-e2e-doctor-path-'));
  for (const tool of ['pdftoppm', 'pdfimages']) {
    const path = onPath(tool);
    if (path) symlinkSync(path, join(bin, tool));
  }
  afterAll(() => {
    home.cleanup();
    rmSync(bin, { recursive: true, force: true });
  });

  it('without tesseract on PATH: says so, gives the fix, and exits 1', async () => {
    const env = { ASSAY_HOME: home.dir, PATH: bin };
    const r = await assay(['doctor', '--json'], env);
    expect(r.exitCode).toBe(1);
    const report = json<DoctorReport>(r);
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.check === 'tesseract')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('not found on PATH'),
      fix: expect.stringContaining('tesseract-ocr'),
    });
    // The rest of the machine is not blamed for it.
    for (const check of ['node', 'sqlite', 'home', 'store'])
      expect(report.checks.find((c) => c.check === check)?.status).toBe('ok');

    const text = await assay(['doctor'], env);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/^tesseract\s+FAIL\s+not found on PATH/m);
    expect(text.stdout).toMatch(/^ {2}tesseract: Install tesseract/m);
  });

  it.skipIf(!allPresent)('with everything present: every check passes and it exits 0', async () => {
    const r = await assay(['doctor', '--json'], { ASSAY_HOME: home.dir });
    const report = json<DoctorReport>(r);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(report.checks.map((c) => c.check)).toEqual([
      'node',
      'sqlite',
      'pdftoppm',
      'pdfimages',
      'tesseract',
      'ocr budget',
      'home',
      'keys',
      'store',
      'reference data',
    ]);
    expect(report.checks.find((c) => c.check === 'tesseract')?.detail).toMatch(/^\d+\.\d+/);
  });
});
