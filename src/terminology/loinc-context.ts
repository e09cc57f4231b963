import type { LoincEntry } from './loinc-catalogue.js';
import { nameTokens, normaliseName } from './normalise-name.js';
import type { MatchContext } from './types.js';
import { unitPropertyFamily } from './unit-property.js';

/**
 * Picks, among the codes a printed name can mean, the one its row supports: the unit must fit the code's
 * property (mg/dL is a mass concentration, % a fraction), the specimen or panel must fit its system
 * (a urinalysis panel means urine), and a panel the catalogue lists for the code counts in its favour.
 */

export type SpecimenHint = 'Urine' | 'Bld' | 'Ser/Plas' | 'PPP' | 'Stool';

export interface Evidence {
  entry: LoincEntry;
  /** The unit fits the code's property; undefined when there is no usable unit. */
  unitOk: boolean | undefined;
  /** The specimen fits the code's system; undefined when nothing tells the specimen. */
  systemOk: boolean | undefined;
  /** The panel is one the catalogue lists for the code. */
  panelOk: boolean;
  score: number;
}

export interface Choice extends Evidence {
  /** The row's context confirms the code (an `exact` match), rather than the name alone. */
  confirmed: boolean;
}

/** Words that name a specimen; urine and stool words are decisive, the others only lean. */
const SPECIMEN_WORDS: ReadonlyArray<readonly [SpecimenHint, ReadonlySet<string>]> = [
  ['Urine', new Set(['urine', 'urinalysis', 'ua', 'ur', 'urin', 'dipstick', 'sediment', 'microalbumin'])],
  ['Stool', new Set(['stool', 'fecal', 'feces'])],
  ['PPP', new Set(['coagulation', 'coag', 'protime', 'inr', 'ptt', 'aptt', 'citrate'])],
  ['Bld', new Set(['cbc', 'hemogram', 'differential', 'diff', 'hematology', 'blood'])],
  [
    'Ser/Plas',
    new Set([
      'serum',
      'plasma',
      'cmp',
      'bmp',
      'metabolic',
      'lipid',
      'lipids',
      'hepatic',
      'liver',
      'renal',
      'kidney',
      'thyroid',
      'iron',
      'chemistry',
      'electrolytes',
      'electrolyte',
    ]),
  ],
];

const DECISIVE = new Set<SpecimenHint>(['Urine', 'Stool']);

const SYSTEMS_BY_HINT: Record<SpecimenHint, ReadonlySet<string>> = {
  Urine: new Set(['Urine', 'Urine sed', 'Urine+Ser/Plas']),
  Stool: new Set(['Stool']),
  PPP: new Set(['PPP', 'Bld']),
  Bld: new Set(['Bld', 'RBC', 'BldC', 'BldV', 'Ser/Plas/Bld']),
  'Ser/Plas': new Set(['Ser/Plas', 'Ser', 'Plas', 'Ser/Plas/Bld', 'Urine+Ser/Plas']),
};

/** The specimen a free text (specimen field or panel title) points to, or null. */
export function specimenHint(text: string | null | undefined): SpecimenHint | null {
  if (!text) return null;
  return hintOf(nameTokens(normaliseName(text)));
}

function hintOf(tokens: readonly string[]): SpecimenHint | null {
  for (const [hint, words] of SPECIMEN_WORDS) if (tokens.some((t) => words.has(t))) return hint;
  return null;
}

export function systemFits(system: string, hint: SpecimenHint): boolean {
  return SYSTEMS_BY_HINT[hint].has(system);
}

/** True when every word of one of the code's panel names appears in the printed panel title. */
export function panelFits(entry: LoincEntry, panelTokens: ReadonlySet<string>): boolean {
  return panelWordsOf(entry).some((words) => words.every((t) => panelTokens.has(t)));
}

/**
 * The words of each panel the catalogue lists for a code, normalised once per catalogue row: every row of
 * a document with a panel title weighs each of its candidates' panels.
 */
const panelWords = new WeakMap<LoincEntry, readonly string[][]>();

function panelWordsOf(entry: LoincEntry): readonly string[][] {
  let words = panelWords.get(entry);
  if (!words) {
    words = entry.panels.map((panel) => nameTokens(normaliseName(panel)));
    panelWords.set(entry, words);
  }
  return words;
}

interface ContextFacts {
  family: readonly string[] | null;
  hint: SpecimenHint | null;
  /** A specimen the row states, or a decisive panel word: a code of another system is then ruled out. */
  hintDecisive: boolean;
  panelTokens: ReadonlySet<string> | null;
  noUnit: boolean;
  inPanel: boolean;
  /** The result is a word or a grade (ordinal), a number (quantitative), or not known. */
  valueScale: 'Ord' | 'Qn' | undefined;
}

function factsOf(ctx: MatchContext | undefined): ContextFacts {
  // The panel title's words serve both its specimen hint and the panel fit: normalised once.
  const panelTokens = ctx?.panel ? nameTokens(normaliseName(ctx.panel)) : null;
  const fromSpecimen = specimenHint(ctx?.specimen);
  const fromPanel = panelTokens ? hintOf(panelTokens) : null;
  const hint = fromSpecimen ?? fromPanel;
  const unit = ctx?.unit?.trim() ?? '';
  return {
    family: unitPropertyFamily(unit),
    hint,
    hintDecisive: fromSpecimen !== null || (hint !== null && DECISIVE.has(hint)),
    panelTokens: panelTokens ? new Set(panelTokens) : null,
    noUnit: unit === '',
    inPanel: hint !== null || Boolean(ctx?.panel?.trim()),
    valueScale: valueScale(ctx?.value),
  };
}

/** Grades such as 1+ and 2+ are ordinal although they hold a digit; `<0.2` and `6-10` are quantities. */
const GRADE = /^\d\s*\+$/;

function valueScale(value: string | null | undefined): 'Ord' | 'Qn' | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  return /\d/.test(text) && !GRADE.test(text) ? 'Qn' : 'Ord';
}

/** LOINC scales an ordinal or nominal result is reported on. */
const QUALITATIVE_SCALES = new Set(['Ord', 'Nom']);

/**
 * How well the code's scale fits the printed result. LOINC pairs each test-strip analyte (glucose,
 * ketones, protein, bilirubin in urine) as a [Presence] code for results read as NEGATIVE, Trace or 1+ and
 * a [Mass/volume] code for numbers (loinc.org/24357-6): the printed result tells which. Weaker than the
 * unit, so a word printed with a unit (NONE SEEN /HPF) keeps the unit's code.
 */
function scaleFit(entry: LoincEntry, scale: 'Ord' | 'Qn' | undefined): number {
  if (scale === undefined) return 0;
  const qualitative = QUALITATIVE_SCALES.has(entry.scale);
  if (!qualitative && entry.scale !== 'Qn') return 0;
  if (scale === 'Ord') return qualitative ? 2 : -2;
  return qualitative ? -1 : 1;
}

function weigh(entry: LoincEntry, facts: ContextFacts): Evidence {
  const unitOk = facts.family ? facts.family.includes(entry.property) : undefined;
  const systemOk = facts.hint ? systemFits(entry.system, facts.hint) : undefined;
  const panelOk = facts.panelTokens ? panelFits(entry, facts.panelTokens) : false;
  let score = 0;
  if (unitOk !== undefined) score += unitOk ? 4 : -4;
  if (systemOk !== undefined) score += systemOk ? 2 : facts.hintDecisive ? -3 : -1;
  if (panelOk) score += 1;
  score += scaleFit(entry, facts.valueScale);
  // Inside a panel, a row printed without a unit is usually a qualitative result (NEGATIVE, CLEAR, YELLOW).
  if (facts.noUnit && facts.inPanel && entry.exampleUcum === null) score += 0.5;
  return { entry, unitOk, systemOk, panelOk, score };
}

/** The best-supported candidate (earlier catalogue rows win ties), with the evidence for it. */
export function chooseCandidate(candidates: readonly LoincEntry[], ctx?: MatchContext): Choice | null {
  const facts = factsOf(ctx);
  let best: Evidence | null = null;
  for (const entry of candidates) {
    const evidence = weigh(entry, facts);
    if (!best || evidence.score > best.score) best = evidence;
  }
  return best ? { ...best, confirmed: isConfirmed(best, facts) } : null;
}

/**
 * Whether the row confirms the code: nothing contradicts it (the unit, or a stated or decisive specimen)
 * and something positively fits (unit, specimen or panel).
 */
function isConfirmed(evidence: Evidence, facts: ContextFacts): boolean {
  if (evidence.unitOk === false) return false;
  if (evidence.systemOk === false && facts.hintDecisive) return false;
  return evidence.unitOk === true || evidence.systemOk === true || evidence.panelOk;
}
