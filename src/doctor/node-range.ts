/**
 * Whether a Node version satisfies an `engines.node` range of the forms package.json uses here
 * (`>=20.19.0 <21 || >=22.12.0`): alternatives joined by `||`, each a list of comparators (`>=`, `>`, `<=`,
 * `<`, `=` or none) against versions that may leave out their minor and patch. Enough for our own range
 * without depending on semver through another package.
 */
type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

function comparatorHolds(version: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  const bound = m ? parseVersion(m[2] ?? '') : null;
  if (!m || !bound) throw new Error(`Unsupported version comparator: ${comparator}`);
  const c = compare(version, bound);
  switch (m[1]) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    default:
      return c === 0;
  }
}

/** True when `version` (e.g. process.versions.node) lies in `range`. Throws on a range it cannot read. */
export function satisfiesNodeRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) throw new Error(`Unreadable version: ${version}`);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => comparatorHolds(v, comparator)),
  );
}
