import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assay, json } from '../e2e/cli.js';
import { tmpHome } from '../engine/support/tmp-home.js';

const glucose = JSON.stringify({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    {
      resource: {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }], text: 'Glucose' },
        effectiveDateTime: '2024-05-01',
        valueQuantity: { value: 97, system: 'http://unitsofmeasure.org', code: 'mg/dL', unit: 'mg/dL' },
      },
    },
  ],
});

/**
 * Issue #30 item 8: the files `report from-labs` reads and writes. --name cannot climb out of --out; a
 * link to a system file is never quoted back; the request file is 0600 like the PDF; a pipe is refused
 * instead of blocking the command.
 */
describe('report from-labs: names, links, modes and pipes (#30 item 8)', () => {
  const home = tmpHome('assay-from-labs-files-');
  afterAll(() => home.cleanup());
  const args = (inputs: string[], out: string, name: string) => [
    'report',
    'from-labs',
    ...inputs,
    '--dob',
    '1970-01-31',
    '--sex',
    'male',
    '--out',
    out,
    '--name',
    name,
    '--home',
    home.dir,
    '--json',
  ];

  it('--name with a path is a usage error and nothing is written outside --out', async () => {
    const input = join(home.dir, 'glucose.json');
    writeFileSync(input, glucose);
    const out = join(home.dir, 'a', 'b', 'out');
    mkdirSync(out, { recursive: true });
    for (const name of ['../../x', '../x', 'sub/x', '..', '/tmp/x', 'a\\..\\x']) {
      const r = await assay(args([input], out, name));
      expect(r.exitCode, name).toBe(2);
      expect(json<{ error: { code: string } }>(r).error.code).toBe('invalid_request');
    }
    expect(existsSync(join(home.dir, 'a', 'x.request.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'x.request.json'))).toBe(false);
    expect(readdirSync(out)).toEqual([]);
  }, 60_000);

  it('a link to a system file given as input: a usage error that quotes none of its bytes', async () => {
    const dir = join(home.dir, 'links');
    mkdirSync(dir);
    symlinkSync('/etc/passwd', join(dir, 'labs.json'));
    const head = readFileSync('/etc/passwd', 'utf8').slice(0, 6);
    for (const input of [join(dir, 'labs.json'), dir]) {
      const r = await assay(args([input], join(home.dir, 'out-links'), 'r'));
      expect(r.exitCode).toBe(2);
      const { error } = json<{ error: { code: string; message: string } }>(r);
      expect(error.message).toMatch(/labs\.json is not valid JSON/);
      expect(`${r.stdout}${r.stderr}`).not.toContain(head);
    }
  }, 60_000);

  it('writes <name>.request.json 0600, also over an older 0644 one', async () => {
    const input = join(home.dir, 'glucose-mode.json');
    writeFileSync(input, glucose);
    const out = join(home.dir, 'out-mode');
    mkdirSync(out);
    writeFileSync(join(out, 'm.request.json'), '{}', { mode: 0o644 });
    const r = await assay(args([input], out, 'm'));
    // Nothing to score from one glucose: exit 1, but the request is written.
    const body = json<{ request: string }>(r);
    expect(body.request).toBe(join(out, 'm.request.json'));
    expect(statSync(body.request).mode & 0o777).toBe(0o600);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('a pipe given or found in a folder is never read (the command does not block)', async () => {
    const dir = join(home.dir, 'pipes');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, 'p.json')]);
    const given = await assay(args([join(dir, 'p.json')], join(home.dir, 'out-pipes'), 'p'));
    expect(given.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(given).error.message).toMatch(/not a regular file/);
    writeFileSync(join(dir, 'glucose.json'), glucose);
    const folder = await assay(args([dir], join(home.dir, 'out-pipes'), 'p'));
    expect(json<{ files: Array<{ file: string }> }>(folder).files.map((f) => f.file)).toEqual([
      join(dir, 'glucose.json'),
    ]);
  }, 60_000);
});
