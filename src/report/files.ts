import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { homeKey } from '../home-secrets.js';

/**
 * Files a report job keeps under the assay home: the PDF until its deliveries end, and the callback
 * credential, which never enters the job store (payloads and results are readable with `assay jobs show`).
 */
export function reportDir(home: string): string {
  return join(home, 'reports');
}

export function pdfPath(dir: string, jobId: string): string {
  return join(dir, `${jobId}.pdf`);
}

/** The key sealing report requests in job payloads: the home's, and the home is the reports dir's parent. */
export function requestKey(dir: string): Promise<string> {
  return homeKey(dirname(dir), 'payload');
}

function credentialPath(dir: string, ref: string): string {
  return join(dir, 'credentials', `${ref}.secret`);
}

/** Write then rename, so a reader (or a crash) never sees half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Store a credential readable by this user only; returns the reference a delivery job carries instead. */
export function saveCredential(dir: string, token: string): string {
  const ref = randomUUID();
  writeFileAtomic(credentialPath(dir, ref), token);
  return ref;
}

export function readCredential(dir: string, ref: string): string | null {
  try {
    return readFileSync(credentialPath(dir, ref), 'utf8');
  } catch {
    return null;
  }
}

export function deleteCredential(dir: string, ref: string): void {
  rmSync(credentialPath(dir, ref), { force: true });
}
