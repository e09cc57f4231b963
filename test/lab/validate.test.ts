import { describe, expect, it } from 'vitest';
import { type DocumentLayout, extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { findDates, usDateToIso } from '../../src/lab/pipeline/screen/dates.js';
import { detectPhi } from '../../src/lab/pipeline/screen/phi.js';
import { collectionDates, isDayFirst, validateDocument } from '../../src/lab/pipeline/screen/validate.js';
import { expectedText, manifest, pdfBytes, phiOf } from './fixture-files.js';
import { layoutOf as handLayout } from './support/layout-of.js';

/** One page; each row is a line of cells, 120 pt apart; the first row sits in the letterhead. */
const layoutOf = (...rows: string[][]): DocumentLayout => handLayout(rows, { columnGap: 120 });

const TABLE = [
  ['Test', 'Result', 'Units', 'Reference Range'],
  ['Glucose', '94', 'mg/dL', '70-99'],
  ['BUN', '15', 'mg/dL', '7-20'],
  ['Sodium', '140', 'mmol/L', '136-145'],
];

/** What the pipeline validates: the PHI-redacted layout. */
async function redactedFixture(name: string): Promise<DocumentLayout> {
  return detectPhi(await extractLayout(pdfBytes(name))).redacted;
}

const validated = manifest().filter(
  (e) => e.expect.status === 'completed' || e.expect.status === 'invalid_document',
);

describe('validateDocument on the fixtures', () => {
  it.each(validated.map((e) => [e.name, e.expect] as const))('%s', async (name, expected) => {
    const result = validateDocument(await redactedFixture(name));
    if (expected.status === 'completed') {
      const { labName, dateCollected } = JSON.parse(expectedText(name)) as {
        labName: string;
        dateCollected: string;
      };
      expect(result).toMatchObject({ ok: true, labName, dateCollected });
    } else {
      const { status: _status, ...reason } = expected as Record<string, unknown>;
      expect(result).toEqual({
        ok: false,
        ...reason,
        rejection_detail: expect.stringMatching(/^[A-Z0-9].*\.$/),
        rejection_evidence: expect.arrayContaining([expect.stringMatching(/^result-shaped lines: \d+/)]),
      });
      // Why, in words, and never a word of the person's: the fixture's PHI appears in neither.
      const said = JSON.stringify(result);
      expect(phiOf(name).filter((phi) => said.includes(phi))).toEqual([]);
    }
  });

  it('lets an unsupported lab through with anyLab, for the generic parser', async () => {
    expect(validateDocument(await redactedFixture('reject-other-lab'), { anyLab: true })).toEqual({
      ok: true,
      vendor: null,
      labName: 'Cedar Valley Medical Laboratory',
      dateCollected: '2025-03-14',
    });
  });

  it('still rejects a document that is no lab report with anyLab', async () => {
    expect(validateDocument(await redactedFixture('reject-insurance-eob'), { anyLab: true })).toMatchObject({
      ok: false,
      rejection_reason: 'non_lab_document',
    });
  });
});

describe('validateDocument rules and their order', () => {
  it('calls a letter with no results table a non-lab document, even on a lab letterhead', () => {
    const letter = layoutOf(
      ['Quest Diagnostics'],
      ['Dear patient, thank you for choosing us for your tests on 03/14/2025.'],
      ['Your results will be sent to your physician.'],
    );
    expect(validateDocument(letter)).toMatchObject({ ok: false, rejection_reason: 'non_lab_document' });
  });

  it('takes a short report with a results header as a lab report, and a blank form with one as not', () => {
    const header = ['Test Name', 'Result', 'Units', 'Reference Range'];
    const oneTest = layoutOf(['Acme Pathology Labs'], header, ['CRP (QUANTITATIVE)', '5.6', 'mg/L', '0-6']);
    expect(validateDocument(oneTest)).toMatchObject({ rejection_reason: 'non_supported_lab' });
    const serology = layoutOf(
      ['Acme Pathology Labs'],
      header,
      ['HIV (1 & 2)', 'Non reactive'],
      ['HBSAG', 'Non reactive'],
    );
    expect(validateDocument(serology)).toMatchObject({ rejection_reason: 'non_supported_lab' });
    // A requisition prints the same header, and no value under it.
    const form = layoutOf(
      ['Acme Pathology Labs'],
      header,
      ['CBC', '', '', ''],
      ['Lipid panel'],
      ['Signature:'],
    );
    expect(validateDocument(form)).toMatchObject({ rejection_reason: 'non_lab_document' });
  });

  it('names the institution, not its department', () => {
    const doc = layoutOf(['University Medical Center, Dept. of Pathology'], ...TABLE);
    expect(validateDocument(doc)).toMatchObject({ detected_lab: 'University Medical Center' });
  });

  it('names the unsupported laboratory it found', () => {
    const doc = layoutOf(['Acme Pathology Labs'], ['Collected: 03/14/2025'], ...TABLE);
    expect(validateDocument(doc)).toMatchObject({
      ok: false,
      rejection_reason: 'non_supported_lab',
      detected_lab: 'Acme Pathology Labs',
      rejection_detail:
        'The performing laboratory is Acme Pathology Labs, not Quest Diagnostics or Labcorp; --any-lab (anyLab) reads other laboratories.',
    });
  });

  it('rejects several collection dates before looking at date formats', () => {
    const doc = layoutOf(
      ['Quest Diagnostics'],
      ['Collected: 03/14/2025'],
      ['Collected: 23/04/2025'],
      ...TABLE,
    );
    expect(validateDocument(doc)).toMatchObject({
      ok: false,
      rejection_reason: 'multiple_collection_dates',
      rejection_detail:
        'The document states 2 different collection dates; a report must cover one visit: split it into one file per visit.',
    });
  });

  it('counts the same collection date printed twice once', () => {
    const doc = layoutOf(['Labcorp'], ['Date Collected: 03/14/2025'], ['Collected: 03/14/25'], ...TABLE);
    expect(validateDocument(doc)).toEqual({
      ok: true,
      vendor: 'labcorp',
      labName: 'Labcorp',
      dateCollected: '2025-03-14',
    });
  });

  it('rejects day-first dates anywhere in the document', () => {
    const doc = layoutOf(['Quest Diagnostics'], ['Collected: 04/11/2025', 'Reported: 13/04/2025'], ...TABLE);
    expect(validateDocument(doc)).toMatchObject({
      ok: false,
      rejection_reason: 'non_us_document',
      rejection_detail: expect.stringMatching(/^1 date is printed day first/),
    });
  });

  it('with anyLab, reads a document whose dates can only be day first in its own order', () => {
    const doc = layoutOf(['Apollo Diagnostics'], ['Collected: 04/11/2025', 'Reported: 13/11/2025'], ...TABLE);
    expect(validateDocument(doc, { anyLab: true })).toMatchObject({ ok: true, dateCollected: '2025-11-04' });
    // The default mode keeps SPEC.md's rule, and dates written both ways are refused in either mode.
    expect(validateDocument(doc)).toMatchObject({ ok: false, rejection_reason: 'non_supported_lab' });
    const mixed = layoutOf(
      ['Apollo Diagnostics'],
      ['Collected: 04/11/2025', 'Reported: 13/11/2025', '11/14/2025'],
      ...TABLE,
    );
    expect(validateDocument(mixed, { anyLab: true })).toMatchObject({
      ok: false,
      rejection_reason: 'non_us_document',
      rejection_detail: expect.stringMatching(
        /^Dates are printed both day first \(1\) and month first \(1\)/,
      ),
    });
  });

  it('accepts a report without a collection date, with dateCollected null', () => {
    const doc = layoutOf(['Quest Diagnostics'], ...TABLE);
    expect(validateDocument(doc)).toMatchObject({ ok: true, vendor: 'quest', dateCollected: null });
  });
});

describe('dates', () => {
  it('finds n/n/yyyy and n/n/yy dates but not ages or longer numbers', () => {
    expect(findDates('Collected: 3/14/2025 / 08:12, issued 03/16/25').map((d) => d.text)).toEqual([
      '3/14/2025',
      '03/16/25',
    ]);
    expect(findDates('Age(y/m/d): 045/02/05 and 1/2/3/4')).toEqual([]);
  });

  it('reads month first and refuses impossible dates', () => {
    const [a, b, c] = findDates('02/29/2024 02/29/2025 23/04/2025');
    expect(a && usDateToIso(a)).toBe('2024-02-29');
    expect(b && usDateToIso(b)).toBeNull();
    expect(c && usDateToIso(c)).toBeNull();
  });

  it('knows a day-first date only when the first number cannot be a month', () => {
    expect(findDates('23/04/2025 04/11/2025').map(isDayFirst)).toEqual([true, false]);
  });

  it('takes collection dates from their labels only, not from previous-result columns', () => {
    expect(
      collectionDates([
        'Date Collected: 01/10/2025 0812 Local',
        'Glucose 92 99 03/02/2024 mg/dL',
        'Specimen Collected: 1/10/2025',
      ]),
    ).toEqual([
      { text: '01/10/2025', iso: '2025-01-10', utc: false },
      { text: '1/10/2025', iso: '2025-01-10', utc: false },
    ]);
  });

  it("prefers the laboratory's local collection date to a portal's UTC restatement of it", () => {
    const portal = [
      'LIPID PANEL Collected: 06/04/2025 01:30 AM UTC Received: 06/04/2025 02:10 AM UTC',
      'Collected: 06/03/2025 / 18:30 PDT',
    ];
    expect(collectionDates(portal)).toEqual([{ text: '06/03/2025', iso: '2025-06-03', utc: false }]);
    expect(collectionDates(portal.slice(0, 1))).toEqual([
      { text: '06/04/2025', iso: '2025-06-04', utc: true },
    ]);
  });
});
