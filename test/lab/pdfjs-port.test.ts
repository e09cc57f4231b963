import { describe, expect, it } from 'vitest';
import {
  getDocument,
  OPEN_OPTIONS,
  restoredBuiltins,
  threadWorker,
} from '../../src/lab/pipeline/pdf/pdfjs.js';
import { manifest, pdfBytes } from './fixture-files.js';

/** Every page's text items, or the error's name: with pdf.js's own loopback port or with ours. */
async function textOf(pdf: Uint8Array, direct: boolean): Promise<unknown> {
  const task = getDocument({
    data: new Uint8Array(pdf),
    ...OPEN_OPTIONS,
    ...(direct ? { worker: threadWorker().worker } : {}),
  });
  try {
    const doc = await task.promise;
    const pages = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      pages.push({ view: page.view, rotate: page.rotate, text: await page.getTextContent() });
      page.cleanup();
    }
    // Font names carry the document's sequence number (g_d7_f1), which differs between the two runs.
    return JSON.parse(JSON.stringify(pages).replace(/g_d\d+_/g, 'g_d_'));
  } catch (error) {
    return { error: (error as Error).name };
  } finally {
    await task.destroy();
  }
}

describe('pdf.js in an extraction thread', () => {
  it('reads every fixture exactly as through its own cloning port, and leaves no listener behind', async () => {
    const names = manifest().map((e) => e.name);
    expect(names.length).toBeGreaterThan(20);
    await textOf(pdfBytes(names[0] as string), true);
    const listeners = threadWorker().port.listeners;
    for (const name of names) {
      const direct = await textOf(pdfBytes(name), true);
      expect(direct, name).toEqual(await textOf(pdfBytes(name), false));
    }
    expect(threadWorker().port.listeners).toBe(listeners);
  });

  it("keeps the engine's own push and JSON.parse, which core-js in pdf.js's legacy build replaces", () => {
    expect(restoredBuiltins).toEqual(expect.arrayContaining(['push', 'parse']));
    // Built-in functions have no `prototype`; core-js's replacements are ordinary functions and do.
    expect(Object.hasOwn(Array.prototype.push, 'prototype')).toBe(false);
    expect(Object.hasOwn(JSON.parse, 'prototype')).toBe(false);
  });
});
