import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/terminology/llm.js';
import { LEXICAL_THRESHOLD, matchLoinc, matchLoincWithLlm } from '../../src/terminology/loinc-match.js';
import { normaliseName } from '../../src/terminology/normalise-name.js';
import type { LlmClient, LoincMatchType } from '../../src/terminology/types.js';
import pairs from './loinc-pairs.json' with { type: 'json' };

interface Pair {
  name: string;
  unit: string | null;
  panel: string | null;
  specimen?: string;
  code: string | null;
  type: LoincMatchType;
}

const PAIRS = pairs as Pair[];

describe('matchLoinc on printed Quest and Labcorp rows', () => {
  it('has a large, varied set of expectations', () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(220);
    const types = new Set(PAIRS.map((p) => p.type));
    expect([...types].sort()).toEqual(['biomarker_only', 'exact', 'llm_fuzzy', 'not_found']);
  });

  it.each(PAIRS.map((p) => [`${p.name} [${p.unit ?? '-'}] ${p.panel ?? ''}`.trim(), p] as const))(
    '%s',
    (_label, p) => {
      const match = matchLoinc(p.name, { unit: p.unit, panel: p.panel, specimen: p.specimen });
      expect({ code: match.loincCode, type: match.loincMatchType }).toEqual({ code: p.code, type: p.type });
      if (p.type === 'llm_fuzzy') {
        expect(match.loincMatcher).toBe('lexical');
        expect(match.score).toBeGreaterThanOrEqual(LEXICAL_THRESHOLD);
        expect(match.score).toBeLessThanOrEqual(1);
      }
      if (p.code) expect(match.longName).toMatch(/\S/);
    },
  );
});

describe('ambiguous names resolved by context', () => {
  const cases: Array<[string, string | null, string | null, string]> = [
    ['GLUCOSE', 'mg/dL', null, '2345-7'],
    ['GLUCOSE', 'mg/dL', 'URINALYSIS, COMPLETE', '5792-7'],
    // A dipstick row printed without a unit is still the urinalysis panel's test-strip code.
    ['GLUCOSE', null, 'URINALYSIS, COMPLETE', '5792-7'],
    ['KETONES', null, 'URINALYSIS, COMPLETE', '5797-6'],
    ['BACTERIA', null, 'URINALYSIS, COMPLETE', '5769-5'],
    ['GLUCOSE QUALITATIVE, URINE', null, 'URINALYSIS, COMPLETE', '25428-4'],
    ['LDL-CHOLESTEROL', 'mg/dL (calc)', 'LIPID PANEL', '13457-7'],
    ['LDL-CHOLESTEROL', 'mg/dL', 'LDL CHOLESTEROL, DIRECT', '18262-6'],
    ['NEUTROPHILS', '%', null, '770-8'],
    ['NEUTROPHILS', 'x10E3/uL', null, '751-8'],
    ['PROTEIN', 'g/dL', null, '2885-2'],
    ['PROTEIN', 'mg/dL', 'URINALYSIS', '5804-0'],
    ['CREATININE', 'mg/dL', null, '2160-0'],
    ['CREATININE', 'mg/dL', 'MICROALBUMIN/CREATININE RATIO, RANDOM URINE', '2161-8'],
    ['WBC', 'x10E3/uL', null, '6690-2'],
    ['WBC', '/HPF', 'URINALYSIS, MICROSCOPIC', '5821-4'],
    ['VITAMIN D,25-OH,TOTAL,IA', 'ng/mL', null, '62292-8'],
    ['25-OH VITAMIN D3', 'ng/mL', null, '1989-3'],
    ['25-HYDROXYVITAMIN D', 'nmol/L', null, '14635-7'],
  ];
  it.each(cases)('%s [%s] %s -> %s', (name, unit, panel, code) => {
    expect(matchLoinc(name, { unit, panel })).toMatchObject({ loincCode: code, loincMatchType: 'exact' });
  });
});

describe('names as laboratories in India and Pakistan print them', () => {
  const cases: Array<[string, string | null, string]> = [
    // Dotted initials are the abbreviation, with or without spaces and a closing stop.
    ['M.C.H.C.', 'g/dl', '786-4'],
    ['M.C.V.', 'fl', '787-2'],
    ['R.D.W.', '%', '788-0'],
    ['H.C.T.', '%', '4544-3'],
    ['W.B.C.Count', '/ul', '6690-2'],
    ['R.B.C Count', 'million/ul', '789-8'],
    ['Total W. B. C.', '/cumm', '6690-2'],
    ['Total R.B.C.', 'mill/cumm', '789-8'],
    ['TLC', 'cells/cumm', '6690-2'],
    ['Polymorphs', '%', '770-8'],
    // The specimen printed before a name the catalogue lists without it.
    ['SERUM GLOBULIN', 'gm/dl', '10834-0'],
    ['Serum Albumin', 'g/dL', '1751-7'],
    // A word on how it was measured, in brackets after the name.
    ['CRP (Quantitative)', 'mg/L', '1988-5'],
  ];
  it.each(cases)('%s [%s] -> %s', (name, unit, code) => {
    expect(matchLoinc(name, { unit })).toMatchObject({ loincCode: code });
  });

  it('keeps single initials and slashes as they are ("T. Bilirubin" is no "TB", "A/G" no "AG")', () => {
    expect(normaliseName('T. Bilirubin')).toBe('t bilirubin');
    expect(normaliseName('A/G Ratio')).toBe('a g ratio');
    expect(normaliseName('M.C.H.C.')).toBe('mchc');
  });
});

describe('the printed result chooses between presence and amount (loinc.org/24357-6)', () => {
  const cases: Array<[string, string | null, string, string, string]> = [
    ['GLUCOSE', null, 'URINALYSIS, COMPLETE', 'NEGATIVE', '25428-4'],
    ['Protein', null, 'Urinalysis, Routine', 'Trace', '20454-5'],
    ['Ketones', null, 'Urinalysis, Routine', '1+', '2514-8'],
    ['GLUCOSE', null, 'URINALYSIS, COMPLETE', '100', '5792-7'],
    ['PROTEIN', 'mg/dL', 'URINALYSIS', '30', '5804-0'],
    // A unit outweighs the word: NONE SEEN per high-power field is still a count.
    ['BACTERIA', '/HPF', 'URINALYSIS, MICROSCOPIC', 'NONE SEEN', '5769-5'],
    ['Bacteria', null, 'Urinalysis, Routine', 'Few', '25145-4'],
    // One code only: a word result does not push a blood test away from it.
    ['GLUCOSE', 'mg/dL', 'COMPREHENSIVE METABOLIC PANEL', 'SEE NOTE', '2345-7'],
  ];
  it.each(cases)('%s [%s] %s = %s -> %s', (name, unit, panel, value, code) => {
    expect(matchLoinc(name, { unit, panel, value }).loincCode).toBe(code);
  });
});

/** A stand-in for an OpenAI-compatible endpoint: answers every chat completion with `reply`. */
async function startFakeLlm(
  reply: () => string,
): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      requests.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: reply() } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/v1`, requests };
}

describe('matchLoincWithLlm', () => {
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let nextReply = '';
  let llm: LlmClient;

  beforeAll(async () => {
    fake = await startFakeLlm(() => nextReply);
    const client = createLlmClient({ ASSAY_LLM_URL: fake.url, ASSAY_LLM_MODEL: 'test-model' });
    if (!client) throw new Error('no LLM client');
    llm = client;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
  });

  it('does not ask the LLM when the catalogue knows the name', async () => {
    const before = fake.requests.length;
    const match = await matchLoincWithLlm('HEMOGLOBIN A1c', { unit: '%' }, llm);
    expect(match).toMatchObject({ loincCode: '4548-4', loincMatchType: 'exact' });
    expect(fake.requests.length).toBe(before);
  });

  it('takes a catalogue code the LLM picks for an unknown name', async () => {
    nextReply = '{"code": "2085-9", "confidence": 0.9}';
    const match = await matchLoincWithLlm('GOOD CHOLESTEROL', { unit: 'mg/dL' }, llm);
    expect(match).toEqual({
      loincCode: '2085-9',
      loincMatchType: 'llm_fuzzy',
      loincMatcher: 'llm',
      score: 0.9,
      longName: 'Cholesterol in HDL [Mass/volume] in Serum or Plasma',
    });
    const sent = JSON.parse(fake.requests.at(-1) ?? '{}') as {
      model: string;
      messages: { content: string }[];
    };
    expect(sent.model).toBe('test-model');
    expect(sent.messages[1]?.content).toContain('Test name: GOOD CHOLESTEROL');
  });

  it('reads a code out of a prose answer', async () => {
    nextReply = 'The best match is LOINC 1742-6 (ALT).';
    const match = await matchLoincWithLlm('LIVER ENZYME SGPT-LIKE', undefined, llm);
    expect(match).toMatchObject({ loincCode: '1742-6', loincMatcher: 'llm', score: 0.5 });
  });

  it('ignores a code with a wrong check digit', async () => {
    nextReply = '{"code": "2085-8", "confidence": 0.99}';
    const match = await matchLoincWithLlm('GOOD CHOLESTEROL', undefined, llm);
    expect(match.loincMatcher).not.toBe('llm');
  });

  it('ignores a valid-looking code that is not in the catalogue', async () => {
    nextReply = '{"code": "99999-9", "confidence": 0.99}';
    const match = await matchLoincWithLlm('MADE UP ANALYTE XYZ', undefined, llm);
    expect(match).toEqual({ loincCode: null, loincMatchType: 'not_found' });
  });

  it('keeps the offline answer when the LLM says none fits', async () => {
    nextReply = '{"code": null}';
    expect(await matchLoincWithLlm('SPECIMEN COMMENTS', undefined, llm)).toEqual({
      loincCode: null,
      loincMatchType: 'not_found',
    });
  });

  it('keeps the offline answer when the endpoint cannot be reached', async () => {
    const down = createLlmClient({ ASSAY_LLM_URL: 'http://127.0.0.1:9/v1', ASSAY_LLM_TIMEOUT_MS: '2000' });
    expect(down).not.toBeNull();
    const match = await matchLoincWithLlm('TRIGLICERIDES', { unit: 'mg/dL' }, down);
    expect(match).toMatchObject({
      loincCode: '2571-8',
      loincMatchType: 'llm_fuzzy',
      loincMatcher: 'lexical',
    });
  });

  it('works offline when no LLM is configured', async () => {
    expect(createLlmClient({})).toBeNull();
    const match = await matchLoincWithLlm('GOOD CHOLESTEROL', undefined, null);
    expect(match.loincMatcher).not.toBe('llm');
  });
});

describe('speed', () => {
  // The speed target (10,000 names < 1 s) lives in `npm run bench -- terminology`: a timed test fails on a
  // busy machine, not on slow code. This checks that a long run of lookups stays right.
  it('maps 10,000 names in a row, each to its expected code (the matcher keeps no state that drifts)', () => {
    let wrong = 0;
    for (let i = 0; i < 10_000; i++) {
      const p = PAIRS[i % PAIRS.length] as Pair;
      const got = matchLoinc(p.name, {
        unit: p.unit,
        panel: p.panel,
        ...(p.specimen ? { specimen: p.specimen } : {}),
      });
      if (got.loincCode !== p.code) wrong++;
    }
    expect(wrong).toBe(0);
  });
});
