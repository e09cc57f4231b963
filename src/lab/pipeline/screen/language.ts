/**
 * Language stage: is the document predominantly English? Lab reports are mostly tables of numbers, units and
 * short test names, which trigram classifiers misread, so the decision rests on the words: prose lines
 * first, all words when there is little prose, and no decision at all below a minimum length (a table of
 * numbers is not evidence of any language, so it is let through for validation to judge).
 */
import { francAll } from 'franc';
import { loincCatalogue } from '../../../terminology/loinc-catalogue.js';
import type { DocumentLayout } from '../pdf/pdf-text.js';

export interface LanguageVerdict {
  /** ISO 639-3 code of the predominant language, or 'und' when there was too little text to decide. */
  language: string;
  english: boolean;
  /**
   * franc's score for English relative to the best language (1 when English is the best). The whole sample
   * is classified at once: trigram statistics need a few hundred characters, more than most blocks hold.
   */
  englishScore: number;
  /** How many characters of words the decision rests on. */
  sampleLength: number;
}

/**
 * Candidates franc chooses between. Restricting it to languages a US lab would plausibly receive keeps a
 * short, jargon-heavy English text from landing on an obscure language with similar trigrams.
 */
const CANDIDATES = ['eng', 'spa', 'por', 'fra', 'ita', 'deu', 'nld', 'pol', 'ron', 'swe', 'tgl', 'vie'];

/**
 * English this close to the best language is a tie, not evidence against English: a page of test names
 * (Neutrophils, Monocytes, Basos ...) has trigrams that suit French or Latin languages about as well.
 */
const ENGLISH_TIE = 0.95;

/** Below this many characters of words no language is claimed. */
export const MIN_SAMPLE = 60;
/** A line with at least this many words reads as prose (a sentence, a heading), not a table row. */
const PROSE_WORDS = 4;
/** Prose alone is used when there is at least this much of it. */
const MIN_PROSE = 150;

export function detectLanguage(layout: DocumentLayout): LanguageVerdict {
  return classifyLines(layout.pages.flatMap((page) => page.lines.map((line) => line.text)));
}

export function classifyLines(lines: readonly string[]): LanguageVerdict {
  const sample = chooseSample(lines.map(wordsOf));
  const sampleLength = sample.reduce((n, line) => n + line.length, 0);
  if (sampleLength < MIN_SAMPLE) return { language: 'und', english: true, englishScore: 0, sampleLength };

  const scores = francAll(sample.join('. '), { only: CANDIDATES, minLength: 1 });
  const language = scores[0]?.[0] ?? 'und';
  const englishScore = scores.find(([code]) => code === 'eng')?.[1] ?? 0;
  const english = language === 'eng' || englishScore >= ENGLISH_TIE || namesTestsInEnglish(lines);
  return { language: english ? 'eng' : language, english, englishScore, sampleLength };
}

/**
 * A report whose words are English test names is English whatever the trigrams say: an OCR'd phone photo
 * of an English CBC is a few dozen words, names and scraps, and franc has called one French. Measured: 20-38%
 * of the words of four letters or more of English reports (fixtures and real scans) are words of the
 * catalogue's English test names, 2-3% of a Spanish and an Italian report's.
 */
const ENGLISH_TEST_WORDS = 0.12;
/** ... and at least this many of them: a few shared words ("urea", "total") prove nothing. */
const MIN_TEST_WORDS = 8;

let testWords: Set<string> | undefined;

function namesTestsInEnglish(lines: readonly string[]): boolean {
  testWords ??= new Set(
    loincCatalogue().entries.flatMap((entry) =>
      entry.synonyms.flatMap((name) => name.toLowerCase().match(/\p{L}{4,}/gu) ?? []),
    ),
  );
  const vocabulary = testWords;
  const words = lines.flatMap((line) => line.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
  const known = words.filter((word) => vocabulary.has(word)).length;
  return known >= MIN_TEST_WORDS && known >= ENGLISH_TEST_WORDS * words.length;
}

/** The letter words of a line, lower-cased (all-capitals reports would otherwise skew the trigrams). */
function wordsOf(line: string): string[] {
  return (line.match(/\p{L}{2,}/gu) ?? []).map((word) => word.toLowerCase());
}

function chooseSample(lines: string[][]): string[] {
  const prose = lines.filter((words) => words.length >= PROSE_WORDS).map((words) => words.join(' '));
  if (prose.join(' ').length >= MIN_PROSE) return prose;
  return lines.filter((words) => words.length > 0).map((words) => words.join(' '));
}
