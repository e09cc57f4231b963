/**
 * The three forms `POST /extraction/lab/upload` takes, read into one request: JSON with a base64 `pdfFile`,
 * the PDF bytes as the body (application/pdf, the other members as query parameters), or a
 * multipart/form-data form with the PDF as the file part `pdfFile` (the other members as text parts). Each
 * form is checked against the same schema and answers the same short errors.
 */
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatPath } from '../../schemas/errors.js';
import { type LabUploadRequest, labUploadRequestSchema } from '../../schemas/lab.js';
import { HttpError } from '../error-bodies.js';

export const MAX_PDF_BYTES = 10 * 1024 * 1024;

/** Bodies the upload takes as the PDF's bytes, beside JSON (the pre-signed PUT takes the same). */
export const RAW_PDF_TYPES = ['application/pdf', 'application/octet-stream'];
const MULTIPART = 'multipart/form-data';
const UPLOAD_TYPES = new Set(['application/json', MULTIPART, ...RAW_PDF_TYPES]);
/** The multipart part that carries the PDF: the JSON member's name. */
export const FILE_PART = 'pdfFile';
const WRONG_TYPE =
  'Send the PDF bytes with Content-Type: application/pdf, a multipart/form-data form with the PDF in ' +
  `the file part ${FILE_PART}, or a JSON object with a base64 pdfFile (Content-Type: application/json).`;

/** A raw PDF upload's query, or a form's text parts: the JSON body's members but pdfFile. */
const uploadFieldsSchema = labUploadRequestSchema.omit({ pdfFile: true });
/** The same members as they are written in a URL or a form (text), for the API description. */
export const uploadFieldsDoc = z.object({
  filename: z.string().max(255).optional(),
  dateOfBirth: z.iso.date().optional(),
  webhookUrl: z.url().max(2048).optional(),
  rejectIfPHI: z.enum(['true', 'false']).optional(),
});
/** The multipart form, for the API description: the PDF as a binary file part beside the text parts. */
export const uploadFormDoc = z.object({
  [FILE_PART]: z.string().meta({
    format: 'binary',
    contentMediaType: 'application/pdf',
    description: 'The PDF (one file part, up to 10 MB)',
  }),
  ...uploadFieldsDoc.shape,
});

const FIELD_NAMES = Object.keys(uploadFieldsDoc.shape);
/** A form's whole body: the 10 MB file, its text parts and the boundaries. Fastify's bodyLimit skips forms. */
const MAX_FORM_BYTES = MAX_PDF_BYTES + 64 * 1024;
/** Busboy's limits for a form: one file of at most 10 MB, a few short text parts. */
const FORM_LIMITS = {
  fileSize: MAX_PDF_BYTES,
  files: 1,
  fields: FIELD_NAMES.length,
  parts: FIELD_NAMES.length + 1,
  fieldSize: 4096,
  fieldNameSize: 100,
  headerPairs: 20,
};

export type UploadSource = 'json' | 'raw' | 'form';

export interface UploadBody {
  body: LabUploadRequest;
  /** The PDF's bytes, for a raw or a form upload (a JSON upload carries them in body.pdfFile). */
  pdf?: Buffer;
  source: UploadSource;
}

export const mediaType = (req: FastifyRequest) =>
  (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Where = 'member' | 'query parameter' | 'form field';

/**
 * A short account of what is wrong with an upload request: at most three problems, unknown members named
 * (clipped) rather than listed by the thousand, and never the submitted values. A PDF sent as JSON-less bytes
 * once came back as a 72 KB list of its byte offsets.
 */
function invalidUpload(error: z.ZodError, where: Where): HttpError {
  const allowed =
    where === 'member'
      ? Object.keys(labUploadRequestSchema.shape)
      : where === 'form field'
        ? [FILE_PART, ...FIELD_NAMES]
        : FIELD_NAMES;
  const lines = error.issues.slice(0, 3).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const named = issue.keys.slice(0, 3).map((k) => JSON.stringify(clip(k, 40)));
      const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : '';
      return `unknown ${where}${issue.keys.length > 1 ? 's' : ''} ${named.join(', ')}${more}; expected ${allowed.join(', ')}`;
    }
    return clip(`${formatPath(issue.path)}: ${issue.message}`, 160);
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more problems)` : '';
  return new HttpError(400, 'invalid_request', `${lines.join('; ')}${more}`);
}

/** Query parameters or form text parts, all strings, checked as the JSON members are. */
function uploadFields(fields: Record<string, unknown>, where: Where): LabUploadRequest {
  const values = { ...fields };
  if (values.rejectIfPHI === 'true' || values.rejectIfPHI === 'false') {
    values.rejectIfPHI = values.rejectIfPHI === 'true';
  }
  const parsed = uploadFieldsSchema.safeParse(values);
  if (!parsed.success) throw invalidUpload(parsed.error, where);
  return parsed.data;
}

/** The answer to a PDF over 10 MB, in every form. */
export const tooLarge = () =>
  new HttpError(
    413,
    'file_too_large',
    'The PDF exceeds 10 MB; upload it through a pre-signed URL (JSON without pdfFile).',
  );

const badForm = (message: string) => new HttpError(400, 'invalid_request', message);

/** The answer to a form busboy stopped reading, by @fastify/multipart's error code. */
function formError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return badForm(`Send one file: the form has more than one file part (expected only ${FILE_PART}).`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badForm(
        `The form has too many parts: expected the file part ${FILE_PART} and at most ${FIELD_NAMES.join(', ')}.`,
      );
    case 'FST_PROTO_VIOLATION':
      return badForm(
        `The form has a part whose name is not accepted; expected ${FILE_PART}, ${FIELD_NAMES.join(', ')}.`,
      );
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badForm('A form field is declared application/json but does not parse; send text fields.');
    default:
      // Busboy's own: no boundary, a part cut short, a body that ends early.
      if (error instanceof Error && (error as { statusCode?: number }).statusCode === undefined) {
        return badForm(`The multipart/form-data body is malformed (${clip(error.message, 80)}).`);
      }
      return error;
  }
}

/**
 * A multipart/form-data upload: exactly one file part, `pdfFile`, of at most 10 MB, and the other members as
 * text parts (each at most once). The file's own name stands in for a missing `filename` part.
 */
async function formUpload(req: FastifyRequest): Promise<UploadBody> {
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; filename: string } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_PART) {
          part.file.resume();
          throw badForm(
            `Unexpected file part ${JSON.stringify(clip(part.fieldname, 40))}: send the PDF as the file part ${FILE_PART}.`,
          );
        }
        file = { bytes: await (part as MultipartFile).toBuffer(), filename: part.filename };
        continue;
      }
      if (part.fieldname === FILE_PART) {
        throw badForm(
          `${FILE_PART} is a text part: send the PDF as a file part (curl -F ${FILE_PART}=@report.pdf).`,
        );
      }
      if (part.fieldname in fields)
        throw badForm(`The form field ${clip(part.fieldname, 40)} is given twice.`);
      if (part.valueTruncated) {
        throw badForm(
          `The form field ${clip(part.fieldname, 40)} is longer than ${FORM_LIMITS.fieldSize} bytes.`,
        );
      }
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  } catch (error) {
    throw formError(error);
  }
  if (!file) {
    throw badForm(
      `The form has no file part ${FILE_PART}: send the PDF as ${FILE_PART} (curl -F ${FILE_PART}=@report.pdf).`,
    );
  }
  if (file.bytes.length === 0) throw badForm(`The file part ${FILE_PART} is empty: expected the PDF.`);
  const body = uploadFields(fields, 'form field');
  if (body.filename === undefined && file.filename && file.filename.length <= 255)
    body.filename = file.filename;
  return { body, pdf: file.bytes, source: 'form' };
}

/** The upload as the JSON body, a raw PDF body and its query, or a multipart form gives it. */
export async function uploadBody(req: FastifyRequest): Promise<UploadBody> {
  const type = mediaType(req);
  if (type === MULTIPART) return formUpload(req);
  if (RAW_PDF_TYPES.includes(type)) {
    const body = uploadFields(req.query as Record<string, unknown>, 'query parameter');
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
      throw new HttpError(400, 'invalid_request', 'The body is empty: expected the PDF bytes.');
    }
    return { body, pdf: req.body, source: 'raw' };
  }
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new HttpError(400, 'invalid_request', `Expected a JSON object body. ${WRONG_TYPE}`);
  }
  const parsed = labUploadRequestSchema.safeParse(req.body);
  if (!parsed.success) throw invalidUpload(parsed.error, 'member');
  return { body: parsed.data, source: 'json' };
}

/** What the PDF check says when the bytes are not a PDF, in the words of the form they came in. */
export const notPdfMessage: Record<UploadSource, string> = {
  json: 'pdfFile does not decode to a PDF (no %PDF- header).',
  raw: 'The body is not a PDF (no %PDF- header).',
  form: `The file part ${FILE_PART} is not a PDF (no %PDF- header).`,
};

/**
 * Refuse a body the upload does not take before it is read: 415 for a type it does not take (text/plain,
 * url-encoded forms), 413 for a form whose declared length is past 10 MB and its parts.
 */
export function checkUploadType(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const type = mediaType(req);
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (type === '' ? hasBody : !UPLOAD_TYPES.has(type)) {
    done(
      new HttpError(
        415,
        'unsupported_media_type',
        `${type ? `Content-Type ${clip(type, 60)} is not accepted here` : 'The body has no Content-Type'}. ${WRONG_TYPE}`,
      ),
    );
    return;
  }
  if (type === MULTIPART && Number(req.headers['content-length'] ?? 0) > MAX_FORM_BYTES) {
    done(tooLarge());
    return;
  }
  done();
}

/** Raw PDF bodies as a Buffer (the upload and the pre-signed PUT). */
export function registerRawPdfParser(app: FastifyInstance): void {
  app.addContentTypeParser(RAW_PDF_TYPES, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

/** @fastify/multipart for forms, read by `req.parts()` in the upload route under FORM_LIMITS. */
export async function registerFormParser(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: FORM_LIMITS, throwFileSizeLimit: true });
}
