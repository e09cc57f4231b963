import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pdfjs = fileURLToPath(new URL('../../src/lab/pipeline/pdf/pdfjs.ts', import.meta.url));
const pdfText = fileURLToPath(new URL('../../src/lab/pipeline/pdf/pdf-text.ts', import.meta.url));
const fixture = fileURLToPath(new URL('../../fixtures/labs/quest-annual-male.pdf', import.meta.url));

/** Runs `body` in a fresh process (what the process has loaded is the point) and returns what it prints. */
function inFreshProcess(body: string): Record<string, unknown> {
  const script = `
    import { createRequire } from 'node:module';
    import { readFileSync } from 'node:fs';
    const { canvasStandIn } = await import(${JSON.stringify(pdfjs.replace('pdfjs.ts', 'canvas-stand-in.ts'))});
    await import(${JSON.stringify(pdfjs)});
    const require = createRequire(import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    const native = () => Object.keys(require.cache).filter((f) => /@napi-rs[\\\\/]canvas(-[^\\\\/]+)?[\\\\/](js-binding\\.js|.*\\.node)$/.test(f));
    const out = { canvasStandIn };
    ${body}
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

describe('pdf.js without the native canvas package', () => {
  it('reads text without loading it; drawing classes load it when first used', () => {
    const out = inFreshProcess(`
      const { extractLayout } = await import(${JSON.stringify(pdfText)});
      const layout = await extractLayout(new Uint8Array(readFileSync(${JSON.stringify(fixture)})));
      out.pages = layout.pages.length;
      out.afterText = native();
      const { DOMMatrix: own } = require('@napi-rs/canvas/geometry.js');
      out.sameMatrix = globalThis.DOMMatrix === own;
      const path = new Path2D('M0 0 L10 10');
      out.path = path instanceof Path2D;
      out.image = new ImageData(2, 2).data.length;
      const canvas = require('@napi-rs/canvas');
      out.real = typeof canvas.createCanvas === 'function' && canvas.DOMMatrix === own;
      out.afterDrawing = native().length > 0;
    `);
    expect(out).toMatchObject({
      canvasStandIn: true,
      afterText: [],
      sameMatrix: true,
      path: true,
      image: 16,
      real: true,
      afterDrawing: true,
    });
    expect(out.pages).toBeGreaterThan(0);
  });
});
