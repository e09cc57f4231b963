/**
 * Issue #29.8: shell completion suggests flag values (sex, format, race ...) and never repeats a topic.
 * `assay autocomplete` (the built CLI, in a child process) writes the scripts into a temporary cache dir;
 * bash completes in a bash child process through the real completion function, zsh (when installed) in an
 * interactive zsh in a pseudo-terminal (support/zsh-complete.zsh).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_VALUES } from '../../src/cli/completion.js';
import { FORMATS, parseFormats } from '../../src/lab/output/formats.js';
import { rangeSex, rangeVendor } from '../../src/refdata/range-filter.js';
import { assay } from './cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ZSH = ['/usr/bin/zsh', '/bin/zsh'].find((p) => existsSync(p));

const TOPICS = ['db', 'jobs', 'keys', 'lab', 'refdata', 'report'];
const TOP_COMMANDS = ['doctor', 'review', 'score', 'serve', 'autocomplete'];

describe('issue #29.8: shell completion of flag values, each topic once', () => {
  const cache = mkdtempSync(join(tmpdir(), 'assay-completion-'));
  const bashFile = join(cache, 'autocomplete/functions/bash/assay.bash');
  const zshDir = join(cache, 'autocomplete/functions/zsh');

  /** What bash completes each line to (the words after `assay`; the last one is being completed). */
  const bash = (lines: string[][]): string[][] => {
    const script = [
      `source ${JSON.stringify(bashFile)}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
      'comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _assay_complete; printf "%s\\n" "${COMPREPLY[*]}"; }',
      ...lines.map((words) => `comp assay ${words.map((w) => `'${w}'`).join(' ')}`),
    ].join('\n');
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
    return out
      .split('\n')
      .slice(0, lines.length)
      .map((l) => l.split(' ').filter(Boolean));
  };
  /** What zsh offers for `line<TAB>`. */
  const zsh = (line: string): string[] =>
    execFileSync(ZSH as string, [join(ROOT, 'test/e2e/support/zsh-complete.zsh'), zshDir, line], {
      encoding: 'utf8',
      timeout: 20_000,
    })
      .split('\n')
      .filter(Boolean);

  beforeAll(async () => {
    const env = { ASSAY_CACHE_DIR: cache };
    // Twice: the values are added once however often the scripts are written.
    for (const shell of ['bash', 'zsh']) {
      const r = await assay(['autocomplete', shell], env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/flag values not added/);
    }
  }, 60_000);
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('bash: each topic and command once, at every level', () => {
    const [top, l, lab, jobs] = bash([[''], ['l'], ['lab', ''], ['jobs', '']]);
    expect(top?.slice().sort()).toEqual([...TOPICS, ...TOP_COMMANDS].sort());
    expect(new Set(top).size).toBe(top?.length);
    expect(l).toEqual(['lab']);
    expect(lab).toEqual(['extract', 'map', 'status']);
    expect(jobs).toEqual(['cancel', 'demo', 'list', 'prune', 'retry', 'show', 'work']);
    expect(readFileSync(bashFile, 'utf8').match(/# assay: flag values/g)).toHaveLength(1);
  });

  it('bash: the values of sex, race, format and the other enumerated flags', () => {
    const [format, formatList, formatEq, sex, race, raceA, rangesSex, vendor, statsSex, logLevel, state] =
      bash([
        ['lab', 'extract', '--format', ''],
        ['lab', 'extract', 'a.pdf', '--format', 'json,'],
        ['lab', 'extract', '--format', '=', 'c'],
        ['report', 'generate', '--sex', ''],
        ['report', 'from-labs', 'a.pdf', '--race', ''],
        ['report', 'generate', 'r.json', '--race', 'a'],
        ['refdata', 'ranges', '--sex', ''],
        ['refdata', 'ranges', '--vendor', ''],
        ['refdata', 'stats', '--sex', ''],
        ['serve', '--log-level', ''],
        ['jobs', 'list', '--state', ''],
      ]);
    expect(format).toEqual(['json', 'fhir', 'csv']);
    expect(formatList).toEqual(['json,fhir', 'json,csv']);
    expect(formatEq).toEqual(['csv']);
    expect(sex).toEqual(['female', 'male']);
    expect(race).toEqual(['white', 'african_american', 'other']);
    expect(raceA).toEqual(['african_american']);
    expect(rangesSex).toEqual(['female', 'male', 'F', 'M']);
    expect(vendor).toEqual(['Quest', 'Labcorp']);
    expect(statsSex).toEqual(['female', 'male']);
    expect(logLevel).toEqual(['silent', 'error', 'warn', 'info', 'debug']);
    expect(state).toEqual(['held', 'ready', 'running', 'done', 'failed', 'cancelled']);
  });

  it('bash: flag names after arguments and flag values, not only right after the command', () => {
    const [afterArg, afterValue, noNo] = bash([
      ['lab', 'extract', 'a.pdf', '--fo'],
      ['lab', 'extract', '--format', 'csv', '--o'],
      ['report', 'generate', '--no-de'],
    ]);
    expect(afterArg).toEqual(['--format']);
    expect(afterValue).toEqual(['--out']);
    expect(noNo).toEqual(['--no-deliver']);
  });

  it('zsh script: values for flags with options and for the suggested ones', () => {
    const script = readFileSync(join(zshDir, '_assay'), 'utf8');
    expect(script).toMatch(/--race"\[[^\n]*\]:race options:\(white african_american other\)"/);
    expect(script).toMatch(/--sex"\[Sex assigned at birth[^\n]*\]:sex options:\(female male\)"/);
    expect(script).toMatch(/"\*"--format"\[[^\n]*\]:format values:\(json fhir csv\)"/);
    expect(script).toMatch(/--sex"\[Only ranges[^\n]*\]:sex values:\(female male F M\)"/);
    expect(script).toMatch(/--vendor"\[[^\n]*\]:vendor values:\(Quest Labcorp\)"/);
    // The top level lists each topic once.
    const top = /_assay\(\) \{[\s\S]*?_values "completions" \\\n([\s\S]*?)\n\n/.exec(script)?.[1] ?? '';
    const names = [...top.matchAll(/^"([a-z-]+)\[/gm)].map((m) => m[1]);
    expect(names.slice().sort()).toEqual([...TOPICS, ...TOP_COMMANDS].sort());
  });

  it.skipIf(!ZSH)('zsh: completes values and each topic once in a real zsh', () => {
    expect(zsh('assay ').sort()).toEqual([...TOPICS, ...TOP_COMMANDS].sort());
    expect(zsh('assay l')).toEqual(['lab']);
    expect(zsh('assay lab extract --format ')).toEqual(['json', 'fhir', 'csv']);
    expect(zsh('assay report generate --race ')).toEqual(['white', 'african_american', 'other']);
    expect(zsh('assay report generate --sex ')).toEqual(['female', 'male']);
    expect(zsh('assay refdata ranges --sex ')).toEqual(['female', 'male', 'F', 'M']);
  });

  it('every suggested value is one the command accepts', () => {
    expect(SUGGESTED_VALUES['lab:extract']?.format).toEqual(FORMATS);
    expect(parseFormats([...FORMATS])).toEqual([...FORMATS]);
    for (const sex of SUGGESTED_VALUES['refdata:ranges']?.sex ?? []) expect(rangeSex(sex)).not.toBeNull();
    expect((SUGGESTED_VALUES['refdata:ranges']?.vendor ?? []).map(rangeVendor)).toEqual([
      'quest diagnostics',
      'labcorp',
    ]);
  });
});
