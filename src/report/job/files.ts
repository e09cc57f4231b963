import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FileBlobStore } from '../../blobs/file.js';
import { type BlobStore, blobKeys } from '../../blobs/store.js';
import { homeKey, openSealedJson, type Sealed, sealJson } from '../../home-secrets.js';

/**
 * What a report job keeps outside the job store, in the blob store beside it: the PDF until its deliveries
 * end, and the callback credential, which never enters the job store (payloads and results are readable
 * with `assay jobs show`) and is sealed with a key of the keys folder, so it is not readable in the blob
 * store either (a PostgreSQL database, a backup of it).
 */
export interface ReportFiles {
  /** The home of the process running the job: its keys folder, unless ASSAY_KEYS_DIR names a shared one. */
  home: string;
  blobs: BlobStore;
}

/** The folder of the home's blob files that holds report PDFs and credentials (the payload's hint). */
export function reportDir(home: string): string {
  return join(home, 'reports');
}

export function pdfPath(dir: string, jobId: string): string {
  return join(dir, `${jobId}.pdf`);
}

/**
 * The files of the process running the job; a kind built without them (tests, benchmarks on one home) uses
 * the home the payload was submitted from, as earlier versions did.
 */
export function reportFiles(
  given: { home: string; blobs?: BlobStore } | undefined,
  hint: string,
): ReportFiles {
  const home = given?.home ?? dirname(hint);
  return { home, blobs: given?.blobs ?? new FileBlobStore(home) };
}

/** The key sealing report requests in job payloads. */
export function requestKey(home: string): Promise<string> {
  return homeKey(home, 'payload');
}

/** The key sealing callback credentials and storage URLs in the blob store. */
export const credentialKey = (home: string) => homeKey(home, 'credentials');

/** Write then rename, so a reader (or a crash) never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (error) {
    // A full disk (ENOSPC) fails the write half-way: the partial copy must not be left behind per attempt.
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Store a credential, sealed; returns the reference a delivery job carries instead. */
export async function saveCredential(files: ReportFiles, token: string): Promise<string> {
  const ref = randomUUID();
  const sealed = sealJson({ token }, await credentialKey(files.home));
  await files.blobs.put(blobKeys.credential(ref), Buffer.from(JSON.stringify(sealed)));
  return ref;
}

/**
 * The credential, or null when it is gone. A credential file written by an earlier version (plain text,
 * 0600 under the home) is read as it is, so deliveries in flight across an upgrade still authenticate.
 */
export async function readCredential(files: ReportFiles, ref: string): Promise<string | null> {
  const bytes = await files.blobs.get(blobKeys.credential(ref));
  if (!bytes) return null;
  const text = bytes.toString('utf8');
  let sealed: Sealed | undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Sealed>;
    if (parsed && typeof parsed === 'object' && typeof parsed.sealed === 'string') sealed = parsed as Sealed;
  } catch {
    return text;
  }
  if (!sealed) return text;
  return (openSealedJson(sealed, await credentialKey(files.home)) as { token: string }).token;
}

export function deleteCredential(files: ReportFiles, ref: string): Promise<void> {
  return files.blobs.delete(blobKeys.credential(ref));
}

export const keepReportPdf = (files: ReportFiles, jobId: string, pdf: Uint8Array) =>
  files.blobs.put(blobKeys.reportPdf(jobId), pdf);

export const readReportPdf = (files: ReportFiles, jobId: string) =>
  files.blobs.get(blobKeys.reportPdf(jobId));

export const deleteReportPdf = (files: ReportFiles, jobId: string) =>
  files.blobs.delete(blobKeys.reportPdf(jobId));
