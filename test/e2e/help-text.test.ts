/**
 * Help and errors speak the user's words: no command's help, no error a user can see, and no string in the
 * code that could become one, sends the reader to SPEC.md (a design document that is not shipped). Help
 * points to docs/formats.md instead, which the package ships.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, assayMany, type CliResult } from './cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = /SPEC\.md|\bSPEC\b/;

function manifestCommands(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, unknown>;
  };
  return Object.keys(manifest.commands).sort();
}

/** Every entry in one child process (see assayMany); a spawn each took 96 s for the same answers. */
const runAll = (argsList: string[][], env: Record<string, string>): Promise<CliResult[]> =>
  assayMany(argsList, env);

const shown = (r: CliResult) => `${r.stdout}\n${r.stderr}`;
/** Dozens of cases in one CLI process. */
const MANY = 120_000;

describe('help and errors never mention SPEC.md', () => {
  const home = tmpHome('assay-e2e-help-');
  const env = { ASSAY_HOME: home.dir };
  afterAll(() => home.cleanup());

  const commands = manifestCommands();

  it('the manifest lists every command, doctor included', () => {
    expect(commands).toContain('doctor');
    expect(commands).toContain('lab:extract');
    expect(commands.length).toBeGreaterThanOrEqual(20);
  });

  it(
    'every command, topic and the root: --help exits 0 and never mentions SPEC',
    async () => {
      const topics = [
        ...new Set(commands.filter((c) => c.includes(':')).map((c) => c.split(':')[0] as string)),
      ];
      const argsList = [
        ['--help'],
        ...topics.map((t) => [t, '--help']),
        ...commands.map((c) => [...c.split(':'), '--help']),
        ['autocomplete', '--help'],
      ];
      const results = await runAll(argsList, env);
      for (const [i, r] of results.entries()) {
        const text = shown(r);
        expect(r.exitCode, `${argsList[i]?.join(' ')}: ${text}`).toBe(0);
        expect(text, argsList[i]?.join(' ')).not.toMatch(SPEC);
      }
    },
    MANY,
  );

  it('help that names JSON formats points to docs/formats.md in the installed package', async () => {
    const r = await assay(['lab', 'extract', '--help'], env);
    expect(r.stdout).toContain('coverage');
    // oclif renders the template: the path printed is this package's own file.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`${join(ROOT, 'docs', 'formats.md')}`);
    expect(r.stdout).not.toContain('<%=');
  });

  it(
    'usage errors of every command never mention SPEC',
    async () => {
      const results = await runAll(
        commands.map((c) => [...c.split(':'), '--no-such-flag']),
        env,
      );
      for (const [i, r] of results.entries()) {
        expect(r.exitCode, commands[i]).toBe(2);
        expect(shown(r), commands[i]).not.toMatch(SPEC);
      }
    },
    MANY,
  );

  it(
    'errors about inputs, ids and settings never mention SPEC',
    async () => {
      const both = join(home.dir, 'both.json');
      writeFileSync(both, JSON.stringify({ health_events: [], health_event: {} }));
      const invalid = join(home.dir, 'invalid.json');
      writeFileSync(
        invalid,
        JSON.stringify({ report_metadata: { event_id: '' }, uid_ext: 1, health_events: [{ event_age: -1 }] }),
      );
      const notJson = join(home.dir, 'not.json');
      writeFileSync(notJson, '{ nope');
      const cases: Array<{ args: string[]; exit: number }> = [
        { args: ['score', both], exit: 2 },
        { args: ['score', invalid], exit: 2 },
        { args: ['score', notJson, '--json'], exit: 2 },
        { args: ['report', 'generate', invalid], exit: 2 },
        { args: ['report', 'generate', join(home.dir, 'missing.json')], exit: 2 },
        { args: ['report', 'generate'], exit: 2 },
        { args: ['report', 'from-labs'], exit: 2 },
        { args: ['report', 'from-labs', 'a.pdf', '--sex', 'female'], exit: 2 },
        {
          args: [
            'report',
            'from-labs',
            join(home.dir, 'no-such-folder'),
            '--dob',
            '1970-01-31',
            '--sex',
            'male',
          ],
          exit: 2,
        },
        { args: ['report', 'status', '00000000-0000-4000-8000-000000000000'], exit: 3 },
        { args: ['lab', 'extract'], exit: 2 },
        { args: ['lab', 'extract', 'a.pdf', '--dob', '12/04/1980'], exit: 2 },
        { args: ['lab', 'status', 'nope', '--json'], exit: 3 },
        { args: ['lab', 'map'], exit: 2 },
        { args: ['refdata', 'stats', '--sex', 'female', '--age', 'old'], exit: 2 },
        { args: ['refdata', 'sync', '--from', join(home.dir, 'no-such-folder')], exit: 2 },
        { args: ['jobs', 'show', 'nope'], exit: 3 },
        { args: ['keys', 'revoke', 'nope'], exit: 3 },
        { args: ['score'], exit: 2 },
      ];
      const results = await runAll(
        cases.map((c) => c.args),
        env,
      );
      for (const [i, r] of results.entries()) {
        const what = cases[i]?.args.join(' ');
        expect(r.exitCode, `${what}: ${shown(r)}`).toBe(cases[i]?.exit);
        expect(shown(r), what).toMatch(/Error|"error"/);
        expect(shown(r), what).not.toMatch(SPEC);
      }
    },
    MANY,
  );

  it('no string in commands/ or src/ (where help and error messages come from) mentions SPEC.md', () => {
    const files = ['commands', 'src'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile() && f.name.endsWith('.ts'))
        .map((f) => join(f.parentPath, f.name)),
    );
    const offenders: string[] = [];
    for (const file of files) {
      // Comments may cite SPEC.md for maintainers; only string and template text can reach a user.
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          (ts.isStringLiteral(node) ||
            ts.isNoSubstitutionTemplateLiteral(node) ||
            ts.isTemplateHead(node) ||
            ts.isTemplateMiddle(node) ||
            ts.isTemplateTail(node)) &&
          SPEC.test(node.text)
        )
          offenders.push(`${relative(ROOT, file)}: ${node.text.slice(0, 80)}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offenders).toEqual([]);
  });
});
