/**
 * The lab extraction pipeline as one pure async function of the PDF's bytes and the request's options:
 * text with layout (OCR for scans) -> language -> PHI -> validation -> results. It touches no database and
 * no file of its own, so it runs the same inside a worker thread, in a test, or in a benchmark; the job
 * kind (job.ts) maps its outcome onto SPEC.md statuses.
 */
import { scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { NoResultsError } from './errors.js';
import { extractResults } from './extract-results.js';
import { detectLanguage } from './language.js';
import { ocrLayout } from './ocr.js';
import { extractLayout } from './pdf-text.js';
import { detectPhi, type PhiKind } from './phi.js';
import { isReadableText } from './readable-text.js';
import type { ExtractionCore, RejectionReason } from './types.js';
import { validateDocument } from './validate.js';

/** SPEC.md's processing states, in pipeline order. */
export type PipelineStage = 'processing_language' | 'processing_phi' | 'processing_extraction';

/**
 * The requester's date of birth as the pipeline may know it: a scrypt digest under a per-job salt and a
 * per-home key. Neither the date nor anything it can be recovered from without the key is ever stored.
 */
export interface DobSeal {
  salt: string;
  digest: string;
}

export interface PipelineRequest {
  rejectIfPHI?: boolean;
  anyLab?: boolean;
  dob?: DobSeal;
  /** The home's DOB key (base64), needed with `dob`. Passed in memory only. */
  dobKey?: string;
}

export type PipelineOutcome =
  | { status: 'completed'; result: ExtractionCore }
  | { status: 'quarantined'; rejection_reason: 'non_english_document'; language: string }
  | { status: 'rejected_phi'; kinds: PhiKind[] }
  | { status: 'invalid_document'; rejection_reason: RejectionReason; detected_lab?: string | null };

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
  hooks.onStage?.('processing_language');
  let layout = await extractLayout(pdf);
  if (!layout.hasTextLayer || !isReadableText(layout)) {
    const reason = layout.hasTextLayer ? 'unreadable_text' : 'no_text_layer';
    layout = await ocrLayout(pdf, layout.pages.length, {
      signal: hooks.signal,
      reason,
      onPage: hooks.onOcrPage,
    });
  }
  hooks.signal?.throwIfAborted();

  const language = detectLanguage(layout);
  if (!language.english)
    return { status: 'quarantined', rejection_reason: 'non_english_document', language: language.language };

  hooks.onStage?.('processing_phi');
  const phi = detectPhi(layout, { matchesDob: dobMatcher(request) });
  if (request.rejectIfPHI && phi.kinds.length > 0) return { status: 'rejected_phi', kinds: phi.kinds };

  hooks.onStage?.('processing_extraction');
  const validation = validateDocument(phi.redacted, { anyLab: request.anyLab });
  if (!validation.ok) {
    const { rejection_reason, detected_lab } = validation;
    return {
      status: 'invalid_document',
      rejection_reason,
      ...(detected_lab !== undefined ? { detected_lab } : {}),
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

// --- Date of birth, compared but never kept ------------------------------------------------------------------

/**
 * A deliberately slow hash: a DOB has only some 40,000 plausible values, so a fast hash of it would be
 * reversible by trying them all. The key lives in the home, apart from the database rows.
 */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 } as const;
const DIGEST_BYTES = 32;

function keyMaterial(key: string, salt: string): Buffer {
  return Buffer.concat([Buffer.from(key, 'base64'), Buffer.from(salt, 'base64')]);
}

/** For the submitting side: asynchronous (libuv's pool), so sealing a batch never blocks the event loop. */
export function dobDigest(isoDate: string, key: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(isoDate, keyMaterial(key, salt), DIGEST_BYTES, SCRYPT, (error, digest) =>
      error ? reject(error) : resolve(digest.toString('base64')),
    );
  });
}

/**
 * For the pipeline, which runs in a worker thread of its own: the PHI stage asks synchronously, once per
 * printed date of birth (rarely more than one), so a synchronous digest costs nobody anything.
 */
function dobMatcher(request: PipelineRequest): ((iso: string) => boolean) | undefined {
  const { dob, dobKey } = request;
  if (!dob || !dobKey) return undefined;
  const expected = Buffer.from(dob.digest, 'base64');
  return (iso) => {
    const actual = scryptSync(iso, keyMaterial(dobKey, dob.salt), DIGEST_BYTES, SCRYPT);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };
}
