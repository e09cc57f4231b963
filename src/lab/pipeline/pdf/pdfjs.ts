/**
 * The one entry to pdf.js. Import order matters: native-builtins.js is evaluated first (it captures the
 * engine's built-ins), then canvas-stand-in.js (so pdf.js does not load the native canvas package it never
 * draws with), then pdf.js and its worker module, then the built-ins core-js replaced are put back.
 */
// Module requests are evaluated in source order: the first line captures the built-ins before pdf.js runs.
import './native-builtins.js';
import './canvas-stand-in.js';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { natives, restoreNatives } from './native-builtins.js';
import { DirectPort } from './pdfjs-port.js';

/** What was put back, for the test that pins this down. */
export const restoredBuiltins: readonly string[] = restoreNatives(natives);

export const { getDocument, normalizeUnicode, Util } = pdfjs;

/** How every document is opened: no eval, no font loading, no system fonts, only errors logged. */
export const OPEN_OPTIONS = {
  verbosity: pdfjs.VerbosityLevel.ERRORS,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
} as const;
export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What pdf.worker.mjs publishes when it loads (the only way it is reachable with types). */
interface WorkerGlobal {
  pdfjsWorker: { WorkerMessageHandler: { initializeFromPort(port: DirectPort): void } };
}

let shared: { port: DirectPort; worker: pdfjs.PDFWorker } | undefined;

/**
 * The worker side of pdf.js for this thread, set up once and shared by every document it opens (each gets
 * its own handler on the port and removes it when destroyed), instead of a new loopback per document.
 */
export function threadWorker(): { port: DirectPort; worker: pdfjs.PDFWorker } {
  if (!shared) {
    const port = new DirectPort();
    (globalThis as unknown as WorkerGlobal).pdfjsWorker.WorkerMessageHandler.initializeFromPort(port);
    const worker = new pdfjs.PDFWorker({ port: port as never, verbosity: OPEN_OPTIONS.verbosity });
    shared = { port, worker };
  }
  return shared;
}
