/**
 * Normalise stage of lab extraction: parsed rows as printed -> SPEC.md B3 panels, with LOINC and UCUM
 * codes, reference bounds and result types. Pure and offline (the LLM tiers are the caller's choice).
 */
import { readFileSync } from 'node:fs';
import { dataPath } from '../../../paths.js';
import { matchLoinc } from '../../../terminology/loinc-match.js';
import { normaliseUnit } from '../../../terminology/ucum.js';
import type { LabPanel, PanelResult, ParsedPanel, ParsedRow } from '../../types.js';
import { parseReferenceRange, resultTypeOf } from './ranges.js';

export interface NormaliseOptions {
  /** The specimen collection date (YYYY-MM-DD); '' on the panels when the report states none. */
  dateCollected: string | null;
}

export function normalisePanels(panels: readonly ParsedPanel[], opts: NormaliseOptions): LabPanel[] {
  return panels.map((panel) => normalisePanel(panel, opts));
}

function normalisePanel(panel: ParsedPanel, opts: NormaliseOptions): LabPanel {
  const panelResults = panel.rows.map((row) => normaliseRow(row, panel.panelName));
  return {
    panelName: panel.panelName,
    panelCode: panelCodeFor(panel.panelName) ?? singleTestCode(panelResults) ?? '',
    dateCollected: opts.dateCollected ?? '',
    pageNumber: panel.pageNumber,
    panelResults,
  };
}

/** A panel of one test (Hemoglobin A1c, TSH) is identified by that test's code. */
function singleTestCode(results: readonly PanelResult[]): string | null {
  return results.length === 1 ? (results[0]?.loincCode ?? null) : null;
}

export function normaliseRow(row: ParsedRow, panelName: string): PanelResult {
  const loinc = matchLoinc(row.biomarker, { unit: row.resultUnit, panel: panelName, value: row.resultValue });
  const ucum = row.resultUnit === null ? null : normaliseUnit(row.resultUnit);
  const bounds = parseReferenceRange(row.referenceRangeText);
  return {
    biomarker: row.biomarker,
    resultValue: row.resultValue,
    resultType: resultTypeOf(row.resultValue),
    resultUnit: row.resultUnit,
    loincCode: loinc.loincCode,
    loincMatchType: loinc.loincMatchType,
    // No printed unit: nothing to normalise, so no code and no method (rather than not_found).
    ucumCode: ucum?.ucumCode ?? null,
    ucumMatchMethod: ucum?.ucumMatchMethod ?? null,
    minRefRangeValue: bounds.min,
    maxRefRangeValue: bounds.max,
    referenceRangeText: row.referenceRangeText,
    pageNumber: row.pageNumber,
    flag: row.flag,
    ...(row.id ? { id: row.id } : {}),
    doubts: row.doubts ?? [],
    bbox: row.bbox ?? null,
  };
}

/*
 * LOINC panel codes for panel headings (data/lab/panel-codes.json, sources beside it). Headings vary
 * between vendors ("Comp. Metabolic Panel (14)", "COMPREHENSIVE METABOLIC PANEL"), so entries match by
 * pattern rather than by exact name.
 */

interface PanelCodeEntry {
  code: string;
  display: string;
  match: string;
}

interface PanelCodeRule {
  code: string;
  pattern: RegExp;
}

let rules: PanelCodeRule[] | undefined;

function panelRules(): PanelCodeRule[] {
  if (!rules) {
    const file = JSON.parse(readFileSync(dataPath('lab', 'panel-codes.json'), 'utf8')) as {
      panels: PanelCodeEntry[];
    };
    rules = file.panels.map((entry) => ({ code: entry.code, pattern: new RegExp(entry.match, 'i') }));
  }
  return rules;
}

/** The panel's LOINC code, or null when the heading names no panel in the table. */
export function panelCodeFor(panelName: string): string | null {
  const key = panelName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return panelRules().find((rule) => rule.pattern.test(key))?.code ?? null;
}
