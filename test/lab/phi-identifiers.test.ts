/**
 * The real-report bench's own PHI check (bench/support/phi-identifiers.ts) on made-up layout text: it must
 * read the identifiers of Indian layouts (a colon standing apart from its label, "Lab No.", titles before
 * names) and must not search for a template's placeholder surname, which is the report's own vocabulary.
 */
import { describe, expect, it } from 'vitest';
import { countHits, identifiersInText } from '../../bench/support/phi-identifiers.js';

const values = (text: string, category?: string) =>
  identifiersInText(text)
    .filter((id) => category === undefined || id.category === category)
    .map((id) => id.value);

describe('identifiers read by the real-report bench', () => {
  it('reads an Indian header block whose colons stand apart from the labels', () => {
    const text = [
      '    Name           : Mrs. Zorana Quillfeather',
      '    Lab No.        : 928374650                          Age             : 41 Years',
      '    Ref By         : DR VELLANKORR                      Gender          : Female',
      'CR No               : 771200349918               Lab/Study No.         : 190324Q0042',
      'Sample Type/No       : Blood/190324Q0042         Report No.            : XYZ/HEA/24-25/77',
    ].join('\n');
    expect(values(text, 'name')).toEqual(
      expect.arrayContaining(['Zorana Quillfeather', 'Quillfeather', 'Zorana']),
    );
    expect(values(text, 'name')).not.toContain('Mrs. Zorana Quillfeather');
    expect(values(text, 'physician')).toEqual(['VELLANKORR']);
    expect(values(text)).toEqual(
      expect.arrayContaining([
        '928374650',
        '771200349918',
        '190324Q0042',
        'Blood/190324Q0042',
        'XYZ/HEA/24-25/77',
      ]),
    );
  });

  it('reads the referrer after a bare "Ref.", and takes "Ref. Range" for no one', () => {
    const text = ['Ref.          Dr.Tamsin Arkwright Clinic', 'Test      Result    Ref. Range'].join('\n');
    expect(values(text, 'physician')).toEqual(['Tamsin Arkwright Clinic']);
  });

  it('reads the referrer after "Ref. Doctor", not the label\'s own word', () => {
    const text = 'Ref. Doctor     Dr. Ottoline Vantreese           Facility      Example Campus';
    expect(values(text, 'physician')).toContain('Ottoline Vantreese');
    expect(values(text, 'physician')).not.toContain('Doctor');
  });

  it('does not strip a title from a name that only starts like one', () => {
    expect(values('Patient Name: Mrinal Oskarsdottir', 'name')).toContain('Mrinal Oskarsdottir');
  });

  it('does not search for a placeholder surname alone, so "a test name" in an output is no hit', () => {
    const ids = identifiersInText('Patient Name: TEST, BARNABY\nDOB: 01/02/1970');
    expect(ids.map((id) => id.value)).not.toContain('TEST');
    expect(ids.map((id) => id.value)).toContain('BARNABY');
    const hits = countHits('a lab result is a test name with a value', ids);
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(countHits('report of BARNABY TEST', ids).get('name')).toBeGreaterThan(0);
  });

  it('reads nothing from a one-word placeholder name', () => {
    expect(values('    Name           : DUMMY\n    Ref By         : Self', 'name')).toEqual([]);
    expect(values('    Ref By         : Self', 'physician')).toEqual([]);
  });
});
