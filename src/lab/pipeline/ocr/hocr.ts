/**
 * tesseract's hOCR with character boxes (`-c hocr_char_boxes=1`), read into lines of words of characters.
 * hOCR rather than TSV for two things TSV lacks: each character's box and confidence, and each line's
 * baseline and font size. tesseract's word confidence often says nothing of the letters (a cleanly read
 * "Creatinine" with a footnote mark beside it scores 0), so confidence is taken from the characters; and
 * a small mark raised above the baseline (Labcorp's "01") can only be told from the word it is glued to
 * by its characters' boxes.
 *
 * tesseract writes one element per line of markup with the attributes in single or double quotes; this
 * reads that shape, not HTML in general.
 */

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface HocrChar {
  text: string;
  box: Box;
  conf: number;
}

export interface HocrWord {
  box: Box;
  chars: HocrChar[];
}

export interface HocrLine {
  box: Box;
  /** The line's font size in pixels (tesseract's x_size: ascender to descender). */
  size: number;
  /** Baseline height in pixels at `x`. */
  baselineAt: (x: number) => number;
  words: HocrWord[];
}

export interface HocrPage {
  width: number;
  height: number;
  lines: HocrLine[];
}

const LINE_CLASSES = /class=['"](?:ocr_line|ocr_header|ocr_caption|ocr_textfloat)['"]/;
const TITLE = /title=(['"])(.*?)\1/;

export function parseHocr(hocr: string): HocrPage {
  const page: HocrPage = { width: 0, height: 0, lines: [] };
  let line: HocrLine | null = null;
  let word: HocrWord | null = null;
  for (const row of hocr.split('\n')) {
    const title = TITLE.exec(row)?.[2] ?? '';
    if (row.includes("class='ocr_page'") || row.includes('class="ocr_page"')) {
      const box = bboxOf(title, 'bbox');
      if (box) {
        page.width = box.right - box.left;
        page.height = box.bottom - box.top;
      }
    } else if (LINE_CLASSES.test(row)) {
      line = lineOf(title);
      if (line) page.lines.push(line);
      word = null;
    } else if (row.includes('ocrx_word') && line) {
      const box = bboxOf(title, 'bbox');
      word = box ? { box, chars: [] } : null;
      if (word) line.words.push(word);
    } else if (row.includes('ocrx_cinfo') && word) {
      const box = bboxOf(title, 'x_bboxes');
      const text = decodeEntities(/>([^<]*)<\/span>/.exec(row)?.[1] ?? '');
      if (box && text !== '') word.chars.push({ text, box, conf: numberAfter(title, 'x_conf') ?? 0 });
    }
  }
  for (const l of page.lines) l.words = l.words.filter((w) => w.chars.length > 0);
  return page;
}

function lineOf(title: string): HocrLine | null {
  const box = bboxOf(title, 'bbox');
  if (!box) return null;
  const [slope = 0, offset = 0] = (/baseline (-?[\d.]+) (-?[\d.]+)/.exec(title) ?? []).slice(1).map(Number);
  const size = numberAfter(title, 'x_size') ?? box.bottom - box.top;
  // hOCR's baseline is relative to the line box's bottom-left corner.
  return { box, size, baselineAt: (x) => box.bottom + offset + slope * (x - box.left), words: [] };
}

function bboxOf(title: string, key: string): Box | null {
  const m = new RegExp(`${key} (-?\\d+) (-?\\d+) (-?\\d+) (-?\\d+)`).exec(title);
  if (!m) return null;
  const [left, top, right, bottom] = m.slice(1).map(Number) as [number, number, number, number];
  return { left, top, right, bottom };
}

function numberAfter(title: string, key: string): number | null {
  const m = new RegExp(`${key} (-?[\\d.]+)`).exec(title);
  return m ? Number(m[1]) : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });
}
