/**
 * pdfkit as the renderers load it: its CommonJS build (the same code as its ES module build, which differs
 * only in how it imports), with two of its dependencies loaded when first used instead of with pdfkit.
 *
 * pdfkit imports fontkit (TrueType/OpenType parsing, with brotli, restructure, unicode tables: some 60
 * modules) and @noble/ciphers (AES) at load, though it calls fontkit only to embed a font file and AES only
 * to encrypt a document. Reports use PDF's standard fonts and no encryption, so a render thread spent most
 * of its start-up, some 200-300 ms of CPU, loading code no report runs. Here, before pdfkit is required,
 * each of the two gets a stand-in in the require cache that requires the real package on first use and
 * hands every property read on to it: a document that embeds a font or encrypts works as before, it only
 * pays for the load then. The ES module build cannot be given this (its imports bind at link time), hence
 * the CommonJS build; every module here imports pdfkit from this one, so font-cache.ts and the renderers
 * share one PDFDocument class.
 */
import { createRequire } from 'node:module';
import type PDFKitDocument from 'pdfkit';

const requireHere = createRequire(import.meta.url);
/** Resolves as pdfkit's own require() does, from pdfkit's directory. */
const requireAsPdfkit = createRequire(requireHere.resolve('pdfkit'));

/** pdfkit's dependencies that only embedded fonts and encryption use. */
const ON_FIRST_USE = ['fontkit', '@noble/ciphers/aes'];

/** A require-cache entry standing in for `id` until something reads from it; then the real module. */
function standIn(id: string): void {
  const path = requireAsPdfkit.resolve(id);
  const cache = requireAsPdfkit.cache;
  if (cache[path]) return;
  let real: Record<string | symbol, unknown> | undefined;
  const load = () => {
    if (!real) {
      delete cache[path];
      real = requireAsPdfkit(id) as Record<string | symbol, unknown>;
    }
    return real;
  };
  const exports = new Proxy(
    {},
    {
      get: (_, key) => load()[key],
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
        return descriptor ? { ...descriptor, configurable: true } : undefined;
      },
    },
  );
  cache[path] = {
    id: path,
    path,
    filename: path,
    loaded: true,
    exports,
    children: [],
    paths: [],
  } as unknown as NodeJS.Module;
}

for (const id of ON_FIRST_USE) standIn(id);

const PDFDocument = requireAsPdfkit('pdfkit') as typeof PDFKitDocument;

export default PDFDocument;
