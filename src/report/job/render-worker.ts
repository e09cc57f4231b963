import { parentPort } from 'node:worker_threads';
import { renderReport } from '../pdf/render.js';
import { modelOf, type RenderInput, type WorkerReply } from './render-pool.js';

/** A render-pool thread: a report model (or its JSON text) in, the PDF bytes (transferred, not copied) out. */
parentPort?.on('message', async (input: RenderInput) => {
  try {
    const pdf = await renderReport(modelOf(input));
    // Transfer only a buffer the PDF owns whole; a pooled Buffer shares its memory and must be copied.
    const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength;
    const bytes = owned ? new Uint8Array(pdf.buffer, 0, pdf.byteLength) : new Uint8Array(pdf);
    const reply: WorkerReply = { pdf: bytes };
    parentPort?.postMessage(reply, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const reply: WorkerReply = { error: { name: e.name, message: e.message } };
    parentPort?.postMessage(reply);
  }
});
