/**
 * The architecture as rules (.dependency-cruiser.cjs), run by dependency-cruiser over src/ and commands/:
 * no import cycles, a pure extraction pipeline, database drivers only in store files. The second case
 * proves the rules can fail: the same configuration over a folder with a deliberate cycle reports it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function violationsOf(paths: string[], baseDir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  // The project's tsconfig tells the resolver that `./x.js` in a TypeScript file means `./x.ts`.
  const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
  const result = await cruise(paths, { ...options, baseDir }, {}, { tsConfig });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map(
    (v) =>
      `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
  );
}

describe('architecture', () => {
  it('src/ and commands/ keep every rule', { timeout: 120_000 }, async () => {
    expect(await violationsOf(['src', 'commands'], ROOT)).toEqual([]);
  });

  it('a deliberate cycle is reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-arch-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
      writeFileSync(join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
      const found = await violationsOf(['.'], dir);
      expect(found.some((v) => v.startsWith('no-circular:'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
