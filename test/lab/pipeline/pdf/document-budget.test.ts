import { describe, expect, it } from 'vitest';
import {
  budgetFromEnv,
  checkDecodedSize,
  type DocumentBudget,
  DocumentTooComplexError,
} from '../../../../src/lab/pipeline/pdf/document-budget.js';
import { extractLayout } from '../../../../src/lab/pipeline/pdf/pdf-text.js';
import { barsPage, losslessScanPdf } from '../../../security/support/lossless-scan.js';
import { BOMB_ENCODINGS, contentOf, pdfBomb, pdfShowing } from '../../../security/support/pdf-bomb.js';

const MB = 1024 * 1024;
const budget = (maxDecodedBytes: number): DocumentBudget => ({
  maxDecodedBytes,
  maxImageBytes: 64 * MB,
  maxPages: 10,
});

const outcome = (pdf: Buffer, limit: number) =>
  checkDecodedSize(pdf, budget(limit)).then(
    () => 'within',
    (error: unknown) => (error instanceof DocumentTooComplexError ? 'too complex' : String(error)),
  );

/** Issue #30 item 1: the budget counts what pdf.js will decode, whatever the filters and their spelling. */
describe('document budget', () => {
  for (const encoding of BOMB_ENCODINGS) {
    it(`${encoding}: counts the content pdf.js reads, to the byte`, async () => {
      const pdf = await pdfShowing('Hello budget', 20_000, encoding);
      const layout = await extractLayout(pdf);
      expect(layout.pages[0]?.lines.map((l) => l.text)).toEqual(['Hello budget']);
      const size = contentOf('Hello budget', 20_000).length;
      expect(await outcome(pdf, size)).toBe('within');
      expect(await outcome(pdf, size - 1)).toBe('too complex');
    });

    it(`${encoding}: a bomb past the budget is too complex`, async () => {
      const bomb = await pdfBomb(24 * MB, encoding);
      expect(bomb.length).toBeLessThan(MB);
      expect(await outcome(bomb, 16 * MB)).toBe('too complex');
      expect(await outcome(bomb, 32 * MB)).toBe('within');
    });
  }
});

describe('document budget on genuine large documents', () => {
  it('a 12-page lossless colour scan at 300 dpi is within the default budget', async () => {
    const page = barsPage();
    const scan = losslessScanPdf(Array.from({ length: 12 }, () => page));
    // 12 pages of 2550 x 3300 RGB: 303 MB of pixels, past the 256 MB that was once the whole budget.
    expect(12 * page.rgb.length).toBeGreaterThan(256 * MB);
    await expect(checkDecodedSize(scan, budgetFromEnv())).resolves.toBeUndefined();
  });

  it('an image whose data runs past twice its dimensions is a bomb dressed as a picture', async () => {
    const small = { width: 100, height: 100, rgb: Buffer.alloc(100 * 100 * 3 * 40, 0xff) };
    await expect(checkDecodedSize(losslessScanPdf([small]), budget(MB))).rejects.toThrow(
      DocumentTooComplexError,
    );
  });
});

describe('document budget on streams without a readable header', () => {
  /** The bomb's stream dictionary padded with `spaces` after `<<`, past how far back a header is looked for. */
  const padded = (pdf: Buffer, spaces: number) => {
    const at = pdf.indexOf('4 0 obj\n<<') + '4 0 obj\n<<'.length;
    return Buffer.concat([pdf.subarray(0, at), Buffer.alloc(spaces, 0x20), pdf.subarray(at)]);
  };

  it('a bomb whose dictionary is padded past a megabyte is counted through the expanding filters', async () => {
    const bomb = padded(await pdfBomb(24 * MB, 'flate'), 1.2 * MB);
    expect(await outcome(bomb, 16 * MB)).toBe('too complex');
  });

  it('in an encrypted file, a stream without a readable header is refused: it cannot be counted', async () => {
    const bomb = padded(await pdfBomb(MB, 'rc4-encrypted'), 1.2 * MB);
    expect(await outcome(bomb, 256 * MB)).toBe('too complex');
  });
});
