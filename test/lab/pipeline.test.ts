import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { type JobContext, JobRegistry } from '../../src/engine/registry.js';
import type { JobRecord } from '../../src/engine/types.js';
import { LAB_EXTRACT, labExtractKind, submitLabFile } from '../../src/lab/job/kind.js';
import { labStatusBody } from '../../src/lab/job/status-body.js';
import { closeSharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { pageFromHocr } from '../../src/lab/pipeline/ocr/hocr-page.js';
import { ocrAvailable } from '../../src/lab/pipeline/ocr/ocr.js';
import { type PipelineStage, runPipeline } from '../../src/lab/pipeline/pipeline.js';
import { viewLines } from '../../src/lab/pipeline/table/line-view.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { expectedText, type manifest as Manifest, manifest, pdfBytes, phiOf } from './fixture-files.js';

type Entry = ReturnType<typeof Manifest>[number];

/** The real lab kind, with its status changes recorded on the way to the store. */
function recordingRegistry(home: string, statuses: Map<string, string[]>): JobRegistry {
  const lab = labExtractKind({ home });
  return new JobRegistry().register({
    ...lab,
    handler: (payload, ctx) => {
      const seen: string[] = [ctx.job.status];
      statuses.set(ctx.job.id, seen);
      const recording: JobContext = {
        ...ctx,
        setStatus: async (status) => {
          seen.push(status);
          await ctx.setStatus(status);
        },
      };
      return lab.handler(payload, recording);
    },
  });
}

const submit = (engine: Engine, home: string, entry: Entry, extra: { anyLab?: boolean } = {}) =>
  submitLabFile(engine, home, {
    pdf: pdfBytes(entry.name),
    filename: entry.file,
    dateOfBirth: entry.request.dateOfBirth,
    rejectIfPHI: entry.request.rejectIfPHI,
    ...extra,
  });

describe('lab.extract through the engine, every fixture', () => {
  const home = tmpHome('assay-lab-pipeline-');
  const statuses = new Map<string, string[]>();
  const engine = Engine.open(home.dir, recordingRegistry(home.dir, statuses));
  const finished = new Map<string, JobRecord>();

  beforeAll(async () => {
    engine.startWorker({ concurrency: 2, pollMs: 20 });
    const entries = manifest();
    const jobs = [];
    for (const entry of entries) jobs.push(await submit(engine, home.dir, entry));
    const done = await engine.waitFor(jobs.map((j) => j.id));
    for (const [i, entry] of entries.entries()) finished.set(entry.name, done[i] as JobRecord);
  }, 120_000);

  afterAll(async () => {
    await engine.close(1_000);
    await closeSharedThreadPool();
    home.cleanup();
  });

  const rejections = manifest().filter((e) => ['quarantined', 'invalid_document'].includes(e.expect.status));
  it.each(rejections.map((e) => [e.name, e] as const))('%s ends as its manifest says', (name, entry) => {
    const job = finished.get(name) as JobRecord;
    const { status, ...reason } = entry.expect as Record<string, unknown>;
    expect(job).toMatchObject({ state: 'done', status });
    expect(labStatusBody(job)).toEqual({
      jobId: job.id,
      status,
      ...reason,
      rejection_detail: expect.stringMatching(/\.$/),
    });
    // The evidence is for --explain: counts and laboratory names, never a date or a name of the person.
    const explained = labStatusBody(job, { explain: true });
    expect('rejection_evidence' in explained && explained.rejection_evidence?.length).toBeGreaterThan(0);
    const said = JSON.stringify(explained);
    expect(phiOf(name).filter((phi) => said.includes(phi))).toEqual([]);
  });

  const supported = manifest().filter((e) => e.expect.status === 'completed');
  it.each(supported.map((e) => e.name))('%s completes with its lab, date and DOB verification', (name) => {
    const job = finished.get(name) as JobRecord;
    const expected = JSON.parse(expectedText(name)) as Record<string, unknown>;
    const body = labStatusBody(job);
    expect(body).toMatchObject({
      jobId: job.id,
      status: 'completed',
      labName: expected.labName,
      dateCollected: expected.dateCollected,
      verification: expected.verification,
    });
    expect('panels' in body && body.panels.length).toBeGreaterThan(0);
  });

  it('moves through the SPEC.md processing states in order', () => {
    const job = finished.get('quest-cmp-lipid') as JobRecord;
    expect(statuses.get(job.id)).toEqual(['processing_language', 'processing_phi', 'processing_extraction']);
    const spanish = finished.get('reject-spanish') as JobRecord;
    expect(statuses.get(spanish.id)).toEqual(['processing_language']);
  });

  it('rejects the PHI-heavy report under rejectIfPHI, naming kinds of PHI only', () => {
    const job = finished.get('phi-heavy-quest') as JobRecord;
    const body = labStatusBody(job);
    expect(body).toMatchObject({ status: 'rejected_phi', error: { code: 'phi_detected' } });
    expect('error' in body && body.error?.kinds).toEqual(expect.arrayContaining(['patient_name', 'ssn']));
  });

  it('fails a corrupt PDF with invalid_pdf and a fixed message', () => {
    expect(labStatusBody(finished.get('corrupt-truncated') as JobRecord)).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_pdf', message: 'The PDF is damaged or incomplete and cannot be read.' },
    });
  });

  it('OCRs the scan where tesseract is installed, else fails it with no_text_layer and what to install', async () => {
    const body = labStatusBody(finished.get('scanned-no-text') as JobRecord);
    if (await ocrAvailable()) {
      expect(body.status).not.toBe('failed');
    } else {
      expect(body).toMatchObject({ status: 'failed', error: { code: 'no_text_layer' } });
      expect('error' in body && body.error?.message).toMatch(/no text layer/);
    }
  });

  it('keeps no copy of any PDF once its job has ended', async () => {
    // The worker deletes each copy right after it commits the job's end (afterEnd).
    for (let i = 0; i < 50 && readdirSync(join(home.dir, 'uploads')).length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(join(home.dir, 'uploads'))).toEqual([]);
  });

  it('gives the same job back for the same bytes and options, a new one for other options', async () => {
    const entry = manifest().find((e) => e.name === 'reject-other-lab') as Entry;
    const again = await submit(engine, home.dir, entry);
    expect(again.id).toBe(finished.get(entry.name)?.id);
    expect(readdirSync(join(home.dir, 'uploads'))).toEqual([]);
    const anyLab = await submit(engine, home.dir, entry, { anyLab: true });
    expect(anyLab.id).not.toBe(again.id);
    const [done] = await engine.waitFor([anyLab.id]);
    expect(done).toMatchObject({ status: 'completed' });
    expect(labStatusBody(done as JobRecord)).toMatchObject({ labName: 'Cedar Valley Medical Laboratory' });
  });
});

describe('lab.extract with rejectIfPHI, alone in its home', () => {
  it('deletes every file it kept for the job', async () => {
    const home = tmpHome('assay-lab-phi-');
    const engine = Engine.open(home.dir, new JobRegistry().register(labExtractKind({ home: home.dir })));
    try {
      engine.startWorker({ pollMs: 20 });
      const entry = manifest().find((e) => e.name === 'phi-heavy-quest') as Entry;
      const job = await submit(engine, home.dir, entry);
      expect(existsSync(join(home.dir, 'uploads', `${job.id}.pdf`))).toBe(true);
      const [done] = await engine.waitFor([job.id]);
      expect(done).toMatchObject({ kind: LAB_EXTRACT, status: 'rejected_phi' });
      // The copy goes once the job's end is committed (never before: a commit that meets a locked store
      // runs the job again), so a moment after the end is visible.
      const kept = () =>
        readdirSync(home.dir, { recursive: true, withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => f.name)
          .filter((f) => !/^assay\.db(-wal|-shm|\.created)?$/.test(f) && f !== 'dob.key');
      for (let i = 0; i < 100 && kept().length > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
      // The store itself and the home's DOB key; nothing of the document.
      expect(kept()).toEqual([]);
    } finally {
      await engine.close(1_000);
      await closeSharedThreadPool();
      home.cleanup();
    }
  });
});

describe('runPipeline stages', () => {
  it('reports each stage once, in order', async () => {
    const stages: PipelineStage[] = [];
    const outcome = await runPipeline(pdfBytes('labcorp-cmp-lipid'), {}, { onStage: (s) => stages.push(s) });
    expect(outcome.status).toBe('completed');
    expect(stages).toEqual(['processing_language', 'processing_phi', 'processing_extraction']);
  });

  it('stops after the PHI stage under rejectIfPHI', async () => {
    const stages: PipelineStage[] = [];
    const outcome = await runPipeline(
      pdfBytes('quest-cbc-a1c'),
      { rejectIfPHI: true },
      { onStage: (s) => stages.push(s) },
    );
    expect(outcome.status).toBe('rejected_phi');
    expect(stages).toEqual(['processing_language', 'processing_phi']);
  });
});

describe('OCR layout from tesseract hOCR', () => {
  /** One character per entry: text, left, top, right, bottom, confidence. */
  type Char = [string, number, number, number, number, number];
  const word = (chars: Char[], wconf: number) => {
    const left = Math.min(...chars.map((c) => c[1]));
    const top = Math.min(...chars.map((c) => c[2]));
    const right = Math.max(...chars.map((c) => c[3]));
    const bottom = Math.max(...chars.map((c) => c[4]));
    return [
      `<span class='ocrx_word' id='w' title='bbox ${left} ${top} ${right} ${bottom}; x_wconf ${wconf}'>`,
      ...chars.map(
        ([t, l, tp, r, b, c]) =>
          `<span class='ocrx_cinfo' title='x_bboxes ${l} ${tp} ${r} ${b}; x_conf ${c}'>${t}</span>`,
      ),
      '</span>',
    ];
  };
  /** Letters 30 px tall standing on a baseline at y 630, 20 px apart. */
  const text = (s: string, left: number, conf = 99): Char[] =>
    [...s].map((ch, i) => [ch, left + 20 * i, 600, left + 20 * i + 18, 630, conf]);
  const hocr = (words: string[][]) =>
    [
      "<div class='ocr_page' id='page_1' title='image \"p.pgm\"; bbox 0 0 2550 3300; ppageno 0'>",
      "<span class='ocr_line' id='line_1_1' title=\"bbox 150 590 1800 640; baseline 0 -10; x_size 38; x_descenders 8; x_ascenders 8\">",
      ...words.flat(),
      '</span>',
      '</div>',
    ].join('\n');

  it('turns character boxes at 300 dpi into text items in points, lines and cells', () => {
    const page = pageFromHocr(
      hocr([word(text('GLUCOSE', 150), 96), word(text('79', 1000), 91), word(text('65-99', 1500), 88)]),
      1,
    );
    expect(page).toMatchObject({ pageNumber: 1, width: 612, height: 792 });
    expect(page.items[0]).toMatchObject({ str: 'GLUCOSE', x: 36, y: 151.2, fontSize: 9.12 });
    expect(page.lines.map((l) => l.cells.map((c) => c.text))).toEqual([['GLUCOSE', '79', '65-99']]);
  });

  it("takes a word's confidence from its characters, not tesseract's score of the word", () => {
    const page = pageFromHocr(hocr([word(text('Creatinine', 150), 0), word(text('0.69', 1000, 62), 96)]), 1);
    expect(page.items.map((i) => [i.str, i.confidence])).toEqual([
      ['Creatinine', 99],
      ['0.69', 62],
    ]);
  });

  it('counts a word read from light print turned dark (dark-fills.ts) as read with low confidence', () => {
    const turned = [{ left: 950, top: 580, right: 1200, bottom: 650 }];
    const page = pageFromHocr(
      hocr([word(text('Chloride', 150), 96), word(text('101', 1000), 96)]),
      1,
      300,
      turned,
    );
    expect(page.items.map((i) => [i.str, i.confidence])).toEqual([
      ['Chloride', 99],
      ['101', 60],
    ]);
  });

  it('splits a small raised mark off the name it is glued to, and keeps it out of the cells', () => {
    const mark: Char[] = [
      ['0', 330, 598, 340, 614, 95],
      ['1', 342, 598, 350, 614, 95],
    ];
    const page = pageFromHocr(
      hocr([word([...text('Glucose', 150), ...mark], 40), word(text('87', 1000), 96)]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['Glucose', false],
      ['01', true],
      ['87', false],
    ]);
    const [view] = viewLines(page);
    expect(view?.cells.map((c) => c.text)).toEqual(['Glucose', '87']);
    expect(view?.raised).toEqual(['01']);
  });

  it('takes a word of four capitals set high beside a name for print, not a mark ("Rh TYPE")', () => {
    // Capitals 16 px tall, 14 px above the baseline: small and high, as Labcorp's "01" above.
    const capitals = (s: string, left: number): Char[] =>
      [...s].map((ch, i) => [ch, left + 14 * i, 600, left + 14 * i + 12, 616, 95]);
    const page = pageFromHocr(
      hocr([word(text('Rh', 150), 96), word(capitals('TYPE', 200), 90), word(text('POSITIVE', 1000), 96)]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['Rh', false],
      ['TYPE', false],
      ['POSITIVE', false],
    ]);
    // Three letters are still a mark, as a site code is.
    const coded = pageFromHocr(hocr([word(text('Glucose', 150), 96), word(capitals('AMD', 300), 90)]), 1);
    expect(coded.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['Glucose', false],
      ['AMD', true],
    ]);
  });

  it('keeps a result word whole when its last letter sits high ("Ni" + a raised "l" is "Nil")', () => {
    const high: Char = ['l', 1040, 598, 1048, 614, 95];
    const page = pageFromHocr(
      hocr([
        word(text('PLATELETS', 150), 96),
        word([...text('Ni', 1000), high], 90),
        word(text('Glucose', 1300), 96),
        word([['l', 1440, 598, 1448, 614, 95]], 90),
      ]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['PLATELETS', false],
      ['Nil', false],
      ['Glucose', false],
      ['l', true],
    ]);
  });

  it('reads a word of letters set high a column away from the name as a cell, not a mark; "Ni" is "Nil"', () => {
    const high = (s: string, left: number): Char[] =>
      [...s].map((ch, i) => [ch, left + 14 * i, 598, left + 14 * i + 12, 614, 95] as Char);
    const page = pageFromHocr(hocr([word(text('HEMOPARASITES', 150), 96), word(high('Ni', 1000), 90)]), 1);
    expect(page.items.map((i) => [i.str, i.raised === true, i.repaired === true])).toEqual([
      ['HEMOPARASITES', false, false],
      ['Nil', false, true],
    ]);
    // Glued to the name (a space's distance), the same high letters are a mark.
    const marked = pageFromHocr(hocr([word(text('Glucose', 150), 96), word(high('ab', 300), 90)]), 1);
    expect(marked.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['Glucose', false],
      ['ab', true],
    ]);
  });

  it('reads a number set high a column away from the name as a cell, not a mark; a lone digit stays a mark', () => {
    // A tick drawn beside a typewritten value swells its line: the value sits above the line's baseline.
    const high = (s: string, left: number): Char[] =>
      [...s].map((ch, i) => [ch, left + 14 * i, 598, left + 14 * i + 12, 614, 95] as Char);
    const read = (value: string) =>
      pageFromHocr(hocr([word(text('HAEMOGLOBIN', 150), 96), word(high(value, 1000), 90)]), 1).items.map(
        (i) => [i.str, i.raised === true],
      );
    expect(read('14.7')).toEqual([
      ['HAEMOGLOBIN', false],
      ['14.7', false],
    ]);
    expect(read('268')).toEqual([
      ['HAEMOGLOBIN', false],
      ['268', false],
    ]);
    expect(read('2')).toEqual([
      ['HAEMOGLOBIN', false],
      ['2', true],
    ]);
  });

  it("splits a flag set a space after its value from the value, never a word's own last letter", () => {
    // Quest's "120 H": tesseract reads one word when the flag sits close; a space is ~0.3 font sizes.
    const spaced = (s: string, flag: string, left: number): Char[] => [
      ...text(s, left),
      [flag, left + 20 * s.length + 12, 600, left + 20 * s.length + 30, 630, 99],
    ];
    const page = pageFromHocr(
      hocr([
        word(text('GLUCOSE', 150), 96),
        word(spaced('120', 'H', 1000), 96),
        word(text('NORMAL', 1300), 96),
      ]),
      1,
    );
    expect(page.lines[0]?.cells.map((c) => c.text)).toEqual(['GLUCOSE', '120 H', 'NORMAL']);
    expect(page.items.map((i) => i.str)).toEqual(['GLUCOSE', '120', 'H', 'NORMAL']);
  });

  it('keeps the dash of a range printed with spaces, which alone would be dropped as a speck', () => {
    const page = pageFromHocr(
      hocr([
        word(text('EOSINOPHILS', 150), 96),
        word(text('36', 1000), 96),
        word(text('20', 1500), 90),
        word(text('-', 1560), 66),
        word(text('§00', 1600), 82),
      ]),
      1,
    );
    expect(page.lines[0]?.cells.map((c) => c.text)).toEqual(['EOSINOPHILS', '36', '20 - 500']);
  });

  it('drops a tick drawn beside a value, read as letters twice as tall as the print, but not a flag', () => {
    const tall = (s: string, left: number): Char[] =>
      [...s].map((ch, i) => [ch, left + 30 * i, 540, left + 30 * i + 28, 660, 95] as Char);
    const read = (mark: string) =>
      pageFromHocr(
        hocr([
          word(text('HAEMOGLOBIN', 150), 96),
          word(text('14.7', 1000), 96),
          word(tall(mark, 1100), 95),
          word(text('g/dL', 1300), 96),
        ]),
        1,
      ).items.map((i) => i.str);
    expect(read('WA')).toEqual(['HAEMOGLOBIN', '14.7', 'g/dL']);
    // As tall as the print, the same letters are read.
    expect(
      pageFromHocr(
        hocr([word(text('HAEMOGLOBIN', 150), 96), word(text('14.7', 1000), 96), word(text('H', 1100), 95)]),
        1,
      ).items.map((i) => i.str),
    ).toEqual(['HAEMOGLOBIN', '14.7', 'H']);
  });

  it("keeps a name's own words as read ('Vitamin D3'), and repairs the value a column away ('O2')", () => {
    const page = pageFromHocr(
      hocr([word(text('Vitamin', 150), 96), word(text('D3', 300), 96), word(text('O2', 1000), 96)]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.repaired === true])).toEqual([
      ['Vitamin', false],
      ['D3', false],
      ['02', true],
    ]);
  });

  it("reads a typewriter's dash read as an equals sign between two bounds as a dash", () => {
    const page = pageFromHocr(
      hocr([
        word(text('HAEMOGLOBIN', 150), 96),
        word(text('14.7', 1000), 96),
        word(text('13.0', 1500), 90),
        word(text('=', 1600), 66),
        word(text('17.0', 1640), 82),
      ]),
      1,
    );
    expect(page.lines[0]?.cells.map((c) => c.text)).toEqual(['HAEMOGLOBIN', '14.7', '13.0 - 17.0']);
  });

  it('drops a dash that joins no two numbers', () => {
    const page = pageFromHocr(
      hocr([word(text('Method', 150), 96), word(text('-', 300), 90), word(text('Calculated', 340), 90)]),
      1,
    );
    expect(page.items.map((i) => i.str)).toEqual(['Method', 'Calculated']);
  });

  it("writes a power of ten's raised exponent as the superscript it is, and puts right one no count has", () => {
    // "x10" on the baseline, the exponent 16 px tall with its bottom 12 px above it.
    const power = (exponent: string, left: number, rest: string): Char[] => [
      ...text('x10', left),
      ...[...exponent].map((d, i): Char => [d, left + 60 + 14 * i, 600, left + 72 + 14 * i, 616, 98]),
      ...text(rest, left + 60 + 14 * exponent.length),
    ];
    const read = (exponent: string, rest: string) =>
      pageFromHocr(hocr([word(text('RBC', 150), 96), word(power(exponent, 1000, rest), 96)]), 1).items.map(
        (i) => i.str,
      );
    expect(read('9', '/L')).toEqual(['RBC', 'x10⁹/L']);
    expect(read('3', '/ul')).toEqual(['RBC', 'x10³/ul']);
    // 10²² is no count's unit; one digit off, 10¹² is.
    expect(read('22', '/l')).toEqual(['RBC', 'x10¹²/l']);
    // On the baseline, the digits are read as printed.
    expect(
      pageFromHocr(hocr([word(text('RBC', 150), 96), word(text('x109/L', 1000), 96)]), 1).items.map(
        (i) => i.str,
      ),
    ).toEqual(['RBC', 'x109/L']);
  });

  it('drops an underline read as underscores glued to a word', () => {
    const page = pageFromHocr(hocr([word(text('THEODORE', 150), 96), word(text('R-__', 400), 80)]), 1);
    expect(page.items.map((i) => i.str)).toEqual(['THEODORE', 'R']);
  });

  it('keeps a comparator, which sits above the baseline by its shape, with its bound', () => {
    const page = pageFromHocr(
      hocr([word([['&lt;', 1000, 608, 1014, 620, 95], ...text('1000', 1020)], 90)]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.raised === true])).toEqual([['<1000', false]]);
  });

  it("splits a raised mark off the number of a name ('Beta-amyloid 42' + mark), never off a value", () => {
    const mark: Char[] = [
      ['5', 560, 598, 568, 614, 95],
      ['%', 570, 598, 578, 614, 95],
    ];
    const page = pageFromHocr(
      hocr([
        word(text('Beta-amyloid', 150), 96),
        word([...text('42', 400), ...mark], 90),
        word([...text('42', 1000), ['5', 1042, 598, 1050, 614, 95]], 90),
      ]),
      1,
    );
    expect(page.items.map((i) => [i.str, i.raised === true])).toEqual([
      ['Beta-amyloid', false],
      ['42', false],
      ['5%', true],
      ['425', false],
    ]);
  });

  it('never splits a raised character off a number or a unit', () => {
    const page = pageFromHocr(hocr([word([...text('1.73m', 1000), ['2', 1100, 598, 1108, 614, 95]], 90)]), 1);
    expect(page.items.map((i) => i.str)).toEqual(['1.73m2']);
  });
});

describe('lab.extract past its time limit', () => {
  it('fails with JobTimeout on its last attempt and still deletes the kept copy', async () => {
    const home = tmpHome('assay-lab-timeout-');
    const engine = Engine.open(
      home.dir,
      new JobRegistry().register({ ...labExtractKind({ home: home.dir }), timeoutMs: 1, maxAttempts: 1 }),
    );
    try {
      engine.startWorker({ pollMs: 20 });
      const job = await submitLabFile(engine, home.dir, {
        pdf: pdfBytes('quest-annual-male'),
        filename: 'slow.pdf',
      });
      const [done] = await engine.waitFor([job.id]);
      expect(done).toMatchObject({ state: 'failed', errorType: 'JobTimeout' });
      const kept = join(home.dir, 'uploads', `${job.id}.pdf`);
      for (let i = 0; i < 50 && existsSync(kept); i++) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(kept)).toBe(false);
    } finally {
      await engine.close(1_000);
      await closeSharedThreadPool();
      home.cleanup();
    }
  });
});
