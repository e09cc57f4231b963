import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { decodedSize } from '../../../../src/lab/pipeline/pdf/budget/decoded-size.js';
import { streamDecryptor } from '../../../../src/lab/pipeline/pdf/budget/decrypt.js';
import { type PdfValue, parseValue } from '../../../../src/lab/pipeline/pdf/budget/pdf-objects.js';
import { filterChain, findStreams, ObjectIndex } from '../../../../src/lab/pipeline/pdf/budget/streams.js';
import {
  checkDecodedSize,
  DocumentTooComplexError,
} from '../../../../src/lab/pipeline/pdf/document-budget.js';
import { extractLayout } from '../../../../src/lab/pipeline/pdf/pdf-text.js';
import { pdfBomb, pdfShowing } from '../../../security/support/pdf-bomb.js';

const MB = 1024 * 1024;

const stringAt = (text: string) => {
  const parsed = parseValue(Buffer.from(text, 'latin1'), 0);
  return parsed?.value.kind === 'string' ? parsed.value.bytes : parsed?.value;
};

describe('PDF strings', () => {
  it('reads literal strings with every escape ISO 32000 defines', () => {
    expect(stringAt('(plain (nested) text)')).toEqual(Buffer.from('plain (nested) text'));
    expect(stringAt('(\\n\\r\\t\\b\\f\\(\\)\\\\)')).toEqual(Buffer.from('\n\r\t\b\f()\\'));
    expect(stringAt('(\\101\\60\\0053\\777)')).toEqual(Buffer.from([0x41, 0x30, 0x05, 0x33, 0xff]));
    expect(stringAt('(one \\\ntwo \\\r\nthree \\\rfour)')).toEqual(Buffer.from('one two three four'));
    // An unknown escape is the character; an end of line written in the string stays as written (pdf.js).
    expect(stringAt('(\\q\r\n)')).toEqual(Buffer.from('q\r\n'));
  });

  it('reads hex strings, skipping whitespace, an odd last digit as x0', () => {
    expect(stringAt('<48 65\n6c6C 6f>')).toEqual(Buffer.from('Hello'));
    expect(stringAt('<901FA>')).toEqual(Buffer.from([0x90, 0x1f, 0xa0]));
    expect(stringAt('<>')).toEqual(Buffer.alloc(0));
  });

  it('ends where the string ends, inside dictionaries too', () => {
    expect(parseValue(Buffer.from('(a\\)b) /X'), 0)?.end).toBe(6);
    const dict = parseValue(Buffer.from('<< /O (x\\051) /U <00ff> /N /Name >>'), 0)?.value;
    expect(dict?.kind === 'dict' && [...dict.entries.keys()]).toEqual(['O', 'U', 'N']);
    expect(dict?.kind === 'dict' && dict.entries.get('U')).toEqual({
      kind: 'string',
      bytes: Buffer.from([0, 255]),
    });
  });
});

type Version = PDFKit.PDFDocumentOptions['pdfVersion'];

/**
 * A one-page pdfkit document, encrypted when `passwords` is given: pdfkit picks the method from the PDF
 * version, and with no user password given the user password is the empty one.
 */
function pdfkitPdf(text: string, pdfVersion: Version, passwords?: { user?: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      info: { CreationDate: new Date(0) },
      pdfVersion,
      ...(passwords && {
        ownerPassword: 'owner',
        userPassword: passwords.user,
        permissions: { printing: 'highResolution', copying: false },
      }),
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(14).text(text, 72, 72);
    doc.end();
  });
}

/** The resolved /Encrypt dictionary of a pdfkit file (one trailer). */
function encryptDict(pdf: Buffer): Map<string, PdfValue> {
  const objects = new ObjectIndex(pdf);
  const trailer = parseValue(pdf, pdf.lastIndexOf('trailer') + 'trailer'.length)?.value;
  const encrypt = trailer?.kind === 'dict' ? objects.resolve(trailer.entries.get('Encrypt')) : undefined;
  if (encrypt?.kind !== 'dict') throw new Error('no /Encrypt');
  return encrypt.entries;
}

/** What every stream decodes to, together, read as stored: the count for an unencrypted file. */
async function storedCount(pdf: Buffer): Promise<number> {
  const objects = new ObjectIndex(pdf);
  let total = 0;
  for (const stream of findStreams(pdf, objects)) {
    const data = pdf.subarray(stream.start, stream.end);
    total += await decodedSize(data, filterChain(stream.dict ?? new Map(), objects), Number.MAX_SAFE_INTEGER);
  }
  return total;
}

const outcome = (pdf: Buffer, maxDecodedBytes: number) =>
  checkDecodedSize(pdf, { maxDecodedBytes, maxImageBytes: 64 * MB, maxPages: 10 }).then(
    () => 'within',
    (error: unknown) => (error instanceof DocumentTooComplexError ? 'too complex' : String(error)),
  );

const lines = async (pdf: Buffer) =>
  (await extractLayout(pdf)).pages.flatMap((p) => p.lines.map((l) => l.text));

const TEXT = 'Encrypted lab report: glucose 5.1 mmol/L';

describe('stream decryption with the empty user password', () => {
  it('leaves an unencrypted file alone', async () => {
    const pdf = await pdfkitPdf(TEXT, '1.7');
    expect(streamDecryptor(pdf, new ObjectIndex(pdf))).toBeUndefined();
  });

  const variants: Array<{ pdfVersion: Version; label: string; v: number; r: number; cfm?: string }> = [
    { pdfVersion: '1.3', label: 'RC4 40-bit (V 1, R 2)', v: 1, r: 2 },
    { pdfVersion: '1.4', label: 'RC4 128-bit (V 2, R 3)', v: 2, r: 3 },
    { pdfVersion: '1.7', label: 'AES-128 (V 4, R 4, AESV2)', v: 4, r: 4, cfm: 'AESV2' },
    { pdfVersion: '1.7ext3', label: 'AES-256 (V 5, R 5, AESV3)', v: 5, r: 5, cfm: 'AESV3' },
  ];
  for (const { pdfVersion, label, v, r, cfm } of variants) {
    it(`${label}: every stream decrypts, and counts as its unencrypted twin does`, async () => {
      const pdf = await pdfkitPdf(TEXT, pdfVersion, {});
      const twin = await pdfkitPdf(TEXT, pdfVersion);
      const encrypt = encryptDict(pdf);
      expect([encrypt.get('V'), encrypt.get('R')]).toEqual([
        { kind: 'number', value: v },
        { kind: 'number', value: r },
      ]);
      const cf = encrypt.get('CF');
      const stdCf = cf?.kind === 'dict' ? cf.entries.get('StdCF') : undefined;
      const method = stdCf?.kind === 'dict' ? stdCf.entries.get('CFM') : undefined;
      expect(method).toEqual(cfm && { kind: 'name', name: cfm });

      const objects = new ObjectIndex(pdf);
      const decryptor = streamDecryptor(pdf, objects);
      expect(decryptor?.readable).toBe(true);
      let flate = 0;
      for (const stream of findStreams(pdf, objects)) {
        const stored = pdf.subarray(stream.start, stream.end);
        const [decrypted = stored] =
          decryptor?.readings(stream.num, stream.gen, stream.dict ?? new Map(), stored) ?? [];
        if (filterChain(stream.dict ?? new Map(), objects).filters[0] === 'FlateDecode') {
          flate++;
          expect(() => inflateSync(stored)).toThrow();
          expect(() => inflateSync(decrypted)).not.toThrow();
        } else {
          expect(decrypted.toString('latin1')).toMatch(/^<\?xpacket/);
        }
      }
      expect(flate).toBeGreaterThan(0);

      expect(await lines(pdf)).toEqual(await lines(twin));
      const count = await storedCount(twin);
      expect(await outcome(pdf, count)).toBe('within');
      expect(await outcome(pdf, count - 1)).toBe('too complex');
    });
  }

  it('says a file that needs a user password cannot be read, and reads it as stored', async () => {
    for (const pdfVersion of ['1.4', '1.7', '1.7ext3'] as const) {
      const pdf = await pdfkitPdf(TEXT, pdfVersion, { user: 'secret' });
      const objects = new ObjectIndex(pdf);
      const decryptor = streamDecryptor(pdf, objects);
      expect([decryptor?.readable, decryptor?.problem]).toEqual([false, 'password']);
      const [stream] = findStreams(pdf, objects);
      if (!stream) throw new Error('no stream');
      const stored = pdf.subarray(stream.start, stream.end);
      expect(decryptor?.readings(stream.num, stream.gen, stream.dict ?? new Map(), stored)).toEqual([stored]);
    }
  });

  it('says a handler or version it does not know cannot be read', async () => {
    const pdf = await pdfkitPdf(TEXT, '1.4', {});
    // Same lengths, so the cross-reference table still holds.
    const otherHandler = Buffer.from(pdf.toString('latin1').replace('/Standard', '/Stranger'), 'latin1');
    const otherVersion = Buffer.from(pdf.toString('latin1').replace('/V 2', '/V 3'), 'latin1');
    for (const file of [otherHandler, otherVersion]) {
      const decryptor = streamDecryptor(file, new ObjectIndex(file));
      expect([decryptor?.readable, decryptor?.problem]).toEqual([false, 'unsupported']);
    }
  });
});

/** A trailer pdf.js never reads (nothing points at it), naming an /Encrypt dictionary of its own. */
function withDecoyTrailer(pdf: Buffer, encrypted: Buffer): Buffer {
  const text = encrypted.toString('latin1');
  const encrypt = /6 0 obj\n(<< \/Filter \/Standard[\s\S]*?>>)\nendobj/.exec(text)?.[1];
  const id = /\/ID \[[^\]]*\]/.exec(text)?.[0];
  if (!encrypt || !id) throw new Error('no /Encrypt in the encrypted file');
  const decoy = `99 0 obj\n${encrypt}\nendobj\ntrailer\n<< /Size 100 /Root 1 0 R /Encrypt 99 0 R ${id} >>\n`;
  return Buffer.concat([pdf, Buffer.from(decoy, 'latin1')]);
}

describe('readings pdf.js may take that a naive reader would not', () => {
  it('a decoy /Encrypt after %%EOF does not hide an unencrypted bomb', async () => {
    const key = await pdfShowing('Hello budget', 0, 'rc4-encrypted');
    const shown = withDecoyTrailer(await pdfShowing('Hello budget', 20_000, 'flate'), key);
    expect(await lines(shown)).toEqual(['Hello budget']);
    const bomb = withDecoyTrailer(await pdfBomb(24 * MB, 'flate'), key);
    expect(await outcome(bomb, 16 * MB)).toBe('too complex');
    expect(await outcome(bomb, 32 * MB)).toBe('within');
  });

  it('a decoy trailer without /Encrypt does not hide an encrypted bomb', async () => {
    const decoy = Buffer.from('trailer\n<< /Size 7 /Root 1 0 R >>\n', 'latin1');
    const shown = Buffer.concat([await pdfShowing('Hello budget', 20_000, 'rc4-encrypted'), decoy]);
    expect(await lines(shown)).toEqual(['Hello budget']);
    const bomb = Buffer.concat([await pdfBomb(24 * MB, 'rc4-encrypted'), decoy]);
    expect(await outcome(bomb, 16 * MB)).toBe('too complex');
  });

  it('an encrypted bomb labelled a cross-reference stream is counted decrypted', async () => {
    const relabel = (pdf: Buffer) =>
      Buffer.from(
        pdf.toString('latin1').replace('/Filter /FlateDecode', '/Type /XRef /Filter /FlateDecode'),
        'latin1',
      );
    // The label moves every object after it: pdf.js finds them again by scanning, and still draws the page.
    expect(await lines(relabel(await pdfShowing('Hello budget', 20_000, 'rc4-encrypted')))).toEqual([
      'Hello budget',
    ]);
    expect(await outcome(relabel(await pdfBomb(24 * MB, 'rc4-encrypted')), 16 * MB)).toBe('too complex');
  });
});

describe('what ISO 32000 and pdf.js read differently', () => {
  it('a stream with its own /Identity crypt filter is read as stored (ISO) and decrypted (pdf.js)', async () => {
    const pdf = await pdfShowing('Hello budget', 0, 'rc4-encrypted');
    const objects = new ObjectIndex(pdf);
    const [stream] = findStreams(pdf, objects);
    if (!stream) throw new Error('no stream');
    const stored = pdf.subarray(stream.start, stream.end);
    const crypt = parseValue(
      Buffer.from('<< /Filter [/Crypt /FlateDecode] /DecodeParms [<< /Name /Identity >> null] >>'),
      0,
    )?.value;
    if (crypt?.kind !== 'dict') throw new Error('not a dictionary');
    const decryptor = streamDecryptor(pdf, objects);
    const readings = decryptor?.readings(stream.num, stream.gen, crypt.entries, stored) ?? [];
    expect(readings).toHaveLength(2);
    expect(inflateSync(readings[0] ?? Buffer.alloc(0)).toString('latin1')).toContain('Hello budget');
    expect(readings[1]).toBe(stored);
    expect(decryptor?.readings(stream.num, stream.gen, stream.dict ?? new Map(), stored)).toHaveLength(1);
  });

  it('gives up, as unsupported, on more distinct /Encrypt setups than a genuine file has', async () => {
    const key = (await pdfShowing('Hello budget', 0, 'rc4-encrypted')).toString('latin1');
    let pdf = await pdfShowing('Hello budget', 0, 'flate');
    for (let i = 0; i < 5; i++) {
      const other = key.replace(/\/ID \[<[0-9a-f]{2}/, `/ID [<${i.toString(16).padStart(2, '0')}`);
      pdf = withDecoyTrailer(pdf, Buffer.from(other, 'latin1'));
    }
    const decryptor = streamDecryptor(pdf, new ObjectIndex(pdf));
    expect([decryptor?.readable, decryptor?.problem]).toEqual([false, 'unsupported']);
  });
});
