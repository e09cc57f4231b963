/**
 * Scans end the same way alone and in a batch: OCR's budget is processor time per page, not the wall
 * clock, so waiting for a core in a busy batch changes nothing. Run through the real CLI with the real
 * tesseract (skipped where OCR is not installed), once with a budget no page can meet and once with the
 * default.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR } from '../../fixtures/labs/generate.js';
import type { LabStatusBody } from '../../src/lab/job/status-body.js';
import { ocrAvailable } from '../../src/lab/pipeline/ocr/ocr.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { manifest } from '../lab/fixture-files.js';
import { assay, json } from './cli.js';

interface ExtractJson {
  files: Array<{ file: string; result: LabStatusBody }>;
}

const SCAN = `${FIXTURE_DIR}/scanned-no-text.pdf`;
const BATCH = manifest()
  .filter((entry) => entry.expect.status === 'completed')
  .slice(0, 8)
  .map((entry) => `${FIXTURE_DIR}/${entry.file}`);

const homes: Array<{ cleanup: () => void }> = [];
afterAll(() => {
  for (const home of homes) home.cleanup();
});

async function scanOutcome(files: string[], budgetMs?: number): Promise<LabStatusBody | undefined> {
  const home = tmpHome();
  homes.push(home);
  const env: Record<string, string> = {
    ASSAY_HOME: home.dir,
    ...(budgetMs ? { ASSAY_OCR_PAGE_CPU_MS: String(budgetMs) } : {}),
  };
  const r = await assay(['lab', 'extract', ...files, '--json', '--concurrency', '2'], env);
  return json<ExtractJson>(r).files.find((f) => f.file.endsWith('scanned-no-text.pdf'))?.result;
}

describe.runIf(await ocrAvailable())('OCR budget (real tesseract)', () => {
  it('fails a page over its processor-time budget with ocr_timeout, alone and in a batch alike', async () => {
    const alone = await scanOutcome([SCAN], 300);
    const batched = await scanOutcome([...BATCH, SCAN], 300);
    expect(alone).toMatchObject({ status: 'failed', error: { code: 'ocr_timeout' } });
    expect(batched).toMatchObject({ status: alone?.status, error: { code: 'ocr_timeout' } });
    if (alone && 'error' in alone) expect(alone.error?.message).toMatch(/page 1 .*processor time/);
  }, 120_000);

  it('completes the same scan within the default budget, alone and in a batch alike', async () => {
    const alone = await scanOutcome([SCAN]);
    const batched = await scanOutcome([...BATCH, SCAN]);
    expect(alone?.status).toBe('completed');
    expect(batched?.status).toBe('completed');
  }, 120_000);
});
