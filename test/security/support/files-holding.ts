import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (the database, its WAL and -shm, blobs, keys, outputs) whose bytes hold `text`. */
export function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name))
    .filter((f) => readFileSync(f).includes(Buffer.from(text, 'latin1')));
}

/** The sealed credentials still kept under the home, once deliveries had up to five seconds to end. */
export async function sealedCopiesLeft(home: string): Promise<string[]> {
  const credentials = join(home, 'reports', 'credentials');
  const kept = () => (existsSync(credentials) ? readdirSync(credentials) : []);
  for (let i = 0; i < 50 && kept().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  return kept();
}
