/**
 * The lab extraction pipeline as one pure async function of the PDF's bytes and the request's options:
 * text with layout (OCR for scans) -> language -> PHI -> validation -> results. It touches no database and
 * no file of its own, so it runs the same inside a worker thread, in a test, or in a benchmark; the job
 * kind (job.ts) maps its outcome onto SPEC.md statuses.
 */

import type { ExtractionCore, RejectionExplained, RejectionReason } from '../types.js';
import { NoResultsError } from './errors.js';
import { extractLayout } from './pdf/pdf-text.js';
import { extractResults } from './results/extract-results.js';
import { type DobSeal, dobMatcher } from './screen/dob-seal.js';
import { detectLanguage } from './screen/language.js';
import { detectPhi, type PhiKind } from './screen/phi.js';
import { isReadableText } from './screen/readable-text.js';
import { type Validation, validateDocument } from './screen/validate.js';
import { forgetTexts } from './table/text-memo.js';

/** SPEC.md's processing states, in pipeline order. */
export type PipelineStage = 'processing_language' | 'processing_phi' | 'processing_extraction';

export interface PipelineRequest {
  rejectIfPHI?: boolean;
  anyLab?: boolean;
  dob?: DobSeal;
  /** The home's DOB key (base64), needed with `dob`. Passed in memory only. */
  dobKey?: string;
}

export type PipelineOutcome =
  | { status: 'completed'; result: ExtractionCore }
  | ({
      status: 'quarantined';
      rejection_reason: 'non_english_document';
      language: string;
    } & RejectionExplained)
  | { status: 'rejected_phi'; kinds: PhiKind[] }
  | ({
      status: 'invalid_document';
      rejection_reason: RejectionReason;
      detected_lab?: string | null;
    } & RejectionExplained);

export interface PipelineHooks {
  onStage?: (stage: PipelineStage) => void;
  /** Pages of a scan read so far, of its page count. */
  onOcrPage?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function runPipeline(
  pdf: Uint8Array,
  request: PipelineRequest = {},
  hooks: PipelineHooks = {},
): Promise<PipelineOutcome> {
  try {
    return await readDocument(pdf, request, hooks);
  } finally {
    // The cells' texts judged while reading it are the document's: none is kept for the next.
    forgetTexts();
  }
}

async function readDocument(
  pdf: Uint8Array,
  request: PipelineRequest,
  hooks: PipelineHooks,
): Promise<PipelineOutcome> {
  hooks.onStage?.('processing_language');
  let layout = await extractLayout(pdf);
  if (!layout.hasTextLayer || !isReadableText(layout)) {
    const reason = layout.hasTextLayer ? 'unreadable_text' : 'no_text_layer';
    // OCR (page rendering, canvas, tesseract through execa) is three quarters of the pipeline's modules:
    // imported by the first scan, so a thread that only meets text PDFs never compiles them.
    const { ocrLayout } = await import('./ocr/ocr.js');
    layout = await ocrLayout(pdf, layout.pages.length, {
      signal: hooks.signal,
      reason,
      onPage: hooks.onOcrPage,
    });
  }
  hooks.signal?.throwIfAborted();

  const language = detectLanguage(layout);
  if (!language.english)
    return {
      status: 'quarantined',
      rejection_reason: 'non_english_document',
      language: language.language,
      rejection_detail: `The text reads as ${languageName(language.language)}, not English; only English reports are read.`,
      rejection_evidence: [
        `pages: ${layout.pages.length}`,
        `language detected: ${language.language} (ISO 639-3)`,
      ],
    };

  hooks.onStage?.('processing_phi');
  const phi = detectPhi(layout, { matchesDob: dobMatcher(request) });
  if (request.rejectIfPHI && phi.kinds.length > 0) return { status: 'rejected_phi', kinds: phi.kinds };

  hooks.onStage?.('processing_extraction');
  const validation = await withLetterhead(
    validateDocument(phi.redacted, { anyLab: request.anyLab, unredacted: layout }),
    async (share) => {
      const { readLetterhead } = await import('./ocr/letterhead.js');
      const first = layout.pages[0];
      const letterhead = first ? await readLetterhead(pdf, first, hooks.signal, share) : [];
      return validateDocument(phi.redacted, { anyLab: request.anyLab, unredacted: layout, letterhead });
    },
  );
  if (!validation.ok) {
    const { rejection_reason, detected_lab, rejection_detail, rejection_evidence } = validation;
    return {
      status: 'invalid_document',
      rejection_reason,
      ...(detected_lab !== undefined ? { detected_lab } : {}),
      rejection_detail,
      rejection_evidence,
    };
  }
  const parsed = extractResults(phi.redacted, {
    vendor: validation.vendor ?? 'generic',
    dateCollected: validation.dateCollected,
  });
  if (parsed.panels.length === 0) throw new NoResultsError();
  return {
    status: 'completed',
    result: {
      labName: validation.labName,
      dateCollected: validation.dateCollected,
      verification: phi.verification,
      panels: parsed.panels,
      mergeActions: parsed.mergeActions,
      validationFlags: parsed.validationFlags,
      coverage: parsed.coverage,
    },
  };
}

/**
 * A report of another laboratory whose text names none is judged again with its letterhead read from the
 * picture, where such laboratories print their names. The name is all that can change.
 */
async function withLetterhead(
  validation: Validation,
  again: (share: number) => Promise<Validation>,
): Promise<Validation> {
  let judged = validation;
  for (const share of LETTERHEAD_SHARES) {
    if (!unnamed(judged)) break;
    judged = await again(share);
  }
  return judged;
}

/**
 * How much of page 1's height is read for a letterhead: letterheads end above the patient block. A photo
 * whose page does not fill the frame (the cloth it lies on above it) sets its letterhead lower, so a third of the
 * page is read when the first band names no laboratory. Only then: a deeper band also changes how tesseract
 * segments the band, and a laboratory's name read well from the first was lost from the deeper one.
 */
const LETTERHEAD_SHARES = [0.22, 0.33] as const;

function unnamed(validation: Validation): boolean {
  return validation.ok
    ? validation.vendor === null && validation.labName === null
    : validation.rejection_reason === 'non_supported_lab' && !validation.detected_lab;
}

/** franc's ISO 639-3 codes of the languages lab reports come in, by name; others stay a code. */
const LANGUAGES: Record<string, string> = {
  spa: 'Spanish',
  fra: 'French',
  deu: 'German',
  ita: 'Italian',
  por: 'Portuguese',
  nld: 'Dutch',
  pol: 'Polish',
  tur: 'Turkish',
  rus: 'Russian',
  cmn: 'Chinese',
  jpn: 'Japanese',
  und: 'an undetermined language',
};

function languageName(code: string): string {
  return LANGUAGES[code] ?? `the language coded ${code}`;
}
