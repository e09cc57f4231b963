/**
 * pdf.js's legacy build (the one that runs on Node 20) bundles core-js, which on load replaces some of the
 * engine's own built-ins with JavaScript versions wherever it judges them non-conforming in an edge case:
 * on Node 20, Array.prototype.push (its error on a frozen length), JSON.parse (the reviver's source text)
 * and Function.prototype.toString. That made every push in the extraction thread, ours and pdf.js's, an
 * interpreted call. The native functions are taken here, before pdf.js loads, and put back after it (see
 * pdfjs.ts); what core-js adds for features Node 20 lacks (Promise.withResolvers, Math.sumPrecise...) stays.
 */

type Owner = Record<PropertyKey, unknown>;

/** The built-ins whose methods the project and pdf.js call in hot loops. */
const OWNERS: Owner[] = [
  Array.prototype,
  Object,
  Object.prototype,
  Function.prototype,
  String.prototype,
  JSON,
  Math,
  Number,
  Promise,
  Map.prototype,
  Set.prototype,
  RegExp.prototype,
  ArrayBuffer.prototype,
  Object.getPrototypeOf(Uint8Array.prototype),
  Uint8Array.prototype,
] as unknown as Owner[];

export interface NativeMethod {
  owner: Owner;
  key: PropertyKey;
  value: unknown;
}

/** Every function-valued own property of the built-ins above, as it is now. */
export function captureNatives(): NativeMethod[] {
  const methods: NativeMethod[] = [];
  for (const owner of OWNERS) {
    for (const key of Reflect.ownKeys(owner)) {
      const value = Object.getOwnPropertyDescriptor(owner, key)?.value;
      if (typeof value === 'function') methods.push({ owner, key, value });
    }
  }
  return methods;
}

/** Put back every captured method that has since been replaced; the names of those put back. */
export function restoreNatives(methods: NativeMethod[]): string[] {
  const restored: string[] = [];
  for (const { owner, key, value } of methods) {
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (!descriptor || descriptor.value === value) continue;
    Object.defineProperty(owner, key, { ...descriptor, value });
    restored.push(String(key));
  }
  return restored;
}

/** Taken when this module is first evaluated, which pdfjs.ts arranges to be before pdf.js loads. */
export const natives = captureNatives();
