/**
 * Test names OCR misread by a look-alike character ("Hemoglobin Alc" for A1c, "AIG Ratio" for A/G), put
 * right where exactly one single-character swap gives a name the LOINC catalogue knows by its exact
 * spelling. Only rows read by OCR are touched, and each one repaired is flagged with its page.
 */
import { loincCatalogue } from '../terminology/loinc-catalogue.js';
import type { ParsedPanel, ValidationFlag } from './types.js';

/** Characters OCR confuses in names: one occurrence swapped at a time. */
const NAME_LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  ['l', '1'],
  ['I', '1'],
  ['I', '/'],
  ['1', 'l'],
  ['O', '0'],
  ['0', 'O'],
  ['J', 'l'],
];

export function repairOcrNames(panels: readonly ParsedPanel[]): ValidationFlag[] {
  const catalogue = loincCatalogue();
  const known = (name: string) => catalogue.lookupName(name).length > 0;
  const flags: ValidationFlag[] = [];
  for (const panel of panels) {
    for (const row of panel.rows) {
      if (!row.ocr || known(row.biomarker)) continue;
      const readings = new Set(variants(row.biomarker).filter(known));
      if (readings.size !== 1) continue;
      const [repaired] = readings as Set<string>;
      if (panel.panelName === row.biomarker) panel.panelName = repaired as string;
      row.biomarker = repaired as string;
      flags.push({
        code: 'ocr_repaired',
        severity: 'warning',
        message: `The name ${row.biomarker} was repaired from an OCR misreading`,
        pageNumber: row.pageNumber,
      });
    }
  }
  return flags;
}

/** Every spelling one look-alike swap away. */
function variants(name: string): string[] {
  const out: string[] = [];
  for (const [from, to] of NAME_LOOKALIKES) {
    for (let i = name.indexOf(from); i >= 0; i = name.indexOf(from, i + 1))
      out.push(name.slice(0, i) + to + name.slice(i + from.length));
  }
  return out;
}
