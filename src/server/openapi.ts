import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** An example of the JSON answer, shown by /docs (the tests check it against `schema`). */
  example?: unknown;
  /** `alsoAs`: other media types the same answer is sent in when the client's Accept asks for them. */
  alsoAs?: string[];
  /** A binary answer's media type (`application/pdf`), for routes that answer bytes rather than JSON. */
  binary?: string;
  /** Response headers: name -> description (`Location`). */
  headers?: Record<string, string>;
}

/** A multipart/form-data body: its parts as one object schema, and the media type of each file part. */
export interface FormBodyDoc {
  schema: z.ZodObject;
  files: Record<string, string>;
}

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path form: `/extraction/lab/status/{jobId}`. */
  path: string;
  /** One line, shown beside the path in /docs. */
  summary: string;
  /** The longer account, shown when the operation is opened. */
  description?: string;
  /**
   * The OpenAPI operationId, camelCase and unique (`getLabStatus`). When absent one is made from the method
   * and the path's literal segments (`postReviewSession`); openApiDocument refuses a duplicate.
   */
  operationId?: string;
  tag: string;
  body?: z.ZodType;
  /** An example of the JSON `body`, shown by /docs (the tests check it against `body`). */
  bodyExample?: unknown;
  /** Media types the route also takes as a raw body (`application/pdf`), besides the JSON `body`. */
  rawBody?: string[];
  /** The multipart/form-data form the route also takes. */
  formBody?: FormBodyDoc;
  query?: z.ZodObject;
  responses: Record<number, ResponseDoc>;
  public?: boolean;
}

/** Named schemas: written once under components/schemas and referred to by `$ref` wherever they occur. */
export type ApiComponents = Record<string, z.ZodType>;

type Io = 'input' | 'output';
type JsonSchema = Record<string, unknown>;

const REF = '#/components/schemas/';

/**
 * Turns zod schemas into the document's JSON Schemas: a named schema (a component) becomes a `$ref`
 * wherever it occurs, and its own JSON Schema is written once under components/schemas. Requests are
 * described as they are accepted (`io: 'input'`: members with a default are optional), answers as they are
 * sent; a component used both ways whose two forms differ is written twice, the second named with `Input`
 * or `Output` after it.
 */
class SchemaWriter {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<z.ZodType, string>();
  /** `name|io` -> the name it is written under. */
  private readonly written = new Map<string, string>();
  private readonly writing = new Set<string>();

  constructor(components: ApiComponents) {
    for (const [name, schema] of Object.entries(components)) {
      const known = this.names.get(schema);
      if (known !== undefined && known !== name)
        throw new Error(`assay: one schema is named both ${known} and ${name} in the API description`);
      this.names.set(schema, name);
    }
  }

  /** The schema as a route writes it: a `$ref` for a component, else its JSON Schema. */
  use(schema: z.ZodType, io: Io): JsonSchema {
    const name = this.names.get(schema);
    return name === undefined ? this.convert(schema, io) : { $ref: this.ref(schema, name, io) };
  }

  private ref(schema: z.ZodType, name: string, io: Io): string {
    const key = `${name}|${io}`;
    const done = this.written.get(key);
    if (done !== undefined) return REF + done;
    if (this.writing.has(key)) throw new Error(`assay: component ${name} refers to itself`);
    this.writing.add(key);
    const json = this.convert(schema, io);
    this.writing.delete(key);
    const other = this.written.get(`${name}|${io === 'input' ? 'output' : 'input'}`);
    const same = other !== undefined && JSON.stringify(this.schemas[other]) === JSON.stringify(json);
    const written = other === undefined || same ? name : `${name}${io === 'input' ? 'Input' : 'Output'}`;
    this.schemas[written] = json;
    this.written.set(key, written);
    return REF + written;
  }

  private convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      io,
      override: (ctx) => {
        const inner = ctx.zodSchema as unknown as z.ZodType;
        const name = this.names.get(inner);
        if (name === undefined || inner === schema) return;
        const target = ctx.jsonSchema as JsonSchema;
        for (const key of Object.keys(target)) delete target[key];
        target.$ref = this.ref(inner, name, io);
      },
    }) as JsonSchema;
    delete json.$schema;
    return json;
  }
}

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

/** Bytes of a media type: `format: binary` too, which generators turn into a Blob (3.0 style). */
const binary = (type: string) => ({ type: 'string', format: 'binary', contentMediaType: type });
/** Another form of a JSON answer: a JSON document of its own (FHIR) or text (CSV). */
const textOf = (type: string) =>
  /[/+]json$/.test(type)
    ? { type: 'object', additionalProperties: true, description: `The answer as ${type}` }
    : { type: 'string' };

const withExample = (media: JsonSchema, example: unknown) =>
  example === undefined ? media : { ...media, example };

/** OpenAPI 3.1 from the same zod schemas the routes validate with: one source for both. */
export function openApiDocument(routes: RouteDoc[], version: string, components: ApiComponents = {}) {
  const schemas = new SchemaWriter(components);
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
      ...(r.body
        ? { 'application/json': withExample({ schema: schemas.use(r.body, 'input') }, r.bodyExample) }
        : {}),
      ...Object.fromEntries((r.rawBody ?? []).map((type) => [type, { schema: binary(type) }])),
      ...(r.formBody
        ? {
            'multipart/form-data': {
              schema: schemas.use(r.formBody.schema, 'input'),
              encoding: Object.fromEntries(
                Object.entries(r.formBody.files).map(([part, type]) => [part, { contentType: type }]),
              ),
            },
          }
        : {}),
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
        schema: schemas.use(s as z.ZodType, 'input'),
      })),
    ];
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method] = {
      operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
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
            ...(res.binary ? { content: { [res.binary]: { schema: binary(res.binary) } } } : {}),
            ...(res.schema
              ? {
                  content: {
                    'application/json': withExample(
                      { schema: schemas.use(res.schema, 'output') },
                      res.example,
                    ),
                    ...Object.fromEntries((res.alsoAs ?? []).map((type) => [type, { schema: textOf(type) }])),
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
      description:
        'Health reports, lab PDF extraction and reference data. Every route but the probes, the pre-signed ' +
        'upload and the review page needs the header `x-api-key` (the Authorize button).',
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: Object.fromEntries(Object.entries(schemas.schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
    security: [{ apiKey: [] }],
    paths,
  };
}

/**
 * What /docs may load: its own scripts and styles (Swagger UI sets some styles inline), images from itself
 * or data: URLs, and requests to this server only. Nothing from a CDN, so the page works on a closed network.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; " +
  "form-action 'self'";

/**
 * `/openapi.json`, and at `/docs` Swagger UI over the same document, served with all its assets from this
 * server (@fastify/swagger-ui bundles them): the page loads nothing from elsewhere.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  routes: RouteDoc[],
  version: string,
  components: ApiComponents = {},
): Promise<void> {
  const doc = openApiDocument(routes, version, components);
  app.get('/openapi.json', async () => doc);
  await app.register(async (docs) => {
    // Static mode: @fastify/swagger serves the document built above (its types know OpenAPI 3.0 only).
    await docs.register(fastifySwagger, { mode: 'static', specification: { document: doc as never } });
    await docs.register(fastifySwaggerUi, {
      routePrefix: '/docs',
      staticCSP: DOCS_CSP,
      theme: { title: 'assay API' },
      uiConfig: {
        layout: 'BaseLayout',
        deepLinking: true,
        displayOperationId: true,
        defaultModelsExpandDepth: 0,
        docExpansion: 'list',
        tryItOutEnabled: false,
        validatorUrl: null,
      },
    });
  });
}
