/**
 * Which laboratory issued a report, read from the whole document. Logos are images, so a vendor's name
 * may appear only in a footer (`© ... Laboratory Corporation of America® Holdings`, `Quest, Quest
 * Diagnostics, the associated logo ...`), a report-version line, a performing-site block or a letterhead.
 * These signatures are counted over every page; passing mentions in comment prose ("determined by Quest
 * Diagnostics") are not signatures. Any other laboratory is reported by the name it prints, or by the
 * name a catalogue of US laboratories knows it by (SPEC.md B5 non_supported_lab, detected_lab).
 */
import { readFileSync } from 'node:fs';
import { distance } from 'fastest-levenshtein';
import { dataPath } from '../../../paths.js';
import type { Vendor, VendorDetection } from '../../types.js';
import type { Cell } from '../pdf/layout.js';
import type { DocumentLayout, PageLayout } from '../pdf/pdf-text.js';
import {
  institutionIn,
  labNameIn,
  labNameInLetterhead,
  performingLabIn,
  performingLabInCells,
} from './lab-names.js';

/** The letterhead sits in the top part of a page; lab names further down are mentions, not signatures. */
const LETTERHEAD_SHARE = 0.2;

interface Signature {
  vendor: Vendor;
  /** Tested against each cell's text. */
  pattern: RegExp;
  /** Only in the letterhead (the top of a page). */
  letterhead?: boolean;
}

const LAB_NAMES: Record<Vendor, string> = { quest: 'Quest Diagnostics', labcorp: 'Labcorp' };

/** A copyright line names the report's issuer: "© 2025 Quest Diagnostics Incorporated". */
const COPYRIGHT = String.raw`(?:©|\(c\)|copyright)[^A-Za-z]*(?:\d{4}\s*)?`;

const SIGNATURES: readonly Signature[] = [
  { vendor: 'quest', pattern: new RegExp(`^${COPYRIGHT}quest\\s+diagnostics\\b`, 'i') },
  { vendor: 'labcorp', pattern: new RegExp(`^${COPYRIGHT}(?:labcorp|laboratory\\s+corporation)\\b`, 'i') },
  { vendor: 'quest', pattern: /^quest,\s*quest\s+diagnostics,?\s+the\s+associated\s+logo/i },
  { vendor: 'quest', pattern: /^quest\s+diagnostics\b/i, letterhead: true },
  // Performing sites: "QUEST DIAGNOSTICS-WEST HILLS, ...", "Quest Diagnostics/Nichols SJC-..."
  { vendor: 'quest', pattern: /^quest\s+diagnostics\s*[-/][A-Za-z]/i },
  { vendor: 'quest', pattern: /\benhanced\s+pdf\s+report\b.*\bpage\s+\d+\s+of\s+\d+/i },
  { vendor: 'labcorp', pattern: /laboratory\s+corporation\s+of\s+america/i },
  { vendor: 'labcorp', pattern: /^all\s+rights\s+reserved\s*-\s*enterprise\s+report\s+version/i },
  { vendor: 'labcorp', pattern: /^labcorp\b/i, letterhead: true },
  // Performing sites: "Labcorp Burlington", "LabCorp San Diego".
  { vendor: 'labcorp', pattern: /^labcorp\s+[A-Z][a-z]+$/ },
];

/**
 * A word every signature above holds (any case): a cell without one is no signature, and the ten patterns
 * are not tried on it. Keep it in step with SIGNATURES.
 */
const NAMES_A_VENDOR = /quest|labcorp|laboratory|enhanced|rights/i;

export interface DetectOptions {
  /**
   * The layout before PHI redaction, read only for the catalogue's brand names (strings of ours, never
   * text of the document): a redactor takes "Dr Lal PathLabs" for a physician and blanks the brand.
   */
  unredacted?: DocumentLayout;
  /**
   * The first page's letterhead as OCR read it from the picture (ocr/letterhead.ts), line by line: the
   * last place a name is looked for, where a laboratory prints its name only as an image.
   */
  letterhead?: readonly string[];
}

export function detectVendor(layout: DocumentLayout, opts: DetectOptions = {}): VendorDetection {
  const counts: Record<Vendor, number> = { quest: 0, labcorp: 0 };
  for (const page of layout.pages) {
    for (const vendor of signaturesOn(page)) counts[vendor] += 1;
  }
  const best = (Object.keys(counts) as Vendor[]).sort((a, b) => counts[b] - counts[a])[0];
  if (best && counts[best] > 0) return { vendor: best, labName: LAB_NAMES[best], signatures: counts };
  return {
    vendor: null,
    labName: otherLabName(layout, opts.unredacted ?? layout) ?? labNameInLetterhead(opts.letterhead ?? []),
    signatures: counts,
  };
}

/** The vendors whose signature a page carries: on a portal printout, only the vendor's own copy does. */
export function signaturesOn(page: PageLayout): Set<Vendor> {
  const found = new Set<Vendor>();
  const top = page.height * LETTERHEAD_SHARE;
  for (const line of page.lines) {
    for (const cell of line.cells) {
      const text = cell.text.trim();
      if (!NAMES_A_VENDOR.test(text)) continue;
      for (const sig of SIGNATURES) {
        if (sig.letterhead && line.y > top) continue;
        if (sig.pattern.test(text)) found.add(sig.vendor);
      }
    }
  }
  return found;
}

// --- Other laboratories ------------------------------------------------------------------------------------

interface KnownLab {
  name: string;
  aliases: string[];
}

let knownLabs: Array<{ name: string; pattern: RegExp }> | undefined;

/** US laboratories by the names and product marks they print (data/lab/laboratories.json). */
function catalogue(): Array<{ name: string; pattern: RegExp }> {
  if (!knownLabs) {
    const data = JSON.parse(readFileSync(dataPath('lab', 'laboratories.json'), 'utf8')) as {
      laboratories: KnownLab[];
    };
    knownLabs = data.laboratories.map((lab) => ({
      name: lab.name,
      pattern: new RegExp(`\\b(?:${[lab.name, ...lab.aliases].map(escapeRegExp).join('|')})\\b`, 'i'),
    }));
  }
  return knownLabs;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function otherLabName(layout: DocumentLayout, forCatalogue: DocumentLayout): string | null {
  // A known brand printed on several lines (a footer on every page) names the laboratory; a letterhead
  // cell or a performing-site line may name only one of its processing sites ("LPL-NATIONAL REFERENCE LAB").
  const known = knownLabIn(forCatalogue);
  if (known && known.lines >= BRAND_LINES) return known.name;
  const first = layout.pages[0];
  const cells = first ? letterheadCells(first) : [];
  const fromLetterhead = first ? surestName(cells, first, labNameIn) : null;
  if (fromLetterhead) return fromLetterhead;
  for (const page of layout.pages) {
    for (const line of page.lines) {
      const named = performingLabIn(line.text) ?? performingLabInCells(line.cells.map((cell) => cell.text));
      if (named) return named;
    }
  }
  // Last, the institution a hospital's laboratory prints instead of its own name (at most with its
  // department's): after a catalogue brand, which a collection site's hospital must not outrank.
  return known?.name ?? (first ? surestName(cells, first, institutionIn) : null);
}

/** Two readings of one name are at most this many letters apart. */
const SAME_NAME_EDITS = 2;

/**
 * The first letterhead cell that names a laboratory, as the page reads it most surely. A scan may read the
 * name again elsewhere on the page (large red letters above, `SWASTIR HOSPITAL`; the patient's box below,
 * `SWASTIK HOSPITAL`): of readings a letter or two apart, the one OCR was surest of is the name. A text
 * layer has no confidence and keeps its first reading.
 */
function surestName(
  cells: readonly Cell[],
  page: PageLayout,
  namer: (text: string) => string | null,
): string | null {
  const at = cells.findIndex((cell) => namer(cell.text) !== null);
  const chosen = cells[at];
  if (!chosen) return null;
  let best = {
    name: namer(chosen.text) as string,
    confidence: chosen.confidence ?? Number.POSITIVE_INFINITY,
  };
  const key = best.name.toLowerCase();
  for (const cell of page.lines.flatMap((line) => line.cells)) {
    if ((cell.confidence ?? 0) <= best.confidence) continue;
    const name = namer(cell.text);
    if (name && distance(name.toLowerCase(), key) <= SAME_NAME_EDITS)
      best = { name, confidence: cell.confidence as number };
  }
  return best.name;
}

/** Lines a catalogue brand must be printed on to outrank a performing-site line. */
const BRAND_LINES = 2;

/** The catalogue lab named most often in the document, with the number of lines naming it. */
function knownLabIn(layout: DocumentLayout): { name: string; lines: number } | null {
  const counts = new Map<string, number>();
  for (const page of layout.pages) {
    for (const line of page.lines) {
      for (const lab of catalogue()) {
        if (lab.pattern.test(line.text)) counts.set(lab.name, (counts.get(lab.name) ?? 0) + 1);
      }
    }
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best ? { name: best[0], lines: best[1] } : null;
}

function letterheadCells(page: PageLayout): Cell[] {
  const limit = page.height * LETTERHEAD_SHARE;
  return page.lines
    .filter((line) => line.y <= limit)
    .flatMap((line) => line.cells.filter((cell, i, all) => !isLabelValue(cell.text, all[i - 1]?.text)));
}

/** A label's value ("Referred By: Dr. ... Hospital", "Collection Point: ... Lab"): the patient's details. */
const VALUE_LABEL =
  /:\s*$|^(?:ref(?:erred)?\.?(?:\s+by)?(?:\s+dr\.?)?|consultant|collection\s+(?:point|cent(?:re|er)))$/i;

function isLabelValue(text: string, before: string | undefined): boolean {
  return /^dr\.?\s*[A-Z]/i.test(text.trim()) || (before !== undefined && VALUE_LABEL.test(before.trim()));
}
