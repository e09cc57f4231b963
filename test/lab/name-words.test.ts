import { describe, expect, it } from 'vitest';
import { nameWordRedactor } from '../../src/lab/pipeline/screen/name-words.js';

const MARK = '[REDACTED]';

/** The one Unicode pattern the redactor stands for: each word, in any case, with no letter either side. */
function unicodeReference(words: readonly string[]): (text: string) => string {
  const alternatives = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(`(?<![\\p{L}])(?:${alternatives})(?![\\p{L}])`, 'giu');
  return (text) => text.replace(pattern, MARK);
}

// Made-up names; texts where the ASCII pattern is used and texts that need the Unicode one.
const CASES: Array<[string[], string[]]> = [
  [
    ['Brisco', 'Tamsin'],
    [
      'Patient: BRISCO, TAMSIN',
      'tamsin j. brisco',
      'Briscos Tamsinson',
      'x-Brisco-y',
      "O'Brisco",
      'Kelvin-sign Brisco: BRISCO \u212a',
      'Brisco\u00e9',
      '\u00e9Tamsin',
      'TAMSIN \u017f Brisco',
    ],
  ],
  [
    ["O'Neil", 'Jean-Luc', 'Kask'],
    ["o'neil JEAN-LUC", 'Jean-Lucs', '\u212aask', 'KASK kask \u212aASK', '\u017fKask'],
  ],
  [
    ['Zo\u00eb', 'Sk\u00e5l', 'Sask'],
    ['ZO\u00cb zo\u00eb', 'SK\u00c5L, Sask', '\u017fask sa\u017fk SASK', 'plain ascii Sask'],
  ],
];

describe('nameWordRedactor', () => {
  it.each(CASES)('redacts %j exactly as the Unicode pattern does', (words, texts) => {
    const redact = nameWordRedactor(words, MARK);
    const reference = unicodeReference(words);
    for (const text of texts) expect(redact(text)).toBe(reference(text));
  });

  it('redacts a name word in any case, and never inside a longer word', () => {
    const redact = nameWordRedactor(['Brisco'], MARK);
    expect(redact('BRISCO, Tamsin')).toBe(`${MARK}, Tamsin`);
    expect(redact('Briscos')).toBe('Briscos');
  });
});
