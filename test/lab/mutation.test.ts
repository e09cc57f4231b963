/**
 * Hostile input: 100 PDFs made from the fixtures by a fixed-seed generator (bytes flipped, the file cut
 * short, chunks deleted) go through the real engine. Every one must end in a terminal state, either a
 * SPEC.md outcome or a failure with a known code and a fixed message; none may crash the process or hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { JobRegistry } from '../../src/engine/registry.js';
import type { JobRecord } from '../../src/engine/types.js';
import { labExtractKind, submitLabFile } from '../../src/lab/job/kind.js';
import { closeSharedThreadPool } from '../../src/lab/job/thread-pool.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { pdfBytes } from './fixture-files.js';

const COUNT = 100;
const SOURCES = [
  'quest-cmp-lipid',
  'labcorp-cmp-lipid',
  'quest-annual-male',
  'labcorp-a1c-thyroid-lipid',
  'reject-other-lab',
];

/** mulberry32: a tiny deterministic PRNG, so a failure can be replayed from its index. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = 'flip' | 'truncate' | 'delete-chunk';

function mutate(source: Uint8Array, kind: Mutation, random: () => number): Uint8Array {
  const at = (n: number) => Math.floor(random() * n);
  if (kind === 'truncate') return source.slice(0, at(source.length));
  if (kind === 'delete-chunk') {
    const start = at(source.length);
    const end = Math.min(source.length, start + 1 + at(4096));
    return Uint8Array.from([...source.subarray(0, start), ...source.subarray(end)]);
  }
  const out = source.slice();
  const flips = 1 + at(64);
  for (let i = 0; i < flips; i++) out[at(out.length)] = at(256);
  return out;
}

const KNOWN_FAILURES = new Set(['invalid_pdf', 'no_text_layer', 'internal_error']);
const OUTCOMES = new Set(['completed', 'quarantined', 'invalid_document', 'rejected_phi']);

describe(`${COUNT} mutated PDFs`, () => {
  const home = tmpHome('assay-lab-mutation-');
  const engine = Engine.open(home.dir, new JobRegistry().register(labExtractKind({ home: home.dir })));
  const cases: Array<{ index: number; source: string; kind: Mutation; job: JobRecord }> = [];

  beforeAll(async () => {
    engine.startWorker({ concurrency: 2, pollMs: 20 });
    const random = prng(20250314);
    const kinds: Mutation[] = ['flip', 'truncate', 'delete-chunk'];
    const submitted = [];
    for (let index = 0; index < COUNT; index++) {
      const source = SOURCES[index % SOURCES.length] as string;
      const kind = kinds[index % kinds.length] as Mutation;
      const pdf = mutate(pdfBytes(source), kind, random);
      const job = await submitLabFile(engine, home.dir, { pdf, filename: `mutant-${index}.pdf` });
      submitted.push({ index, source, kind, job });
    }
    const done = await engine.waitFor(submitted.map((s) => s.job.id));
    for (const [i, s] of submitted.entries()) cases.push({ ...s, job: done[i] as JobRecord });
  }, 300_000);

  afterAll(async () => {
    await engine.close(1_000);
    await closeSharedThreadPool();
    home.cleanup();
  });

  it('each ends in a terminal state: a SPEC.md outcome or a known failure with a fixed message', () => {
    // Identical mutants share a job (same bytes, same key); every submission still has its answer.
    expect(cases).toHaveLength(COUNT);
    for (const c of cases) {
      const summary = {
        index: c.index,
        source: c.source,
        kind: c.kind,
        state: c.job.state,
        status: c.job.status,
        error: c.job.errorType,
      };
      if (c.job.state === 'done') expect(OUTCOMES.has(c.job.status), JSON.stringify(summary)).toBe(true);
      else {
        expect(c.job.state, JSON.stringify(summary)).toBe('failed');
        expect(KNOWN_FAILURES.has(c.job.errorType ?? ''), JSON.stringify(summary)).toBe(true);
        expect(c.job.errorMessage).toMatch(/^[A-Z][^\n]*\.$/);
      }
    }
  });

  it('none hit the time limit or took a thread down', () => {
    const slow = cases.filter((c) =>
      ['JobTimeout', 'thread_crashed', 'WorkerLost'].includes(c.job.errorType ?? ''),
    );
    expect(slow.map((c) => c.index)).toEqual([]);
  });

  it('exercises both outcomes: some mutants still parse, some are refused', () => {
    const states = new Set(cases.map((c) => c.job.state));
    expect(states).toEqual(new Set(['done', 'failed']));
  });
});
