import { describe, expect, it } from 'vitest';
import { type DocumentLayout, extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { detectVendor } from '../../src/lab/pipeline/screen/vendor-detect.js';
import type { Vendor } from '../../src/lab/types.js';
import { pdfBytes } from './fixture-files.js';
import { layoutOf as handLayout } from './support/layout-of.js';

/** A one-page layout with one line per entry, top down from y = 40, each line one cell at x = 36. */
const layoutOf = (...texts: string[]): DocumentLayout =>
  handLayout(
    texts.map((t) => [t]),
    { columnGap: 0, charWidth: 5, fontSize: 9 },
  );

describe('detectVendor on the fixtures', () => {
  it.each([
    ['quest-cmp-lipid', 'quest', 'Quest Diagnostics'],
    ['quest-annual-male', 'quest', 'Quest Diagnostics'],
    ['labcorp-cmp-lipid', 'labcorp', 'Labcorp'],
    ['labcorp-annual-female', 'labcorp', 'Labcorp'],
    ['reject-other-lab', null, 'Cedar Valley Medical Laboratory'],
    ['reject-unnamed-lab', null, null],
    // It names Quest as the provider billed, but no lab signs it.
    ['reject-insurance-eob', null, null],
  ])('%s -> %s / %s', async (name, vendor, labName) => {
    const found = detectVendor(await extractLayout(pdfBytes(name)));
    expect(found).toMatchObject({ vendor, labName });
    // The pages signed by each vendor: the evidence `--explain` shows.
    if (vendor) expect(found.signatures?.[vendor as Vendor]).toBeGreaterThan(0);
    else expect(found.signatures).toEqual({ quest: 0, labcorp: 0 });
  });
});

describe('detectVendor on other letterheads', () => {
  it('recognises Labcorp by its legal name', () => {
    expect(
      detectVendor(layoutOf('Laboratory Corporation of America Holdings', 'Patient Report')),
    ).toMatchObject({
      vendor: 'labcorp',
      labName: 'Labcorp',
    });
  });

  it('recognises Quest without regard to case', () => {
    expect(detectVendor(layoutOf('QUEST DIAGNOSTICS INCORPORATED')).vendor).toBe('quest');
  });

  it('ignores a supported vendor mentioned below the letterhead', () => {
    const lines = [
      'Riverbend Pathology Associates',
      ...Array.from({ length: 20 }, () => 'x'),
      'Quest Diagnostics',
    ];
    expect(detectVendor(layoutOf(...lines))).toMatchObject({
      vendor: null,
      labName: 'Riverbend Pathology Associates',
    });
  });

  it('drops a company suffix from the lab name', () => {
    expect(detectVendor(layoutOf('Northgate Clinical Laboratories, Inc.')).labName).toBe(
      'Northgate Clinical Laboratories',
    );
  });

  it('reads the lab from a performing-lab line when the letterhead names none', () => {
    const lines = [
      'Results',
      ...Array.from({ length: 20 }, () => 'x'),
      'Performing Lab: Harbor Point Laboratory',
    ];
    expect(detectVendor(layoutOf(...lines))).toMatchObject({
      vendor: null,
      labName: 'Harbor Point Laboratory',
    });
  });

  it('takes headings about laboratories for no name', () => {
    expect(
      detectVendor(layoutOf('LABORATORY RESULTS', 'Lab Report', 'Laboratory Director: Someone')).labName,
    ).toBeNull();
  });
});

describe('detectVendor from the whole document (logos are images)', () => {
  const below = (...footer: string[]) => [
    'Patient Report',
    ...Array.from({ length: 30 }, (_, i) => `Line ${i}`),
    ...footer,
  ];

  it('finds Labcorp by the copyright footer that carries its legal name', () => {
    const lines = below('©2025 Laboratory Corporation of America® Holdings');
    expect(detectVendor(layoutOf(...lines))).toMatchObject({ vendor: 'labcorp', labName: 'Labcorp' });
  });

  it('finds Labcorp by its report-version line', () => {
    const lines = below('All Rights Reserved - Enterprise Report Version: 1.00');
    expect(detectVendor(layoutOf(...lines)).vendor).toBe('labcorp');
  });

  it('finds Quest by its trademark footer', () => {
    const lines = below(
      'Quest, Quest Diagnostics, the associated logo and all associated Quest Diagnostics marks are the trademarks of Quest Diagnostics.',
    );
    expect(detectVendor(layoutOf(...lines))).toMatchObject({ vendor: 'quest', labName: 'Quest Diagnostics' });
  });

  it('finds Quest by a performing-site line', () => {
    const lines = below('QUEST DIAGNOSTICS-WEST HILLS, 1 EXAMPLE AVENUE, WEST HILLS, CA');
    expect(detectVendor(layoutOf(...lines)).vendor).toBe('quest');
  });

  it('takes no passing mention in comment prose for a signature', () => {
    const lines = below(
      'This test was developed and its performance characteristics determined by Quest Diagnostics.',
    );
    expect(detectVendor(layoutOf(...lines)).vendor).toBeNull();
  });

  it('names another laboratory by a catalogued product mark when its letterhead is an image', () => {
    const lines = below('Lipids and Apolipoproteins   Boston Heart HDL Map® Test');
    expect(detectVendor(layoutOf(...lines))).toMatchObject({
      vendor: null,
      labName: 'Boston Heart Diagnostics',
    });
  });

  it('never takes a label such as "Lab No." for a laboratory name', () => {
    expect(detectVendor(layoutOf('Lab No.', 'Laboratory No', 'Patient Report')).labName).toBeNull();
  });
});

describe('a known brand printed on every page', () => {
  const lines = [
    'LPL-NATIONAL REFERENCE LAB',
    ...Array.from({ length: 20 }, () => 'x'),
    'NRL - Dr Lal PathLabs Ltd',
    'Dr Lal PathLabs Ltd, Block E',
  ];

  it('names the laboratory ahead of a letterhead that names one of its processing sites', () => {
    expect(detectVendor(layoutOf(...lines))).toMatchObject({ vendor: null, labName: 'Dr Lal PathLabs' });
  });

  it('is read before PHI redaction, which blanks "Dr Lal" as a physician: only the catalogue name comes out', () => {
    const redacted = layoutOf(...lines.map((l) => l.replace('Dr Lal', '[redacted]')));
    expect(detectVendor(redacted).labName).toBe('LPL-NATIONAL REFERENCE LAB');
    expect(detectVendor(redacted, { unredacted: layoutOf(...lines) }).labName).toBe('Dr Lal PathLabs');
  });
});

describe('detectVendor on a scanned letterhead as OCR reads it (made-up laboratories)', () => {
  const cells = (...rows: string[][]): DocumentLayout => handLayout(rows, { columnGap: 160 });

  it('splits a name whose spaced capitals OCR glued, and joins a letter split from its word', () => {
    expect(detectVendor(cells(['sy KELWANPATHOLOGYLABORATORY'])).labName).toBe('KELWAN PATHOLOGY LABORATORY');
    expect(detectVendor(cells(['ORVEL DIAGNOSTIC C ENTRE'])).labName).toBe('ORVEL DIAGNOSTIC CENTRE');
  });

  it("takes no label's value for the laboratory: a referring hospital, a collection point", () => {
    expect(detectVendor(cells(['Ref.', 'Dr.Someone Example Hospital'], ['Results'])).labName).toBeNull();
    expect(detectVendor(cells(['Collection Point:', 'Inside Lab'])).labName).toBeNull();
    expect(
      detectVendor(cells(['Collection Point:', 'Inside Lab'], ['ORVEL DIAGNOSTIC CENTRE'])).labName,
    ).toBe('ORVEL DIAGNOSTIC CENTRE');
  });

  it("takes a scan's surest reading of the name, where the page reads it twice a letter apart", () => {
    /** One page of OCR'd lines, each `[y, text, confidence]` one cell. */
    const scanned = (...lines: Array<[number, string, number]>): DocumentLayout => ({
      hasTextLayer: false,
      pages: [
        {
          pageNumber: 1,
          width: 612,
          height: 792,
          items: [],
          lines: lines.map(([y, text, confidence]) => ({ y, text, cells: [{ x: 40, text, confidence }] })),
        },
      ],
    });
    // Large coloured letters above read less surely than the same name in the patient's box below.
    const twice = scanned([50, 'ORVFL HOSPITAL', 89], [197, 'ORVEL HOSPITAL', 98]);
    expect(detectVendor(twice).labName).toBe('ORVEL HOSPITAL');
    // A less sure reading below, or another institution, changes nothing.
    expect(detectVendor(scanned([50, 'ORVEL HOSPITAL', 95], [197, 'ORVFL HOSPITAL', 80])).labName).toBe(
      'ORVEL HOSPITAL',
    );
    expect(detectVendor(scanned([50, 'ORVEL HOSPITAL', 89], [197, 'CEDAR HOSPITAL', 98])).labName).toBe(
      'ORVEL HOSPITAL',
    );
  });
});
