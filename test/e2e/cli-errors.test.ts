import { afterAll, describe, expect, it } from 'vitest';
import { tmpHome } from '../engine/support/tmp-home.js';
import { assay, assayMany, type CliResult, json } from './cli.js';

interface ErrorJson {
  error: { code: string; message: string; suggestions: string[] };
}

describe('usage errors (the built CLI: spawned, or many runs in one process)', () => {
  const home = tmpHome('assay-e2e-errors-');
  const env = { ASSAY_HOME: home.dir };
  afterAll(() => home.cleanup());

  it('an unknown flag under --json is the documented error shape, exit 2, with "did you mean"', async () => {
    const r = await assay(['lab', 'extract', '--outt', 'x', '--json'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stdout.length).toBeLessThan(1_000);
    const body = json<ErrorJson>(r);
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'suggestions']);
    expect(body.error.code).toBe('unknown_flag');
    expect(body.error.message).toContain('--outt');
    expect(body.error.suggestions).toContain('Did you mean --out?');
  });

  it('an unknown flag without --json is a few lines on stderr, not the whole help', async () => {
    const r = await assay(['lab', 'extract', '--outt', 'x'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(3);
    expect(lines[0]).toMatch(/^Error: Unknown flag .*--outt/);
    expect(r.stderr).toContain('hint: Did you mean --out?');
    expect(r.stderr).not.toContain('USAGE');
  });

  it('every other parse error honours --json too, with exit 2', async () => {
    const cases = [
      ['jobs', 'show'],
      ['jobs', 'list', '--limit', 'many'],
      ['jobs', 'list', '--state', 'bogus'],
      ['lab', 'extract', 'a.pdf', '--concurrency', '0'],
    ];
    const results = await assayMany(
      cases.map((args) => [...args, '--json']),
      env,
    );
    for (const [i, args] of cases.entries()) {
      const r = results[i] as CliResult;
      expect({ args, exitCode: r.exitCode }).toEqual({ args, exitCode: 2 });
      expect(r.stdout.length).toBeLessThan(1_000);
      const { error } = json<ErrorJson>(r);
      expect(error.code).toBe('invalid_request');
      expect(error.message.split('\n')).toHaveLength(1);
      expect(error.suggestions.length).toBeGreaterThan(0);
    }
  });

  it('a mistyped command gets "did you mean", exit 2, as text or as JSON', async () => {
    const [text, topic, asJson, extraWord, nothingNear] = (await assayMany(
      [
        ['lab', 'extrat', 'a.pdf'],
        ['jbos', 'list'],
        ['lab', 'extrat', '--json'],
        ['jobs', 'list', 'extra', '--json'],
        ['xyzzy'],
      ],
      env,
    )) as [CliResult, CliResult, CliResult, CliResult, CliResult];
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toContain('Error: No command `assay lab extrat`.');
    expect(text.stderr).toContain('hint: Did you mean `assay lab extract`?');

    expect(topic.exitCode).toBe(2);
    expect(topic.stderr).toContain('Did you mean `assay jobs list`?');

    expect(asJson.exitCode).toBe(2);
    expect(json<ErrorJson>(asJson).error).toMatchObject({
      code: 'unknown_command',
      suggestions: expect.arrayContaining(['Did you mean `assay lab extract`?']),
    });

    expect(extraWord.exitCode).toBe(2);
    expect(json<ErrorJson>(extraWord).error.message).toBe('`assay jobs list` takes no argument extra.');

    expect(nothingNear.exitCode).toBe(2);
    expect(nothingNear.stderr).not.toContain('Did you mean');
  });
});
