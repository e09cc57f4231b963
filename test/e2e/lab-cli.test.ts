import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR } from '../../fixtures/labs/generate.js';
import type { LabStatusBody } from '../../src/lab/job/status-body.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { manifest, phiOf } from '../lab/fixture-files.js';
import { assay, assayMany, type CliResult, json } from './cli.js';

interface ExtractJson {
  files: Array<{ file: string; output: string | null; result: LabStatusBody }>;
}

const pdf = (name: string) => join(FIXTURE_DIR, `${name}.pdf`);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name));
}

describe('assay lab extract / status (real CLI processes)', () => {
  const home = tmpHome('assay-e2e-lab-');
  const out = tmpHome('assay-e2e-lab-out-');
  const env = { ASSAY_HOME: home.dir };
  afterAll(() => {
    home.cleanup();
    out.cleanup();
  });

  // What `lab extract` refuses before any work, run many to one child process (test/e2e/cli.ts, assayMany):
  // the spawned runs above and below keep the exit codes of a process of its own.
  const REFUSED = {
    bothFormats: ['lab', 'extract', pdf('quest-cbc-a1c'), '--format', 'fhir', '--format', 'csv'],
    xml: ['lab', 'extract', pdf('quest-cbc-a1c'), '--format', 'xml'],
    badDob: ['lab', 'extract', pdf('quest-cmp-lipid'), '--dob', '1990-02-30'],
    watchAndFiles: ['lab', 'extract', pdf('quest-cmp-lipid'), '--watch', home.dir],
  };
  let refusedRuns: Promise<CliResult[]> | undefined;
  const refused = async (name: keyof typeof REFUSED): Promise<CliResult> => {
    const names = Object.keys(REFUSED) as Array<keyof typeof REFUSED>;
    refusedRuns ??= assayMany(
      names.map((n) => REFUSED[n]),
      env,
    );
    return (await refusedRuns)[names.indexOf(name)] as CliResult;
  };

  it('extracts a batch, writes <name>.json per PDF, and exits 1 when any was rejected', async () => {
    const r = await assay(
      [
        'lab',
        'extract',
        pdf('quest-cmp-lipid'),
        pdf('labcorp-cmp-lipid'),
        pdf('reject-spanish'),
        '--out',
        out.dir,
        '--dob',
        '1968-04-12',
        '--json',
      ],
      env,
    );
    expect(r.exitCode).toBe(1);
    const { files } = json<ExtractJson>(r);
    expect(files.map((f) => f.result.status)).toEqual(['completed', 'completed', 'quarantined']);
    expect(files[0]?.result).toMatchObject({
      labName: 'Quest Diagnostics',
      verification: { dobFound: true, dobMatches: true },
    });
    expect(files[1]?.result).toMatchObject({ labName: 'Labcorp', verification: { dobMatches: false } });
    expect(files[2]?.result).toMatchObject({ rejection_reason: 'non_english_document' });
    for (const f of files) {
      expect(f.output).toBe(
        join(
          out.dir,
          `${f.file
            .split('/')
            .pop()
            ?.replace(/\.pdf$/, '')}.json`,
        ),
      );
      expect(JSON.parse(readFileSync(f.output as string, 'utf8'))).toEqual(f.result);
    }
  });

  it('writes FHIR and CSV beside the JSON with --format, and prints one document without --out', async () => {
    const dir = join(out.dir, 'formats');
    const r = await assay(
      [
        'lab',
        'extract',
        pdf('quest-cbc-a1c'),
        pdf('reject-spanish'),
        '--out',
        dir,
        '--format',
        'json,fhir,csv',
      ],
      env,
    );
    expect(r.exitCode).toBe(1);
    const written = readdirSync(dir).sort();
    // A quarantined PDF has its status body but no results to put in FHIR or CSV.
    expect(written).toEqual([
      'quest-cbc-a1c.csv',
      'quest-cbc-a1c.fhir.json',
      'quest-cbc-a1c.json',
      'reject-spanish.json',
    ]);
    const bundle = JSON.parse(readFileSync(join(dir, 'quest-cbc-a1c.fhir.json'), 'utf8')) as {
      resourceType: string;
      entry: Array<{ resource: { resourceType: string; subject?: unknown } }>;
    };
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry.filter((e) => e.resource.resourceType === 'Observation')).toHaveLength(21);

    // One document on stdout, CSV and FHIR: two runs in one child process.
    const [csv, fhir] = (await assayMany(
      [
        ['lab', 'extract', pdf('quest-cbc-a1c'), '--format', 'csv'],
        ['lab', 'extract', pdf('quest-cbc-a1c'), '--format', 'fhir', '--subject', 'Patient/p1'],
      ],
      env,
    )) as [CliResult, CliResult];
    expect(csv.exitCode).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^file,panel,panel_loinc,biomarker,value/);
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(22);
    expect(csv.stderr).toContain('1 of 1 PDFs completed.');
    expect(fhir.exitCode).toBe(0);
    expect(JSON.parse(fhir.stdout).entry[1].resource.subject).toEqual({ reference: 'Patient/p1' });

    const both = await refused('bothFormats');
    expect(both.exitCode).toBe(2);
    const bad = await refused('xml');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/Unknown output format "xml"/);
  });

  it('exits 0 when every PDF completed, and prints a summary table without --json', async () => {
    const r = await assay(['lab', 'extract', pdf('quest-cbc-a1c'), pdf('labcorp-a1c-thyroid-lipid')], env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/FILE\s+STATUS\s+PANELS\s+RESULTS/);
    expect(r.stdout).toMatch(/quest-cbc-a1c\.pdf\s+completed\s+\d+\s+21/);
    expect(r.stdout).toContain('2 of 2 PDFs completed.');
  });

  it('takes folders, and reports failures with their error code', async () => {
    const r = await assay(['lab', 'extract', FIXTURE_DIR, '--json'], env);
    expect(r.exitCode).toBe(1);
    const byName = new Map(json<ExtractJson>(r).files.map((f) => [f.file.split('/').pop(), f.result]));
    expect(byName.size).toBe(manifest().length);
    expect(byName.get('corrupt-truncated.pdf')).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_pdf' },
    });
    expect(byName.get('reject-other-lab.pdf')).toMatchObject({
      status: 'invalid_document',
      rejection_reason: 'non_supported_lab',
      detected_lab: 'Cedar Valley Medical Laboratory',
    });
  });

  it('`lab status` shows what another process stored; unknown ids exit 3', async () => {
    const run = json<ExtractJson>(await assay(['lab', 'extract', pdf('reject-two-visits'), '--json'], env));
    const body = run.files[0]?.result as LabStatusBody;
    // Read back by other processes: one spawned, then three run many to one child process.
    const status = await assay(['lab', 'status', body.jobId, '--json'], env);
    expect(status.exitCode).toBe(0);
    expect(json(status)).toEqual({
      jobId: body.jobId,
      status: 'invalid_document',
      rejection_reason: 'multiple_collection_dates',
      rejection_detail: expect.stringContaining('collection dates'),
    });
    const [text, explained, extract] = (await assayMany(
      [
        ['lab', 'status', body.jobId],
        ['lab', 'status', body.jobId, '--explain', '--json'],
        ['lab', 'extract', pdf('reject-other-lab'), '--explain'],
      ],
      env,
    )) as [CliResult, CliResult, CliResult];
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/reason\s+multiple_collection_dates/);
    expect(text.stdout).toMatch(/why\s+The document states 2 different collection dates/);
    expect(json<LabStatusBody & { rejection_evidence: string[] }>(explained).rejection_evidence).toContain(
      'collection dates stated: 2 distinct',
    );
    // lab extract says why beside the table, and --explain lists the evidence.
    expect(extract.stdout).toContain(
      'reject-other-lab.pdf: The performing laboratory is Cedar Valley Medical Laboratory, not Quest Diagnostics or Labcorp',
    );
    expect(extract.stdout).toMatch(/^\s+vendor signatures: none$/m);
    // Exit 3 from a process of its own.
    const missing = await assay(['lab', 'status', '00000000-0000-0000-0000-000000000000', '--json'], env);
    expect(missing.exitCode).toBe(3);
    expect(json(missing)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('rejects a malformed --dob with exit 2, before any work', async () => {
    const r = await refused('badDob');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/YYYY-MM-DD/);
  });

  it('refuses PDF files given with --watch (exit 2) instead of ignoring them', async () => {
    const r = await refused('watchAndFiles');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not both/);
  });

  it('rejects under --reject-if-phi, and leaves no PHI in output, stdout, stderr or the home', async () => {
    const phiHome = tmpHome('assay-e2e-lab-phi-');
    try {
      const e = { ASSAY_HOME: phiHome.dir };
      const rejected = await assay(
        ['lab', 'extract', pdf('phi-heavy-quest'), '--reject-if-phi', '--dob', '1991-02-14', '--json'],
        e,
      );
      expect(rejected.exitCode).toBe(1);
      expect(json<ExtractJson>(rejected).files[0]?.result).toMatchObject({ status: 'rejected_phi' });
      const redacted = await assay(
        ['lab', 'extract', pdf('phi-heavy-quest'), '--dob', '1991-02-14', '--out', join(phiHome.dir, 'out')],
        e,
      );
      expect(redacted.exitCode).toBe(0);
      const texts = [
        String(rejected.stdout),
        String(rejected.stderr),
        String(redacted.stdout),
        String(redacted.stderr),
      ];
      const files = filesUnder(phiHome.dir).map((f) => readFileSync(f));
      for (const phi of phiOf('phi-heavy-quest')) {
        for (const t of texts) expect(t).not.toContain(phi);
        for (const bytes of files) expect(bytes.includes(Buffer.from(phi))).toBe(false);
      }
    } finally {
      phiHome.cleanup();
    }
  });

  it('--watch waits for a PDF written in slow chunks to end, and skips what is no regular file', async () => {
    const dir = tmpHome('assay-e2e-lab-watch-chunks-');
    const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
    const watcher = execa(process.execPath, [bin, 'lab', 'extract', '--watch', dir.dir], {
      env: { ...env, NO_COLOR: '1', ASSAY_WATCH_STABLE_MS: '300' },
      reject: false,
    });
    let said = '';
    watcher.stderr?.on('data', (d: Buffer) => {
      said += d.toString();
    });
    const waitFor = async (test: () => boolean) => {
      for (let i = 0; i < 300 && !test(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(test()).toBe(true);
    };
    try {
      await waitFor(() => said.includes('Watching'));
      // A FIFO would block a reader forever; a link out of the folder is not the folder's.
      execFileSync('mkfifo', [join(dir.dir, 'pipe.pdf')]);
      symlinkSync(pdf('quest-cmp-lipid'), join(dir.dir, 'link.pdf'));
      // Three chunks, each pause well past the 300 ms the file must hold still.
      const bytes = readFileSync(pdf('labcorp-cmp-lipid'));
      const third = Math.ceil(bytes.length / 3);
      const target = join(dir.dir, 'slow.pdf');
      for (let i = 0; i < 3; i++) {
        appendFileSync(target, bytes.subarray(i * third, (i + 1) * third));
        if (i < 2) await new Promise((r) => setTimeout(r, 1_200));
      }
      await waitFor(() => existsSync(join(dir.dir, 'results', 'slow.json')));
      const body = JSON.parse(readFileSync(join(dir.dir, 'results', 'slow.json'), 'utf8')) as LabStatusBody;
      expect(body.status).toBe('completed');
      expect(said).toContain('slow.pdf: not a whole PDF yet');
      expect(said).toMatch(/pipe\.pdf: not a regular file/);
      expect(said).toMatch(/link\.pdf: not a regular file/);
      expect(existsSync(join(dir.dir, 'results', 'link.json'))).toBe(false);
      watcher.kill('SIGINT');
      expect((await watcher).exitCode).toBe(130);
    } finally {
      watcher.kill('SIGKILL');
      dir.cleanup();
    }
  }, 60_000);

  it('--watch picks up PDFs dropped into a folder, skips done ones after a restart, stops on Ctrl-C with 130', async () => {
    const dir = tmpHome('assay-e2e-lab-watch-');
    const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
    const watch = () =>
      execa(process.execPath, [bin, 'lab', 'extract', '--watch', dir.dir], {
        env: { ...env, NO_COLOR: '1' },
        reject: false,
      });
    const waitFor = async (test: () => boolean) => {
      for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(test()).toBe(true);
    };
    try {
      copyFileSync(pdf('quest-cmp-lipid'), join(dir.dir, 'a.pdf'));
      const first = watch();
      await waitFor(() => existsSync(join(dir.dir, 'results', 'a.json')));
      copyFileSync(pdf('reject-spanish'), join(dir.dir, 'b.pdf'));
      await waitFor(() => existsSync(join(dir.dir, 'results', 'b.json')));
      first.kill('SIGINT');
      const ended = await first;
      // Interrupted, as a shell counts it (128 + SIGINT), with what it did.
      expect(ended.exitCode).toBe(130);
      expect(String(ended.stdout)).toMatch(/a\.pdf: completed[\s\S]*b\.pdf: quarantined/);
      expect(String(ended.stderr)).toContain('Stopped (SIGINT): 2 PDFs extracted; 0 unfinished');

      const second = watch();
      let said = '';
      second.stderr?.on('data', (d: Buffer) => {
        said += d.toString();
      });
      // Stop it only once it has read the folder (it says so), however slow its start on a busy machine.
      await waitFor(() => said.includes('Watching'));
      await new Promise((r) => setTimeout(r, 500));
      second.kill('SIGTERM');
      const again = await second;
      expect(again.exitCode).toBe(143);
      expect(String(again.stdout)).not.toMatch(/a\.pdf|b\.pdf/);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
