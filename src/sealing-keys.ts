/**
 * Every key the keys folder holds, made now rather than on first use. Nodes sharing one PostgreSQL must
 * hold the same keys; made on first use, two nodes could each make their own and refuse what the other
 * sealed. `assay db migrate --store ...` on the first node fills the folder, which is then copied (or
 * mounted) to the others before they start.
 */
import { homeKeySync, keysDir } from './home-secrets.js';
import { SEAL_KEY_NAME } from './keys/webhook-seal.js';
import { signingKey } from './lab/http/presigned-upload.js';
import { dobKey } from './lab/job/kind.js';
import { credentialKey, requestKey } from './report/job/files.js';

/** Makes the keys that are missing (existing ones are kept); returns the folder. */
export async function prepareSealingKeys(home: string): Promise<string> {
  await Promise.all([dobKey(home), requestKey(home), credentialKey(home), signingKey(home)]);
  homeKeySync(home, SEAL_KEY_NAME);
  return keysDir(home);
}
