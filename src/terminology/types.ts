/** Result shapes of the terminology layer; the enums are those of SPEC.md B3 (PanelResult). */
export type LoincMatchType = 'exact' | 'biomarker_only' | 'llm_fuzzy' | 'not_found';
export type UcumMatchMethod = 'static_map' | 'pattern_rule' | 'prefix_map' | 'llm' | 'not_found';

export interface UcumMatch {
  ucumCode: string | null;
  ucumMatchMethod: UcumMatchMethod;
}

export interface LoincMatch {
  loincCode: string | null;
  loincMatchType: LoincMatchType;
  /** Which fuzzy matcher decided, only when loincMatchType is llm_fuzzy. */
  loincMatcher?: 'lexical' | 'llm';
  /** Confidence 0-1 of a fuzzy match. */
  score?: number;
  longName?: string;
}

/** What the printed row tells beyond its name, used to pick between codes that share a name. */
export interface MatchContext {
  unit?: string | null;
  panel?: string | null;
  specimen?: string | null;
  /** The printed result: a word (NEGATIVE, Trace, 1+) is an ordinal result, a number a quantity. */
  value?: string | null;
}

/** An OpenAI-compatible chat endpoint, configured by ASSAY_LLM_URL; absent means offline only. */
export interface LlmClient {
  readonly model: string;
  complete(system: string, user: string): Promise<string>;
}
