import { describe, expect, it } from 'vitest';
import { type LoincEntry, loincCatalogue } from '../../src/terminology/loinc-catalogue.js';
import { normaliseName } from '../../src/terminology/normalise-name.js';

const PROPERTIES = new Set([
  'MCnc',
  'SCnc',
  'NCnc',
  'ACnc',
  'CCnc',
  'MFr',
  'NFr',
  'VFr',
  'SFr',
  'Ratio',
  'MRto',
  'SRto',
  'EntVol',
  'EntMass',
  'PrThr',
  'Time',
  'RelTime',
  'RelRto',
  'Titr',
  'Type',
  'Aper',
  'Clarity',
  'SG',
  'LsCnc',
  'Vel',
  'ArVRat',
  'VRat',
  'Vol',
  'Osmol',
  'Naric',
  'MRat',
  'SRat',
]);
const SCALES = new Set(['Qn', 'Ord', 'Nom', 'Nar']);

const { entries } = loincCatalogue();

describe('LOINC catalogue', () => {
  it('holds at least 420 codes, each once', () => {
    expect(entries.length).toBeGreaterThanOrEqual(420);
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
  });

  it('gives every row the required fields', () => {
    for (const e of entries) {
      expect(e.longName, e.code).toMatch(/\S/);
      expect(e.component, e.code).toMatch(/\S/);
      expect(PROPERTIES.has(e.property), `${e.code} property ${e.property}`).toBe(true);
      expect(e.system, e.code).toMatch(/\S/);
      expect(SCALES.has(e.scale), `${e.code} scale ${e.scale}`).toBe(true);
      expect(e.exampleUcum === null || typeof e.exampleUcum === 'string', e.code).toBe(true);
      expect(e.synonyms.length, `${e.code} synonyms`).toBeGreaterThan(0);
      expect(Array.isArray(e.panels), e.code).toBe(true);
    }
  });

  it('covers the codes the spec names', () => {
    const codes = new Set(entries.map((e) => e.code));
    for (const code of [
      '98979-8',
      '2345-7',
      '4548-4',
      '13457-7',
      '18262-6',
      '43396-1',
      '1884-6',
      '10835-7',
      '9318-7',
      // Scoring inputs of issue 31: HbA1c, LDL-C, urine albumin/creatinine.
      '17856-6',
      '4549-2',
      '59261-8',
      '2089-1',
      '14959-1',
      '14957-5',
      '1754-1',
      '2161-8',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('lets a printed name stand for several codes only when unit, specimen or panel can tell them apart', () => {
    const byName = new Map<string, LoincEntry[]>();
    for (const e of entries) {
      for (const synonym of new Set(e.synonyms.map(normaliseName))) {
        byName.set(synonym, [...(byName.get(synonym) ?? []), e]);
      }
    }
    const clashes: string[] = [];
    for (const [name, sharing] of byName) {
      for (let i = 0; i < sharing.length; i++) {
        for (let j = i + 1; j < sharing.length; j++) {
          const a = sharing[i] as LoincEntry;
          const b = sharing[j] as LoincEntry;
          const sameContext =
            a.property === b.property && a.system === b.system && a.panels.join() === b.panels.join();
          if (sameContext) clashes.push(`${name}: ${a.code} / ${b.code}`);
        }
      }
    }
    expect(clashes).toEqual([]);
  });
});
