/**
 * Issue #29.7: `/docs` is Swagger UI served whole by the server itself (no CDN), and /openapi.json names
 * its main shapes under components/schemas (referred to by `$ref`, not copied inline) and carries request
 * and response examples that the route schemas accept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AREAS } from '../../src/server/areas.js';
import { openApiDocument } from '../../src/server/openapi.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { startTestServer } from './support/test-server.js';

type Json = Record<string, unknown>;

/** Every `src`/`href` of the page and every `url(...)` of its styles. */
const referencesIn = (text: string): string[] => [
  ...[...text.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1] ?? ''),
  ...[...text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => m[1] ?? ''),
];

/** Every object anywhere in `value`, with the JSON path it sits at. */
function walk(value: unknown, visit: (node: Json, path: string) => void, path = ''): void {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) walk(v, visit, `${path}[${i}]`);
  } else if (value && typeof value === 'object') {
    visit(value as Json, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}/${k}`);
  }
}

describe('issue #29.7: /docs is Swagger UI with every asset served locally', () => {
  const home = tmpHome('assay-docs-');
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer(home.dir);
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('serves the page and every asset it references from the same server, without a key', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toMatch(/connect-src 'self'/);
    const html = await page.text();
    expect(html).toMatch(/<div id="swagger-ui">/);

    const origin = new URL(server.url);
    const seen = new Set<string>();
    const queue = referencesIn(html).map((ref) => new URL(ref, `${server.url}/docs`));
    expect(queue.map((u) => u.pathname)).toEqual(
      expect.arrayContaining([
        '/docs/static/swagger-ui.css',
        '/docs/static/swagger-ui-bundle.js',
        '/docs/static/swagger-ui-standalone-preset.js',
        '/docs/static/swagger-initializer.js',
      ]),
    );
    while (queue.length > 0) {
      const url = queue.shift() as URL;
      if (url.protocol === 'data:' || seen.has(url.href)) continue;
      seen.add(url.href);
      // No asset from elsewhere: not a CDN, not another host, not another port.
      expect(url.origin, `asset ${url.href}`).toBe(origin.origin);
      const res = await fetch(url);
      expect(res.status, url.pathname).toBe(200);
      if (/\.css$/.test(url.pathname)) {
        // What a stylesheet loads (fonts, images) is an asset too.
        for (const ref of referencesIn(await res.text())) {
          if (!ref.startsWith('data:')) queue.push(new URL(ref, url));
        }
      } else await res.arrayBuffer();
    }
    expect(seen.size).toBeGreaterThanOrEqual(6);

    // Swagger UI itself is in the bundle (not a loader that fetches it), and it reads this server's document.
    const bundle = await (await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`)).text();
    expect(bundle.length).toBeGreaterThan(500_000);
    const init = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
    expect(init).toMatch(/url: resolveUrl\('\.\/json'\)/);
    expect(init).toMatch(/"validatorUrl":null/);
    expect(init).not.toMatch(/https?:\/\/(?!stackoverflow\.com\/a\/)/);
    expect(await (await fetch(`${server.url}/docs/json`)).json()).toEqual(
      await (await fetch(`${server.url}/openapi.json`)).json(),
    );
  });

  it('keeps /docs and its assets public and everything else keyed', async () => {
    // Each body is read: a response left unread holds its connection open, and the server's close in
    // afterAll waits for it (a CI run on a loaded machine timed out there).
    const status = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      await res.arrayBuffer();
      return res.status;
    };
    for (const path of ['/docs', '/docs/', '/docs/json', '/docs/static/swagger-ui.css', '/openapi.json']) {
      expect(await status(path), path).toBe(200);
    }
    expect(await status('/docs/static/nothing-here.js')).toBe(404);
    expect(await status('/docsx')).toBe(401);
    expect(await status('/extraction/lab/status/x')).toBe(401);
  });

  it('names the main shapes under components/schemas and refers to them instead of copying them', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Json;
      components: { schemas: Record<string, Json>; securitySchemes: Json };
    };
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'LabUploadRequest',
        'LabUploadForm',
        'LabUploadQueued',
        'LabUploadUrl',
        'LabJobStatus',
        'LabError',
        'FullReportRequest',
        'CondensedReportRequest',
        'ReportMetadata',
        'HealthEvent',
        'Predictor',
        'ReportAck',
        'ReportStatusRecord',
        'DetailError',
        'Concept',
        'LabRange',
        'PredictorStatisticsRequest',
        'PredictorStatisticsResponse',
        'TopDiseasePredictors',
      ]),
    );
    // Every $ref resolves, and every component is used.
    const refs = new Set<string>();
    walk(doc, (node) => {
      if (typeof node.$ref === 'string') refs.add(node.$ref);
    });
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty(ref.replace('#/components/schemas/', ''));
    }
    expect([...refs].map((r) => r.replace('#/components/schemas/', '')).sort()).toEqual(
      Object.keys(doc.components.schemas).sort(),
    );
    // No inline copy of an error body, a predictor or report metadata anywhere in the paths.
    walk(doc.paths, (node, path) => {
      const props = node.properties as Json | undefined;
      if (!props) return;
      expect(props.requestId === undefined || props.timestamp === undefined, path).toBe(true);
      expect(props.observation_code, path).toBeUndefined();
      expect(props.event_asof_dtutc, path).toBeUndefined();
    });
    const upload = (doc.paths['/extraction/lab/upload'] as Json).post as Json;
    expect(JSON.stringify(upload.requestBody)).toMatch(/"\$ref":"#\/components\/schemas\/LabUploadRequest"/);
    const report = (doc.paths['/health-score/report'] as Json).post as Json;
    expect(JSON.stringify(report.requestBody)).toMatch(/"\$ref":"#\/components\/schemas\/FullReportRequest"/);
    // A request is described as it is accepted: members with a default are not required of the caller.
    expect(doc.components.schemas.ReportMetadata?.required).toEqual(['event_id', 'event_asof_dtutc']);
    expect(doc.components.schemas.ReportConfiguration?.required).toBeUndefined();
  });

  it('carries request and response examples on the main operations', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Json>>;
    };
    const mediaOf = (path: string, method: string, where: string) => {
      const op = doc.paths[path]?.[method] as Json;
      const at = where === 'request' ? (op.requestBody as Json) : ((op.responses as Json)[where] as Json);
      return (at.content as Record<string, Json>)['application/json'];
    };
    for (const [path, method] of [
      ['/extraction/lab/upload', 'post'],
      ['/health-score/report', 'post'],
      ['/health-score/report/condensed', 'post'],
      ['/predictor-statistics/', 'post'],
    ] as const) {
      expect(mediaOf(path, method, 'request'), `${method} ${path}`).toHaveProperty('example');
    }
    for (const [path, method, status] of [
      ['/extraction/lab/upload', 'post', '202'],
      ['/extraction/lab/upload', 'post', '413'],
      ['/extraction/lab/status/{jobId}', 'get', '200'],
      ['/extraction/lab/results/{jobId}', 'get', '200'],
      ['/health-score/report', 'post', '202'],
      ['/health-score/report/status/{job_id}', 'get', '200'],
    ] as const) {
      expect(mediaOf(path, method, status), `${method} ${path} ${status}`).toHaveProperty('example');
    }
  });
});

describe('the API description built from the areas', () => {
  const routes = AREAS.flatMap((a) => a.routes);

  it('every example is accepted by the schema it illustrates', () => {
    let checked = 0;
    const accepts = (schema: z.ZodType | undefined, example: unknown, what: string) => {
      if (example === undefined || schema === undefined) return;
      const parsed = schema.safeParse(example);
      expect(parsed.success, `${what}: ${parsed.error?.message}`).toBe(true);
      checked++;
    };
    for (const r of routes) {
      accepts(r.body, r.bodyExample, `${r.method} ${r.path} body`);
      for (const [status, res] of Object.entries(r.responses)) {
        accepts(res.schema, res.example, `${r.method} ${r.path} ${status}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(14);
  });

  it('refuses two schemas under one name, and writes a component used both ways twice when it differs', async () => {
    const { z } = await import('zod');
    const a = z.object({ x: z.string() });
    const b = z.object({ y: z.string() });
    const route = { method: 'get' as const, path: '/x', summary: 'x', tag: 't', responses: {} };
    expect(() => openApiDocument([route], '1', { A: a, B: a })).toThrow(/named both A and B/);

    const withDefault = z.object({ mode: z.string().default('report') });
    const doc = openApiDocument(
      [
        { ...route, method: 'post', body: withDefault, responses: { 200: { description: 'ok', schema: b } } },
        { ...route, path: '/y', responses: { 200: { description: 'ok', schema: withDefault } } },
      ],
      '1',
      { Mode: withDefault, B: b },
    );
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['B', 'Mode', 'ModeOutput']);
    expect(doc.components.schemas.Mode).not.toHaveProperty('required');
    expect(doc.components.schemas.ModeOutput).toMatchObject({ required: ['mode'] });
  });
});
