/**
 * Whether a text layer says anything a reader could read. A PDF whose fonts carry no character map gives
 * glyph codes instead of letters, and one drawn as vector outlines with an invisible text layer may give
 * junk: either way the language stage would call it "not English", which is the wrong reason. Such a text
 * layer is treated like none: the page images are read by OCR where it is available.
 */
import type { DocumentLayout } from '../pdf/pdf-text.js';

/** Characters a printed lab report is made of: Latin letters (with accents), digits, common signs. */
const READABLE = /[\p{Script=Latin}\p{Nd}.,:;()/%<>=+\-*#'"&[\]°µ±≤≥®©™]/u;
/** Below this share of readable characters, the text layer is glyph codes, not text. */
const MIN_READABLE_SHARE = 0.6;
/** Too little text to judge: leave the decision to the stages that follow. */
const MIN_CHARS = 40;

export function isReadableText(layout: DocumentLayout): boolean {
  let total = 0;
  let readable = 0;
  for (const page of layout.pages) {
    for (const item of page.items) {
      for (const ch of item.str) {
        if (/\s/.test(ch)) continue;
        total += 1;
        if (READABLE.test(ch)) readable += 1;
      }
    }
  }
  return total < MIN_CHARS || readable / total >= MIN_READABLE_SHARE;
}
