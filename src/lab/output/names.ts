import { basename, dirname, extname, relative, resolve, sep } from 'node:path';

/**
 * The output name (no extension) of each PDF of a batch: its own name when no other PDF of the batch has
 * it, otherwise its path relative to the folder all the batch's PDFs share, so `coll/a/report.pdf` and
 * `coll/b/report.pdf` write `a/report.json` and `b/report.json` instead of one `report.json` twice. Names
 * compare without case (macOS and Windows keep `Report.json` and `report.json` as one file); what still
 * collides (`report.pdf` beside `report.PDF`) gets `-2`, `-3` in input order, the same on every run.
 */
export function outputNames(files: readonly string[]): Map<string, string> {
  const stem = (file: string) => basename(file, extname(file));
  const byStem = countBy(files, (f) => stem(f).toLowerCase());
  const root = commonDir(files.map((f) => dirname(resolve(f))));
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of files) {
    const own = stem(file);
    const first =
      (byStem.get(own.toLowerCase()) ?? 0) > 1
        ? relative(root, resolve(dirname(file), own))
            .split(sep)
            .join('/')
        : own;
    let name = first;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${first}-${n}`;
    taken.add(name.toLowerCase());
    names.set(file, name);
  }
  return names;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The deepest folder that holds every one of `dirs` (absolute paths). */
function commonDir(dirs: readonly string[]): string {
  const [first, ...rest] = dirs.map((d) => d.split(sep));
  if (!first) return process.cwd();
  let depth = first.length;
  for (const parts of rest) {
    let i = 0;
    while (i < depth && i < parts.length && parts[i] === first[i]) i++;
    depth = i;
  }
  return first.slice(0, depth).join(sep) || sep;
}
