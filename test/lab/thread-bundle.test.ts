import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUNDLE_FILE,
  bundleFileText,
  CACHE_FILE,
  encodeCache,
  latin1Source,
  loadThreadBundle,
  runThreadBundle,
} from '../../src/lab/job/thread-bundle.js';

const BUNDLE = `
  const { basename } = require('node:path');
  exports.file = basename(__filename);
  exports.twice = (n) => n * 2;
`;

describe('the thread bundle and its code cache', () => {
  let dir: string;
  let url: URL;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-thread-bundle-'));
    url = pathToFileURL(`${dir}/`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** What the build writes: the bundle, and a cache made from `cacheOf` after running it. */
  function build(source: string, cacheOf = source): void {
    writeFileSync(join(dir, BUNDLE_FILE), source, 'latin1');
    const { script } = runThreadBundle(cacheOf, join(dir, BUNDLE_FILE));
    writeFileSync(join(dir, CACHE_FILE), encodeCache(cacheOf, script.createCachedData()));
  }

  it('runs the bundle as a CommonJS module in its folder, with the cache made from it', () => {
    build(bundleFileText(BUNDLE));
    const loaded = loadThreadBundle(url);
    expect(loaded?.cacheUsed).toBe(true);
    expect(loaded?.exports.file).toBe(BUNDLE_FILE);
    const twice = loaded?.exports.twice as (n: number) => number;
    expect(twice(21)).toBe(42);
  });

  it('runs a bundle without the cache of another build, or with none', () => {
    build(bundleFileText(BUNDLE), bundleFileText(`${BUNDLE}\nexports.other = true;`));
    const stale = loadThreadBundle(url);
    expect(stale?.cacheUsed).toBe(false);
    expect(stale?.exports.file).toBe(BUNDLE_FILE);
    rmSync(join(dir, CACHE_FILE));
    expect(loadThreadBundle(url)?.cacheUsed).toBe(false);
  });

  it('is not there when nothing was built', () => {
    expect(loadThreadBundle(url)).toBeUndefined();
  });
});

describe('latin1Source', () => {
  it('leaves Latin-1 as it is', () => {
    const code = 'const unit = /^[µ°§]g$/; // ±';
    expect(latin1Source(code)).toBe(code);
  });

  it('escapes what lies beyond, meaning the same in patterns, String.raw sources and comments', () => {
    const code = String.raw`
      const literal = /^10([⁰¹²³]+)|[≤≥]|–/u;
      const built = new RegExp(String.raw${'`'}^(?:–|—|to)\s*(\d+)$${'`'}, 'i');
      // 10³ and ’ in a comment
      module.exports = { literal, built, emoji: /^😀$/u };`;
    const escaped = latin1Source(code);
    expect([...escaped].every((ch) => ch.charCodeAt(0) <= 0xff)).toBe(true);
    const run = (source: string) => {
      const module = { exports: {} as Record<string, RegExp> };
      new Function('module', source)(module);
      return module.exports;
    };
    const before = run(code);
    const after = run(escaped);
    for (const text of ['10²³', '≥', '–', '— 12', 'to 7', '😀', 'x']) {
      expect(after.literal?.test(text)).toBe(before.literal?.test(text));
      expect(after.built?.exec(text)).toEqual(before.built?.exec(text));
      expect(after.emoji?.test(text)).toBe(before.emoji?.test(text));
    }
  });

  it('refuses a character that a backslash escapes, whose meaning would change', () => {
    expect(() => latin1Source('const dash = /\\–/;')).toThrow(/backslash/);
    expect(latin1Source('const dash = /\\\\–/;')).toBe('const dash = /\\\\\\u2013/;');
  });
});
