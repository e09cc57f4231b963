import { describe, expect, it } from 'vitest';
import {
  institutionIn,
  labNameIn,
  labNameInLetterhead,
  performingLabInCells,
} from '../../src/lab/pipeline/screen/lab-names.js';

describe('labNameInLetterhead: lines OCR read off a letterhead picture (made-up laboratories)', () => {
  it('joins a banner word to the line under it that says what the business is', () => {
    expect(labNameInLetterhead(['KORVAN', 'LABS & DIAGNOSTIC CENTRES', 'PATIENT REPORT'])).toBe(
      'KORVAN LABS & DIAGNOSTIC CENTRES',
    );
    expect(labNameInLetterhead(['BRIX', 'HOSPITALS'])).toBe('BRIX HOSPITALS');
  });

  it('does not join a heading to the line under it', () => {
    expect(labNameInLetterhead(['CONFIDENTIAL', 'LABORATORY REPORT'])).toBeNull();
    expect(labNameInLetterhead(['Patient', 'Laboratory'])).toBeNull();
  });

  it('drops what OCR makes of a logo beside the name', () => {
    expect(labNameInLetterhead(['a Northfield Institute of Medical Sciences ~', 'x'])).toBe(
      'Northfield Institute of Medical Sciences',
    );
  });

  it('takes no address, telephone, label or department for a name', () => {
    expect(
      labNameInLetterhead([
        '/ eS ARLEN HOSPITAL, Gan',
        '12 Hospital Road, Northfield',
        'Lab No: 1234',
        'Department of Pathology And Lab Medicine',
      ]),
    ).toBeNull();
  });

  it('takes no description of the laboratory for its name', () => {
    expect(labNameInLetterhead(['FULLY COMPUTERISED PATHOLOGICAL LABORATORY'])).toBeNull();
    expect(labNameInLetterhead(['NABL ACCREDITED LABORATORY'])).toBeNull();
  });

  it('prefers a laboratory line to an institution line', () => {
    expect(labNameInLetterhead(['Northfield General Hospital', 'Harbor Point Laboratory'])).toBe(
      'Harbor Point Laboratory',
    );
  });
});

describe('labNameIn', () => {
  it('takes a name followed by its address after a comma, and no form code or sentence for a name', () => {
    expect(labNameIn('Korvan Laboratories, Kandy, 907, Hill Road, Kandy')).toBe('Korvan Laboratories');
    expect(labNameIn('AHK LAB RPT-01')).toBeNull();
    expect(labNameIn('KORVAN DIAGNOSTICS ID 20250722302')).toBeNull();
    expect(
      labNameIn('CONFIDENTIAL Member of Clinical and Laboratory LABORATORY Standards Institute, REPORT'),
    ).toBeNull();
  });

  it('takes a contact line whose colon a scan lost for no name, nor scraps of split words', () => {
    expect(labNameIn('Fo r Lab Enquiry')).toBeNull();
    expect(labNameIn('For Lab Enquiry')).toBeNull();
    expect(labNameIn('Lab Appointments')).toBeNull();
    expect(labNameIn('AB Lab')).toBeNull();
    expect(labNameIn('SRL Diagnostics')).toBe('SRL Diagnostics');
  });

  it('takes a heading cut short at the edge for a heading, not a name', () => {
    expect(labNameIn('LABORATORY INVESTIGATION REPOR')).toBeNull();
    expect(labNameIn('LABORATORY INVESTIGATION REPORT')).toBeNull();
    expect(labNameIn('Harbor Point Laboratory')).toBe('Harbor Point Laboratory');
  });
});

describe('institutionIn', () => {
  it('names a hospital, but takes no street address near one for a name', () => {
    expect(institutionIn('Riverbend General Hospital')).toBe('Riverbend General Hospital');
    expect(institutionIn('SHOP No. 18C, 19, RIVERBEND HOSPITAL ROAD')).toBeNull();
    expect(institutionIn('Plot No 7, opp. City Hospital')).toBeNull();
    expect(institutionIn('Suite 200, Mercy Hospital Plaza')).toBeNull();
  });

  it("takes no doctor's post under a clinic's letterhead for the laboratory", () => {
    expect(institutionIn('Sr. Orthopaedic Surgeon in Riverbend Hospitals')).toBeNull();
    expect(institutionIn('Consultant Physician at Mercy General Hospital')).toBeNull();
    expect(labNameIn('Consultant Pathologist at Harbor Point Laboratory')).toBeNull();
    expect(labNameIn('Harbor Point Laboratory')).toBe('Harbor Point Laboratory');
  });
});

describe('performingLabInCells', () => {
  it('reads the label and its value from two cells, with or without the colon OCR drops', () => {
    expect(performingLabInCells(['Facility', 'Brook Hospitals, Eastside'])).toBe('Brook Hospitals');
    expect(performingLabInCells(['Episode', 'IP', 'Facility:', 'Brook Hospitals'])).toBe('Brook Hospitals');
    expect(performingLabInCells(['Performing Lab', 'Harbor Point Laboratory'])).toBe(
      'Harbor Point Laboratory',
    );
    expect(performingLabInCells(['Resulting Agency', 'NORTHFIELD HOSPITAL LABORATORY'])).toBe(
      'NORTHFIELD HOSPITAL LABORATORY',
    );
  });

  it('reads nothing from a label whose value names no laboratory', () => {
    expect(performingLabInCells(['Facility', 'Ward 4'])).toBeNull();
    expect(performingLabInCells(['Facility'])).toBeNull();
  });
});
