/**
 * pdf.js, loading in Node, require()s `@napi-rs/canvas` whatever it is asked to do next: a native module
 * (Skia) that also scans the system's fonts, some 125 ms of every extraction thread's start. Nothing here
 * draws with pdf.js: text comes from getTextContent, OCR's page images from poppler (ocr/images.ts), the
 * review page's from pdftoppm. What pdf.js takes from the package as it loads is DOMMatrix, which it also
 * uses without drawing (Type3 glyph masks, met while reading text), and ImageData and Path2D, for drawing.
 *
 * So before pdf.js loads (pdfjs.ts imports this module first), the package's entry goes into require's
 * cache as a stand-in: DOMMatrix, DOMPoint and DOMRect are the package's own (its geometry.js, plain
 * JavaScript, the very classes it exports); ImageData, Path2D and everything else load the real package
 * the first time they are used, and from then on require() returns the real package. What pdf.js and any
 * other code see behaves as before; only a process that never draws never loads Skia.
 */
import { Module } from 'node:module';
import { dirname, join } from 'node:path';

type Exports = Record<PropertyKey, unknown>;

/** Classes pdf.js copies to globalThis as it loads and constructs only to draw. */
const LAZY_CLASSES = ['ImageData', 'Path2D'] as const;

/** The real package's exports, loaded on first need and left in require's cache. */
function realLoader(require: NodeJS.Require, entry: string): () => Exports {
  let real: Exports | undefined;
  return () => {
    if (!real) {
      delete require.cache[entry];
      real = require(entry) as Exports;
    }
    return real;
  };
}

/** A class standing for the real one: constructing it, calling it or reading from it loads the package. */
function lazyClass(load: () => Exports, name: string): unknown {
  const real = () => load()[name] as new (...args: unknown[]) => object;
  // A constructible target (a plain function) whose every use is forwarded to the real class.
  const stand: object = new Proxy(function standIn() {}, {
    construct: (_t, args, newTarget): object =>
      Reflect.construct(real(), args, newTarget === stand ? real() : newTarget),
    apply: (_t, self, args) => Reflect.apply(real() as unknown as (...a: unknown[]) => unknown, self, args),
    get: (_t, key) => Reflect.get(real(), key),
    has: (_t, key) => Reflect.has(real(), key),
  });
  return stand;
}

/** The stand-in for the package's exports: geometry as is, the rest loaded on first use. */
function standInExports(load: () => Exports, geometry: Exports): Exports {
  const own: Exports = {
    DOMPoint: geometry.DOMPoint,
    DOMMatrix: geometry.DOMMatrix,
    DOMRect: geometry.DOMRect,
  };
  for (const name of LAZY_CLASSES) own[name] = lazyClass(load, name);
  const fromReal = (key: PropertyKey) => !(key in own);
  return new Proxy(own, {
    get: (target, key) => (fromReal(key) ? load()[key] : target[key]),
    has: (target, key) => key in target || key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (target, key) =>
      fromReal(key)
        ? Reflect.getOwnPropertyDescriptor(load(), key)
        : Reflect.getOwnPropertyDescriptor(target, key),
  });
}

/**
 * Puts the stand-in where pdf.js's require() finds it (resolved from pdf.js's own location, as pdf.js
 * resolves it). Returns whether it did: not when the package is not installed (pdf.js then warns as ever)
 * or is already loaded.
 */
export function installCanvasStandIn(): boolean {
  let require: NodeJS.Require;
  let entry: string;
  try {
    require = Module.createRequire(import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs'));
    entry = require.resolve('@napi-rs/canvas');
  } catch {
    return false;
  }
  if (require.cache[entry]) return false;
  const geometry = require(join(dirname(entry), 'geometry.js')) as Exports;
  const load = realLoader(require, entry);
  const stub = new Module(entry);
  stub.filename = entry;
  stub.exports = standInExports(load, geometry);
  stub.loaded = true;
  require.cache[entry] = stub;
  return true;
}

/** Whether pdf.js found the stand-in, for the test that pins this down. */
export const canvasStandIn = installCanvasStandIn();
