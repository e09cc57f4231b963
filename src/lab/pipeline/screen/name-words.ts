/**
 * The words of a person's name, redacted wherever they stand as words in any case ("ELLERY" for Ellery).
 * Each document has its own names, so its pattern is compiled for that document; with the u flag (needed
 * for "a letter" beside a name in any script) V8 compiles it about five times slower, a millisecond or
 * more per document. Where the names and the text are both ASCII the u flag changes nothing: ASCII letters
 * match each other's case alike with or without it, and the only letters such a text holds are A-Z and
 * a-z. Those texts use a pattern without it; the Unicode one is built only for a text that needs it.
 */

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function nameWordRedactor(words: readonly string[], mark: string): (text: string) => string {
  const alternatives = words.map(escapeRegExp).join('|');
  const ascii = words.every(isAscii)
    ? new RegExp(`(?<![A-Za-z])(?:${alternatives})(?![A-Za-z])`, 'gi')
    : null;
  let unicode: RegExp | undefined;
  return (text) => {
    if (ascii && isAscii(text)) return text.replace(ascii, mark);
    unicode ??= new RegExp(`(?<![\\p{L}])(?:${alternatives})(?![\\p{L}])`, 'giu');
    return text.replace(unicode, mark);
  };
}
