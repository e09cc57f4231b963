import { deleteCredential, type ReportFiles, readCredential, saveCredential } from '../report/job/files.js';
import { redactUrl } from './http.js';

/**
 * A target URL as a job may store it. A URL that carries more than its address (a query string, which may
 * hold a token; userinfo) is sealed like a credential in the blob store (the credentials key), `url`
 * keeping only the address and `ref` naming the sealed copy; a bare address is stored as it is (`ref` null).
 */
export interface StoredUrl {
  url: string;
  ref: string | null;
}

/** The URL as the job store may hold it, its secrets sealed in the blob store when it has any. */
export async function sealUrlSecrets(files: ReportFiles, url: string): Promise<StoredUrl> {
  const address = redactUrl(url);
  if (address === url) return { url, ref: null };
  return { url: address, ref: await saveCredential(files, url) };
}

/** The URL to call: the sealed one when there is a ref (null once it has been deleted), else `url`. */
export async function openStoredUrl(
  files: ReportFiles,
  url: string,
  ref: string | null | undefined,
): Promise<string | null> {
  return ref ? readCredential(files, ref) : url;
}

/** The sealed copy goes (the deliveries that read it have ended, or the job that named it was not kept). */
export async function deleteStoredUrl(files: ReportFiles, ref: string | null | undefined): Promise<void> {
  if (ref) await deleteCredential(files, ref);
}
