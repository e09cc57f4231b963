import { buildLexicalMatcher, type LexicalMatcher } from './lexical-fuzzy.js';
import { type LoincCatalogue, type LoincEntry, loincCatalogue } from './loinc-catalogue.js';
import { chooseCandidate } from './loinc-context.js';
import { askLlmForLoinc } from './loinc-llm.js';
import { normaliseName } from './normalise-name.js';
import type { LlmClient, LoincMatch, MatchContext } from './types.js';
import { lookupStatic } from './ucum-static-map.js';
import { unitPropertyFamily } from './unit-property.js';

/**
 * Printed lab test name (+ unit, panel, specimen) -> LOINC code, in tiers:
 * 1. `exact`: the name or a synonym is in the catalogue and the row's unit/specimen/panel fits the code;
 * 2. `biomarker_only`: the name is known but nothing on the row confirms (or the unit contradicts) it;
 * 3. `llm_fuzzy`: no known name, but a fuzzy matcher found one (offline lexical, or an LLM when asked);
 * 4. `not_found`.
 */

/** Below this blended trigram/word score a lexical hit is noise, not a spelling of a known name. */
export const LEXICAL_THRESHOLD = 0.7;
/** Lexical hits this good are trusted without asking an LLM. */
export const LEXICAL_CONFIDENT = 0.85;
/** Hits this close to the best one are treated as equally good; the row's context picks among them. */
const TIE_MARGIN = 0.02;

interface FuzzyIndex {
  matcher: LexicalMatcher;
  entriesByName: ReadonlyArray<readonly LoincEntry[]>;
}

const fuzzyIndexes = new WeakMap<LoincCatalogue, FuzzyIndex>();

function fuzzyIndexOf(catalogue: LoincCatalogue): FuzzyIndex {
  let index = fuzzyIndexes.get(catalogue);
  if (!index) {
    const names = [...catalogue.names.keys()];
    index = {
      matcher: buildLexicalMatcher(names),
      entriesByName: names.map((name) => catalogue.names.get(name) ?? []),
    };
    fuzzyIndexes.set(catalogue, index);
  }
  return index;
}

const NOT_FOUND: LoincMatch = { loincCode: null, loincMatchType: 'not_found' };

/** Offline and synchronous: the catalogue tiers and the lexical fuzzy tier. */
export function matchLoinc(name: string, ctx?: MatchContext, catalogue = loincCatalogue()): LoincMatch {
  const normalised = normaliseName(name);
  if (normalised === '') return NOT_FOUND;
  const known = chooseCandidate(knownCandidates(name, catalogue), ctx);
  if (known) {
    return {
      loincCode: known.entry.code,
      loincMatchType: known.confirmed ? 'exact' : 'biomarker_only',
      longName: known.entry.longName,
    };
  }
  return lexicalMatch(normalised, ctx, catalogue);
}

/** Labs sometimes print the unit inside the name ("eAG (mg/dL)"): such a tail is dropped on a second try. */
const UNIT_TAIL = /\(([^()]*)\)\s*$/;

/** "SERUM GLOBULIN", "Plasma Glucose": the specimen before a name the catalogue lists without it. */
const SPECIMEN_HEAD = /^(?:serum|plasma)\s+(?=\S)/i;

/** "CRP (Quantitative)": a word on how the test was done, in brackets after a name the catalogue lists. */
const QUALIFIER_TAIL = /\s*\((?:quantitative|qualitative|quant|calculated|calc|automated|manual)\)\s*$/i;

function knownCandidates(name: string, catalogue: LoincCatalogue): readonly LoincEntry[] {
  const found = catalogue.lookupName(name);
  if (found.length > 0) return found;
  for (const bare of [name.replace(SPECIMEN_HEAD, ''), name.replace(QUALIFIER_TAIL, '')]) {
    const known = bare !== name ? catalogue.lookupName(bare) : [];
    if (known.length > 0) return known;
  }
  const tail = UNIT_TAIL.exec(name);
  // A unit the property families know, or one laboratories print (`lakhs/cumm`) as the static map has it.
  if (!tail || (unitPropertyFamily(tail[1]) === null && lookupStatic(tail[1] ?? '') === null)) return found;
  return catalogue.lookupName(name.slice(0, tail.index));
}

function lexicalMatch(
  normalised: string,
  ctx: MatchContext | undefined,
  catalogue: LoincCatalogue,
): LoincMatch {
  const { matcher, entriesByName } = fuzzyIndexOf(catalogue);
  const hits = matcher.search(normalised, 8, LEXICAL_THRESHOLD);
  const top = hits[0];
  if (!top) return NOT_FOUND;
  const tied = hits.filter((hit) => hit.score >= top.score - TIE_MARGIN);
  const candidates = [...new Set(tied.flatMap((hit) => entriesByName[hit.index] ?? []))];
  const choice = chooseCandidate(candidates, ctx);
  if (!choice) return NOT_FOUND;
  return {
    loincCode: choice.entry.code,
    loincMatchType: 'llm_fuzzy',
    loincMatcher: 'lexical',
    score: Math.round(Math.min(1, top.score) * 1000) / 1000,
    longName: choice.entry.longName,
  };
}

/** Catalogue rows whose names look most like `name`: the shortlist shown to an LLM. */
export function loincShortlist(name: string, limit = 15, catalogue = loincCatalogue()): LoincEntry[] {
  const { matcher, entriesByName } = fuzzyIndexOf(catalogue);
  const shortlist = new Set<LoincEntry>();
  for (const hit of matcher.search(normaliseName(name), limit * 3, 0.2)) {
    for (const entry of entriesByName[hit.index] ?? []) {
      if (shortlist.size < limit) shortlist.add(entry);
    }
  }
  return [...shortlist];
}

/**
 * The offline tiers first; only a `not_found` or a weak lexical guess goes to the LLM. Whatever the LLM
 * answers must be a catalogue code with a valid check digit, or it is ignored and the offline answer stands.
 */
export async function matchLoincWithLlm(
  name: string,
  ctx: MatchContext | undefined,
  llm: LlmClient | null,
  catalogue = loincCatalogue(),
): Promise<LoincMatch> {
  const offline = matchLoinc(name, ctx, catalogue);
  if (!llm || !needsLlm(offline)) return offline;
  const answer = await askLlmForLoinc(llm, name, ctx, loincShortlist(name, 15, catalogue), catalogue);
  if (!answer) return offline;
  return {
    loincCode: answer.entry.code,
    loincMatchType: 'llm_fuzzy',
    loincMatcher: 'llm',
    score: answer.confidence,
    longName: answer.entry.longName,
  };
}

function needsLlm(match: LoincMatch): boolean {
  if (match.loincMatchType === 'not_found') return true;
  return match.loincMatchType === 'llm_fuzzy' && (match.score ?? 0) < LEXICAL_CONFIDENT;
}
