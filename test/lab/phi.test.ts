import { describe, expect, it } from 'vitest';
import { type DocumentLayout, extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { detectPhi, REDACTED } from '../../src/lab/pipeline/screen/phi.js';
import { manifest, pdfBytes, phiOf } from './fixture-files.js';
import { layoutOf as handLayout } from './support/layout-of.js';

/** One page; each row is a line of cells, 220 pt apart, rows 12 pt apart from the top. */
const layoutOf = (...rows: string[][]): DocumentLayout => handLayout(rows, { columnGap: 220 });

const textOf = (layout: DocumentLayout): string => JSON.stringify(layout);

const english = manifest().filter(
  (e) => !['scanned-no-text', 'corrupt-truncated', 'reject-spanish'].includes(e.name),
);
const withResults = english.filter((e) => e.name !== 'reject-insurance-eob');

/** Lines of a results table: a cell that starts with a reference range such as 70-99. */
const resultRows = (l: DocumentLayout): string[] =>
  l.pages
    .flatMap((p) => p.lines)
    .filter((line) => line.cells.some((cell) => /^\d+(?:\.\d+)?-\d+(?:\.\d+)?(?:\s|$)/.test(cell.text)))
    .map((line) => line.text);

describe('detectPhi on the fixtures', () => {
  it.each(english.map((e) => e.name))('%s: no printed PHI string survives redaction', async (name) => {
    const { redacted } = detectPhi(await extractLayout(pdfBytes(name)));
    const text = textOf(redacted);
    expect(phiOf(name).filter((phi) => text.includes(phi))).toEqual([]);
  });

  it.each(withResults.map((e) => e.name))('%s: result rows are left as printed', async (name) => {
    const layout = await extractLayout(pdfBytes(name));
    const { redacted } = detectPhi(layout);
    expect(resultRows(layout).length).toBeGreaterThan(3);
    expect(resultRows(redacted)).toEqual(resultRows(layout));
  });

  it('names every kind of PHI on the PHI-heavy report, and no value', async () => {
    const scan = detectPhi(await extractLayout(pdfBytes('phi-heavy-quest')));
    expect(scan.kinds).toEqual(
      expect.arrayContaining([
        'patient_name',
        'physician_name',
        'date_of_birth',
        'address',
        'phone',
        'email',
        'ssn',
        'medical_record_number',
        'patient_id',
        'accession_number',
        'specimen_id',
        'insurance_id',
      ]),
    );
    for (const phi of phiOf('phi-heavy-quest')) expect(JSON.stringify(scan.kinds)).not.toContain(phi);
  });

  it('keeps text items consistent with the redacted lines', async () => {
    const { redacted } = detectPhi(await extractLayout(pdfBytes('phi-heavy-quest')));
    const items = redacted.pages.flatMap((p) => p.items.map((i) => i.str)).join(' ');
    for (const phi of phiOf('phi-heavy-quest')) expect(items).not.toContain(phi);
  });
});

describe('date of birth verification', () => {
  const layout = layoutOf(
    ['Patient: Marcus J. Ellery', 'DOB: 11/05/1979'],
    ['Test', 'Result', 'Reference Range'],
  );

  it('reports a match through the predicate, never seeing the requested date itself', () => {
    const asked: string[] = [];
    const scan = detectPhi(layout, {
      matchesDob: (iso) => {
        asked.push(iso);
        return iso === '1979-11-05';
      },
    });
    expect(scan.verification).toEqual({ dobFound: true, dobMatches: true });
    expect(asked).toEqual(['1979-11-05']);
  });

  it('reports a mismatch', () => {
    expect(detectPhi(layout, { matchesDob: () => false }).verification).toEqual({
      dobFound: true,
      dobMatches: false,
    });
  });

  it('has no answer without a requested date or without a printed one', () => {
    expect(detectPhi(layout).verification).toEqual({ dobFound: true, dobMatches: null });
    expect(detectPhi(layoutOf(['Glucose', '92']), { matchesDob: () => true }).verification).toEqual({
      dobFound: false,
      dobMatches: null,
    });
  });

  it('redacts the date of birth in every printed form, but not other dates', () => {
    const scan = detectPhi(
      layoutOf(['DOB: 11/05/1979', 'Collected: 03/14/2025'], ['Born 1979-11-05, seen 11/5/1979']),
    );
    const text = textOf(scan.redacted);
    expect(text).not.toMatch(/11\/0?5\/1979|1979-11-05/);
    expect(text).toContain('03/14/2025');
  });
});

describe('detectPhi on labelled fields and shapes', () => {
  it('takes a value from beside its label and stops at the next label', () => {
    const scan = detectPhi(layoutOf(['MRN: HMH-00731958 Accession: CV25-0314-0877', 'Patient ID: 5528710']));
    expect(scan.kinds).toEqual(['accession_number', 'medical_record_number', 'patient_id']);
    expect(textOf(scan.redacted)).not.toMatch(/HMH-00731958|CV25-0314-0877|5528710/);
  });

  it('finds an identifier whose label is a cell of its own, its colon lost or printed apart', () => {
    const scan = detectPhi(
      layoutOf(
        ['Sample No', 't XY1234567Q', 'Collec.Date'],
        ['UHID', ': ABCD.12345678'],
        ['Lab ID:', 'L-99881'],
      ),
    );
    expect(scan.kinds).toEqual(['accession_number', 'medical_record_number']);
    expect(textOf(scan.redacted)).not.toMatch(/XY1234567Q|ABCD\.12345678|L-99881/);
  });

  it('takes no bare label for one without digits beside it, nor any bare name label', () => {
    const scan = detectPhi(layoutOf(['Sample No', 'Serum'], ['Name', 'Result', 'Unit']));
    expect(scan.kinds).toEqual([]);
    expect(textOf(scan.redacted)).toContain('Serum');
  });

  it('finds a physician printed under an empty label in the same column', () => {
    const scan = detectPhi(layoutOf(['Sex: M', 'Ordering Physician:'], ['Age: 40', 'GREAVES, ALAN P']));
    expect(scan.kinds).toContain('physician_name');
    expect(textOf(scan.redacted)).not.toContain('GREAVES');
  });

  it("never takes a table's heading below an empty label for a name (an OCR'd header block)", () => {
    const heading = detectPhi(
      layoutOf(['Patient:'], ['Test Name', 'In Range', 'Out Of Range', 'Reference Range']),
    );
    expect(heading.kinds).toEqual([]);
    expect(textOf(heading.redacted)).toContain('Test Name');
    const twoCells = detectPhi(layoutOf(['Patient:'], ['Test Name', 'Result']));
    expect(twoCells.kinds).toEqual([]);
    expect(textOf(twoCells.redacted)).toContain('Test Name');
  });

  it('does not take a labelled field below an empty label for a name', () => {
    const scan = detectPhi(layoutOf(['Referring:'], ['NPI: 1730594826']));
    expect(scan.kinds).toEqual(['provider_id']);
  });

  it('redacts each word of a found name wherever it appears, in any case', () => {
    const scan = detectPhi(
      layoutOf(['Patient: OKAFOR, DESMOND A'], ['Emergency contact is Adaeze Okafor'], ['okafor-report']),
    );
    expect(textOf(scan.redacted).toLowerCase()).not.toContain('okafor');
  });

  it('keeps lab vocabulary even when a patient shares a word of it', () => {
    const scan = detectPhi(
      layoutOf(
        ['Patient: WHITE, IRIS'],
        ['Test', 'Result', 'Reference Range'],
        ['WHITE BLOOD CELL COUNT', '6.1', '3.4-10.8'],
      ),
    );
    const text = textOf(scan.redacted);
    expect(text).toContain('WHITE BLOOD CELL COUNT');
    expect(text).not.toContain('IRIS');
  });

  it('finds SSNs, phones and e-mail addresses by their shape alone', () => {
    const scan = detectPhi(
      layoutOf(['call 713-555-0194 or (713) 555-0177', 'mail jo.doe@example.com', '912-44-0187']),
    );
    expect(scan.kinds).toEqual(['email', 'phone', 'ssn']);
    expect(textOf(scan.redacted)).not.toMatch(/555-01|example\.com|912-44/);
  });

  it('finds phone numbers of other countries by their shape, apart from their label', () => {
    const scan = detectPhi(
      layoutOf(
        ['Phone', 'Collection Date/Time'],
        ['Referred by', '0300-1234567'],
        ['Mobile No', '+92 300 1234567', 'UK', '07700 900123', 'IN', '9876543210'],
      ),
    );
    expect(scan.kinds).toEqual(['phone']);
    expect(textOf(scan.redacted)).not.toMatch(/1234567|900123|9876543210/);
  });

  it('takes no reference range, count or decimal for a phone number', () => {
    const rows = [
      ['Platelet Count', '250000', '150000 - 450000'],
      ['WBC', '7500', '4000-11000'],
      ['Eosinophils', '04', '%', '01 - 06'],
      ['Ratio', '0.1234567890'],
      ['Accession', 'A 6543210'],
    ];
    const scan = detectPhi(layoutOf(...rows));
    expect(textOf(scan.redacted)).toContain('150000 - 450000');
    expect(textOf(scan.redacted)).toContain('4000-11000');
    expect(textOf(scan.redacted)).toContain('0.1234567890');
    expect(scan.kinds).not.toContain('phone');
  });

  it('finds street and city lines, and the line under a street line whatever its format', () => {
    const scan = detectPhi(
      layoutOf(['3127 BAYOU BEND STREET'], ['HOUSTON, TX 77019'], ['14 Kestrel Mews'], ['London, UK N1 7GU']),
    );
    expect(scan.kinds).toEqual(['address']);
    expect(textOf(scan.redacted)).not.toMatch(/BAYOU|HOUSTON|Kestrel|London/);
  });

  it('finds names in a salutation, after Dr. and before a credential', () => {
    const scan = detectPhi(
      layoutOf(
        ['Dear Eleanor Vasquez-Whitford, we processed a claim.'],
        ['Seen by Dr. Soren Lindqvist'],
        ['Ifeoma G. Okonjo, MD'],
        // OCR drops the space after the point; the referrer's name is still a physician's.
        ['Ref.', 'Dr.Tamsin Arkwright Clinic'],
      ),
    );
    expect(scan.kinds).toEqual(['patient_name', 'physician_name']);
    expect(textOf(scan.redacted)).not.toMatch(/Eleanor|Whitford|Lindqvist|Okonjo|Tamsin|Arkwright/);
  });

  it('takes "LAST, FIRST" for a name above the results table only', () => {
    const scan = detectPhi(
      layoutOf(
        ['ELLERY, MARCUS'],
        ['Test', 'Result', 'Reference Range'],
        ['PROTEIN, TOTAL', '7.1', '6.0-8.5'],
        ['KETONES, URINE', 'NEGATIVE', 'NEGATIVE'],
      ),
    );
    const text = textOf(scan.redacted);
    expect(text).not.toContain('ELLERY');
    expect(text).toContain('PROTEIN, TOTAL');
    expect(text).toContain('KETONES, URINE');
  });

  it('does not take a test heading above its table for a name when its row repeats it below', () => {
    // Labcorp heads each test's table with its name; "Pregnenolone, MS" has the shape of "LAST, FIRST".
    const scan = detectPhi(
      layoutOf(
        ['ELLERY, MARCUS'],
        ['Pregnenolone, MS'],
        ['Test', 'Current Result and Flag', 'Units'],
        ['Pregnenolone, MS 05', '<10', 'ng/dL'],
      ),
    );
    const text = textOf(scan.redacted);
    expect(text).not.toContain('ELLERY');
    expect(text).toContain('Pregnenolone, MS');
  });

  it('does not take a descriptive value for an identifier', () => {
    const scan = detectPhi(layoutOf(['Specimen: SERUM', 'Glucose', '92']));
    expect(scan.kinds).toEqual([]);
    expect(textOf(scan.redacted)).toContain('SERUM');
  });

  it(`replaces PHI with ${REDACTED} and leaves a clean document alone`, () => {
    const clean = layoutOf(['Test', 'Result', 'Reference Range'], ['GLUCOSE', '92', '65-99 mg/dL']);
    expect(detectPhi(clean)).toMatchObject({ kinds: [], redacted: clean });
    expect(textOf(detectPhi(layoutOf(['SSN: 912-44-0187'])).redacted)).toContain(REDACTED);
  });
});
