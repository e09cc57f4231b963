/**
 * What a typed report prints in the name column besides the name: the unit in brackets after it
 * (`Haemoglobin (g/dL)  10.8  13.0 - 17.0`, where there is no unit column) and a leader of dots out to
 * the result (`HBsAg ..........  Non Reactive`). The unit is the row's when the row has none of its own; the
 * name keeps it, as printed. The leader is no part of the name.
 */

import { lookupStatic } from '../../../terminology/ucum-static-map.js';
import type { ParsedPanel } from '../../types.js';
import { isUnit } from './cell-kind.js';

const UNIT_IN_NAME = /\S\s*\(([^()]+)\)\s*$/;
const DOT_LEADER = /\s*(?:[.·…]\s*){3,}$/u;

export function readNameTails(panels: readonly ParsedPanel[]): void {
  for (const row of panels.flatMap((panel) => panel.rows)) {
    const name = row.biomarker.replace(DOT_LEADER, '');
    if (name !== '') row.biomarker = name;
    const unit = UNIT_IN_NAME.exec(row.biomarker)?.[1]?.trim();
    if (row.resultUnit === null && unit !== undefined && isPrintedUnit(unit)) row.resultUnit = unit;
  }
}

/**
 * A unit as laboratories print one: with a slash, sign or power (`g/dL`, `%`), or a spelling the unit map
 * lists with a small letter in it (`fL`, `pg`). An abbreviation in capitals is a name's (`CEFIXIME (CM)`),
 * though the map reads it (cm).
 */
function isPrintedUnit(text: string): boolean {
  return isUnit(text) && (/[/%^]/.test(text) || (/[a-z]/.test(text) && lookupStatic(text) !== null));
}
