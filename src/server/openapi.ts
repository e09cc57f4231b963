import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** `alsoAs`: other media types the same answer is sent in when the client's Accept asks for them. */
  alsoAs?: string[];
  /** A binary answer's media type (`application/pdf`), for routes that answer bytes rather than JSON. */
  binary?: string;
  /** Response headers: name -> description (`Location`). */
  headers?: Record<string, string>;
}

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path form: `/extraction/lab/status/{jobId}`. */
  path: string;
  summary: string;
  /**
   * The OpenAPI operationId, camelCase and unique (`getLabStatus`). When absent one is made from the method
   * and the path's literal segments (`postReviewSession`); openApiDocument refuses a duplicate.
   */
  operationId?: string;
  tag: string;
  body?: z.ZodType;
  /** Media types the route also takes as a raw body (`application/pdf`), besides the JSON `body`. */
  rawBody?: string[];
  query?: z.ZodObject;
  responses: Record<number, ResponseDoc>;
  public?: boolean;
}

const toSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' });

const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

/** `post` + `/review/{jobId}/session` -> `postReviewSession`: the method and the path's literal words. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method + words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
}

/** OpenAPI 3.1 from the same zod schemas the routes validate with: one source for both. */
export function openApiDocument(routes: RouteDoc[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const r of routes) {
    const operationId = r.operationId ?? derivedOperationId(r.method, r.path);
    if (!OPERATION_ID.test(operationId) || operationIds.has(operationId)) {
      throw new Error(
        `assay: operationId ${operationId} of ${r.method} ${r.path} is not camelCase or not unique`,
      );
    }
    operationIds.add(operationId);
    const content: Record<string, unknown> = {
      ...(r.body ? { 'application/json': { schema: toSchema(r.body) } } : {}),
      ...Object.fromEntries(
        (r.rawBody ?? []).map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
      ),
    };
    const parameters = [
      ...[...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...Object.entries(r.query?.shape ?? {}).map(([name, s]) => ({
        name,
        in: 'query',
        required: !(s as z.ZodType).safeParse(undefined).success,
        schema: toSchema(s as z.ZodType),
      })),
    ];
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method] = {
      operationId,
      summary: r.summary,
      tags: [r.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
      responses: Object.fromEntries(
        Object.entries(r.responses).map(([status, res]) => [
          status,
          {
            description: res.description,
            ...(res.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(res.headers).map(([name, description]) => [
                      name,
                      { description, schema: { type: 'string' } },
                    ]),
                  ),
                }
              : {}),
            ...(res.binary
              ? { content: { [res.binary]: { schema: { type: 'string', contentMediaType: res.binary } } } }
              : {}),
            ...(res.schema
              ? {
                  content: {
                    'application/json': { schema: toSchema(res.schema) },
                    ...Object.fromEntries(
                      (res.alsoAs ?? []).map((type) => [type, { schema: { type: 'string' } }]),
                    ),
                  },
                }
              : {}),
          },
        ]),
      ),
      ...(r.public ? { security: [] } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'assay',
      version,
      description: 'Health reports, lab PDF extraction and reference data.',
    },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}

/** A plain page listing the routes: no CDN, no script, so it works on a closed network. */
function docsPage(doc: ReturnType<typeof openApiDocument>): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(
      ([method, op]) =>
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${esc(path)}</code></td><td>${esc((op as { summary: string }).summary)}</td></tr>`,
    ),
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>assay API</title>
<style>body{font:15px system-ui;margin:2rem;max-width:60rem}td{padding:.3rem .8rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>assay API</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Every route but the
probes needs the header <code>x-api-key</code>.</p><table>${rows.join('')}</table></body></html>`;
}

export function registerOpenApi(app: FastifyInstance, routes: RouteDoc[], version: string): void {
  const doc = openApiDocument(routes, version);
  app.get('/openapi.json', async () => doc);
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(docsPage(doc)));
}
