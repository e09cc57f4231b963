/**
 * Issue #29.7: `POST /extraction/lab/upload` as multipart/form-data (@fastify/multipart), beside base64
 * JSON and raw application/pdf, on a real server on 127.0.0.1 with the fixtures' real PDFs: the same 10 MB
 * limit, the same answers and the same short `{error, message, timestamp, requestId}` bodies.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/cli/engine.js';
import { isFinalLabStatus, type LabStatusBody } from '../../src/lab/job/status-body.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { createKey, startTestServer } from './support/test-server.js';

const labPdf = (name: string) => readFileSync(new URL(`../../fixtures/labs/${name}.pdf`, import.meta.url));
const pdfBlob = (bytes: Buffer, type = 'application/pdf') => new Blob([new Uint8Array(bytes)], { type });

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  let value = await read();
  for (let i = 0; i < 300 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
};

interface LabError {
  error: string;
  message: string;
  timestamp: string;
  requestId: string;
}

describe('issue #29.7: multipart/form-data lab upload on a real server', () => {
  const home = tmpHome('assay-multipart-');
  let server: RunningServer;
  let key: string;
  let keyId: string;

  const upload = (body: FormData | Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/extraction/lab/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key, ...headers },
      body: typeof body === 'string' || body instanceof FormData ? body : new Uint8Array(body),
    });
  /** An error answer: status, parsed body, size; the body must be the lab error shape and small. */
  const errorOf = async (res: Response) => {
    const text = await res.text();
    const body = JSON.parse(text) as LabError;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'requestId', 'timestamp']);
    expect(Buffer.byteLength(text)).toBeLessThan(1024);
    return { status: res.status, body };
  };
  const form = (parts: Array<[string, string | Blob, string?]>) => {
    const data = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === 'string') data.append(name, value);
      else data.append(name, value, filename ?? 'report.pdf');
    }
    return data;
  };

  beforeAll(async () => {
    const created = createKey(home.dir, 'multipart');
    key = created.key;
    keyId = created.apiKey.id;
    server = await startTestServer(home.dir, { workers: 1 });
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('takes the PDF as the file part pdfFile: 202 with Location, extracted, owned by the key', async () => {
    const res = await upload(
      form([
        ['pdfFile', pdfBlob(labPdf('quest-cmp-lipid')), 'quest-cmp-lipid.pdf'],
        ['rejectIfPHI', 'false'],
        ['dateOfBirth', '1968-07-22'],
      ]),
    );
    expect(res.status).toBe(202);
    const queued = (await res.json()) as { jobId: string; status: string; message: string };
    expect(queued).toMatchObject({ status: 'queued', message: expect.stringMatching(/poll/) });
    expect(res.headers.get('location')).toBe(`/extraction/lab/status/${queued.jobId}`);

    const status = await until(
      async () =>
        (await (
          await fetch(`${server.url}${res.headers.get('location')}`, { headers: { 'x-api-key': key } })
        ).json()) as { status: string; labName?: string; panels?: unknown[] },
      (s) => isFinalLabStatus(s as LabStatusBody),
    );
    expect(status).toMatchObject({ status: 'completed', labName: 'Quest Diagnostics' });
    expect(status.panels?.length).toBeGreaterThan(0);

    // The same job a JSON upload of the same bytes makes: same owner, same stored name.
    const engine = await openEngine({ home: home.dir });
    try {
      const job = await engine.store.get(queued.jobId);
      expect(job?.owner).toBe(keyId);
      expect(job?.kind).toBe('lab.extract');
    } finally {
      await engine.close();
    }
  });

  it('the text parts come before or after the file; their values are checked as the JSON members are', async () => {
    const before = await upload(
      form([
        ['filename', 'cbc.pdf'],
        ['pdfFile', pdfBlob(labPdf('quest-cbc-a1c'))],
      ]),
    );
    expect(before.status).toBe(202);

    const badDob = await errorOf(
      await upload(
        form([
          ['pdfFile', pdfBlob(labPdf('quest-cbc-a1c'))],
          ['dateOfBirth', '22-07-1968'],
        ]),
      ),
    );
    expect(badDob).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(badDob.body.message).toMatch(/^dateOfBirth: expected dateOfBirth as YYYY-MM-DD/);

    const badFlag = await errorOf(
      await upload(
        form([
          ['rejectIfPHI', 'yes'],
          ['pdfFile', pdfBlob(labPdf('quest-cbc-a1c'))],
        ]),
      ),
    );
    expect(badFlag.body.message).toMatch(/rejectIfPHI: expected rejectIfPHI as true or false/);

    const unknown = await errorOf(
      await upload(
        form([
          ['pdfFile', pdfBlob(labPdf('quest-cbc-a1c'))],
          ['patientName', 'x'],
        ]),
      ),
    );
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(unknown.body.message).toMatch(/^unknown form field "patientName"; expected pdfFile, filename/);

    const twice = await errorOf(
      await upload(
        form([
          ['filename', 'a.pdf'],
          ['filename', 'b.pdf'],
          ['pdfFile', pdfBlob(labPdf('quest-cbc-a1c'))],
        ]),
      ),
    );
    expect(twice.body.message).toBe('The form field filename is given twice.');
  });

  it('a wrong part name, a text pdfFile, no file or an empty file: 400 invalid_request naming pdfFile', async () => {
    const wrongName = await errorOf(await upload(form([['file', pdfBlob(labPdf('quest-cmp-lipid'))]])));
    expect(wrongName).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(wrongName.body.message).toBe(
      'Unexpected file part "file": send the PDF as the file part pdfFile.',
    );

    const asText = await errorOf(await upload(form([['pdfFile', 'JVBERi0xLjcK']])));
    expect(asText).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(asText.body.message).toMatch(/^pdfFile is a text part: send the PDF as a file part/);

    const none = await errorOf(await upload(form([['filename', 'a.pdf']])));
    expect(none).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(none.body.message).toMatch(/^The form has no file part pdfFile/);

    const empty = await errorOf(await upload(form([['pdfFile', pdfBlob(Buffer.alloc(0))]])));
    expect(empty).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(empty.body.message).toBe('The file part pdfFile is empty: expected the PDF.');
  });

  it('two files: 400 invalid_request, one file only', async () => {
    const pdf = pdfBlob(labPdf('quest-cmp-lipid'));
    const two = await errorOf(
      await upload(
        form([
          ['pdfFile', pdf, 'a.pdf'],
          ['pdfFile', pdf, 'b.pdf'],
        ]),
      ),
    );
    expect(two).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(two.body.message).toBe(
      'Send one file: the form has more than one file part (expected only pdfFile).',
    );

    const other = await errorOf(
      await upload(
        form([
          ['pdfFile', pdf, 'a.pdf'],
          ['extra', pdf, 'b.pdf'],
        ]),
      ),
    );
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('not a PDF: 400 invalid_pdf, as for the raw and JSON forms', async () => {
    const text = Buffer.from('hello, not a PDF');
    const multipart = await errorOf(await upload(form([['pdfFile', pdfBlob(text, 'text/plain'), 'a.txt']])));
    expect(multipart).toMatchObject({
      status: 400,
      body: { error: 'invalid_pdf', message: 'The file part pdfFile is not a PDF (no %PDF- header).' },
    });
    const raw = await errorOf(await upload(text, { 'content-type': 'application/pdf' }));
    expect(raw).toMatchObject({ status: 400, body: { error: 'invalid_pdf' } });
    const json = await errorOf(
      await upload(JSON.stringify({ pdfFile: text.toString('base64') }), {
        'content-type': 'application/json',
      }),
    );
    expect(json).toMatchObject({ status: 400, body: { error: 'invalid_pdf' } });
  });

  it('over 10 MB: 413 file_too_large with the message the raw and JSON forms give', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.7\n');
    const multipart = await errorOf(await upload(form([['pdfFile', pdfBlob(big)]])));
    expect(multipart).toMatchObject({ status: 413, body: { error: 'file_too_large' } });
    const raw = await errorOf(await upload(big, { 'content-type': 'application/pdf' }));
    expect(raw.status).toBe(413);
    expect(multipart.body.message).toBe(raw.body.message);
    const json = await errorOf(
      await upload(JSON.stringify({ pdfFile: big.toString('base64') }), {
        'content-type': 'application/json',
      }),
    );
    expect(json.status).toBe(413);
    expect(json.body.message).toBe(raw.body.message);

    // A form whose declared length is well past the limit is refused before it is read.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/extraction/lab/upload`,
        {
          method: 'POST',
          headers: {
            'x-api-key': key,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(64 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
          });
          res.on('end', () => {
            // The rest of the declared body is never sent: the answer came before it was read.
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ error: 'file_too_large' });
  });

  it('a malformed form (no boundary, cut short) is 400 invalid_request, never a 500', async () => {
    const noBoundary = await errorOf(
      await upload('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', {
        'content-type': 'multipart/form-data',
      }),
    );
    expect(noBoundary).toMatchObject({ status: 400, body: { error: 'invalid_request' } });

    const cut = await errorOf(
      await upload(
        '--x\r\nContent-Disposition: form-data; name="pdfFile"; filename="a.pdf"\r\n' +
          'Content-Type: application/pdf\r\n\r\n%PDF-1.7 and then nothing',
        { 'content-type': 'multipart/form-data; boundary=x' },
      ),
    );
    expect(cut).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(cut.body.message).toMatch(/^The multipart\/form-data body is malformed/);
  });

  it('describes the form in /openapi.json as a third request body type', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, unknown> } }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const content = doc.paths['/extraction/lab/upload']?.post?.requestBody.content ?? {};
    expect(Object.keys(content)).toEqual(['application/json', 'application/pdf', 'multipart/form-data']);
    expect(content['multipart/form-data']).toEqual({
      schema: { $ref: '#/components/schemas/LabUploadForm' },
      encoding: { pdfFile: { contentType: 'application/pdf' } },
    });
    const formSchema = doc.components.schemas.LabUploadForm;
    expect(formSchema?.required).toEqual(['pdfFile']);
    expect(formSchema?.properties.pdfFile).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(formSchema?.properties ?? {})).toEqual([
      'pdfFile',
      'filename',
      'dateOfBirth',
      'webhookUrl',
      'rejectIfPHI',
    ]);
  });
});
