/**
 * The checks of `assay doctor`, one function each. A check never throws: whatever goes wrong becomes its
 * `fail` (or `warn`) with the fix a user can apply. Nothing here reads a lab document or prints a secret.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { execa } from 'execa';
import { schemaVersion, sqliteVersion } from '../engine/sqlite/version.js';
import { AssayError } from '../errors.js';
import { keysDir } from '../home-secrets.js';
import { PAGE_CPU_BUDGET_MS, pageBudgetMs } from '../lab/pipeline/ocr/page.js';
import { packageRoot } from '../paths.js';
import { bundledDataset, datasetVersion } from '../refdata/dataset.js';
import { readSqliteMeta } from '../refdata/sqlite.js';
import { satisfiesNodeRange } from './node-range.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorCheck {
  check: string;
  status: CheckStatus;
  /** What was found: a version, a path, a setting. */
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string;
}

const firstLine = (text: string) => text.split('\n')[0]?.trim() ?? '';

export function checkNode(version = process.versions.node): DoctorCheck {
  let range: string | undefined;
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
      engines?: { node?: string };
    };
    range = pkg.engines?.node;
  } catch {
    // Reported below as an unknown range.
  }
  if (!range) return { check: 'node', status: 'warn', detail: `${version} (no engines range found)` };
  try {
    if (satisfiesNodeRange(version, range)) return { check: 'node', status: 'ok', detail: `${version}` };
  } catch (error) {
    return { check: 'node', status: 'warn', detail: `${version}; ${(error as Error).message}` };
  }
  return {
    check: 'node',
    status: 'fail',
    detail: `${version} is outside the supported range ${range}`,
    fix: `Install a Node.js version in ${range} (for example the latest 20.x or 22.x).`,
  };
}

/** The native SQLite module: loads, opens an in-memory database, answers a query. */
export function checkSqlite(): DoctorCheck {
  try {
    const version = sqliteVersion();
    return { check: 'sqlite', status: 'ok', detail: `better-sqlite3 native module, SQLite ${version}` };
  } catch (error) {
    return {
      check: 'sqlite',
      status: 'fail',
      detail: `the native module does not load: ${firstLine((error as Error).message)}`,
      fix:
        'Let better-sqlite3 run its install script, then rebuild it: in the project that installed assay, ' +
        'npm install-scripts approve better-sqlite3 (or add "allowScripts": {"better-sqlite3": true} to its ' +
        'package.json), then npm rebuild better-sqlite3. Without a prebuilt binary for this platform the ' +
        'build needs python3, make and a C++ compiler.',
    };
  }
}

interface ProgramRun {
  found: boolean;
  output: string;
}

async function runProgram(command: string, args: string[]): Promise<ProgramRun> {
  const r = await execa(command, args, { reject: false, timeout: 10_000, all: true, stdin: 'ignore' });
  // A program that cannot be started at all (not on PATH, not executable) has no exit code.
  if (r.exitCode === undefined) return { found: false, output: '' };
  return { found: true, output: String(r.all ?? '') };
}

const INSTALL = {
  poppler:
    'Install poppler: apt-get install poppler-utils (Debian, Ubuntu), dnf install poppler-utils (Fedora), ' +
    'brew install poppler (macOS); it must be on PATH.',
  tesseract:
    'Install tesseract with English data: apt-get install tesseract-ocr tesseract-ocr-eng (Debian, Ubuntu), ' +
    'dnf install tesseract tesseract-langpack-eng (Fedora), brew install tesseract (macOS); it must be on PATH.',
};

/**
 * One OCR program and its version. `required`: scanned PDFs cannot be read without it (fail); otherwise
 * OCR works without it, less well (warn).
 */
export async function checkProgram(
  command: 'pdftoppm' | 'pdfimages' | 'tesseract',
  role: string,
  required: boolean,
): Promise<DoctorCheck> {
  const { found, output } = await runProgram(command, command === 'tesseract' ? ['--version'] : ['-v']);
  if (!found)
    return {
      check: command,
      status: required ? 'fail' : 'warn',
      detail: `not found on PATH: ${role}`,
      fix: command === 'tesseract' ? INSTALL.tesseract : INSTALL.poppler,
    };
  const version = new RegExp(`${command}(?: version)?\\s+v?(\\d[\\w.-]*)`, 'i').exec(output)?.[1];
  const check: DoctorCheck = { check: command, status: 'ok', detail: version ?? 'version unknown' };
  if (command !== 'tesseract') return check;
  const langs = await runProgram('tesseract', ['--list-langs']);
  if (!/^eng$/m.test(langs.output))
    return {
      ...check,
      status: 'fail',
      detail: `${check.detail}, without English language data (eng)`,
      fix: 'Install the English data: apt-get install tesseract-ocr-eng, dnf install tesseract-langpack-eng, or put eng.traineddata in the folder TESSDATA_PREFIX names.',
    };
  return { ...check, detail: `${check.detail} (eng)` };
}

/** ASSAY_OCR_PAGE_CPU_MS as the OCR will use it, and how pages are run. */
export function checkOcrSetting(): DoctorCheck {
  const raw = process.env.ASSAY_OCR_PAGE_CPU_MS;
  const budget = pageBudgetMs();
  const how = `of processor time per page; each tesseract runs one thread (OMP_THREAD_LIMIT=1), up to ${availableParallelism()} pages at a time`;
  if (raw === undefined || raw === '')
    return { check: 'ocr budget', status: 'ok', detail: `${budget} ms (default) ${how}` };
  const set = Number(raw);
  if (!(Number.isFinite(set) && set > 0))
    return {
      check: 'ocr budget',
      status: 'warn',
      detail: `ASSAY_OCR_PAGE_CPU_MS=${raw} is not a positive number of milliseconds; the default ${PAGE_CPU_BUDGET_MS} ms is used`,
      fix: `Set ASSAY_OCR_PAGE_CPU_MS to a positive number of milliseconds (default ${PAGE_CPU_BUDGET_MS}), or unset it.`,
    };
  return { check: 'ocr budget', status: 'ok', detail: `${budget} ms (ASSAY_OCR_PAGE_CPU_MS) ${how}` };
}

const HOME_FIX = 'Pass --home DIR or set ASSAY_HOME to a directory you can write to.';

/**
 * Whether a file can be created in `dir`, by creating one and removing it: access() says yes to root
 * everywhere, even on read-only or pseudo file systems.
 */
function probeWrite(dir: string): void {
  const probe = mkdtempSync(join(dir, '.assay-doctor-'));
  rmSync(probe, { recursive: true, force: true });
}

/** The home: a writable directory, or a path that can be created (nothing is left behind here). */
export function checkHome(home: string): DoctorCheck {
  const dir = resolve(home);
  try {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory())
        return { check: 'home', status: 'fail', detail: `${dir} is not a directory`, fix: HOME_FIX };
      probeWrite(dir);
      return { check: 'home', status: 'ok', detail: `${dir} (writable)` };
    }
    let parent = dirname(dir);
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
    if (!statSync(parent).isDirectory())
      return { check: 'home', status: 'fail', detail: `${parent} is not a directory`, fix: HOME_FIX };
    probeWrite(parent);
    return { check: 'home', status: 'ok', detail: `${dir} (does not exist yet; created on first use)` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return {
      check: 'home',
      status: 'fail',
      detail: `${dir} is not a writable directory and cannot be created (${code})`,
      fix: existsSync(dir) ? `${HOME_FIX} Or give yourself write access: chmod u+rwx ${dir}` : HOME_FIX,
    };
  }
}

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (m: number) => m.toString(8).padStart(4, '0');

/** <home>/keys (or ASSAY_KEYS_DIR) holds the secrets that seal job payloads: 0700, every file in it 0600. */
export function checkKeys(home: string): DoctorCheck {
  const dir = keysDir(resolve(home));
  if (!existsSync(dir))
    return { check: 'keys', status: 'ok', detail: 'none yet (made 0700/0600 on first use)' };
  if (process.platform === 'win32')
    return { check: 'keys', status: 'skip', detail: 'file modes not used on Windows' };
  try {
    const wrong: string[] = [];
    if (mode(dir) !== 0o700) wrong.push(`keys/ is ${octal(mode(dir))}`);
    const files = readdirSync(dir, { withFileTypes: true }).filter((f) => f.isFile());
    for (const f of files) {
      const m = mode(join(dir, f.name));
      if (m !== 0o600) wrong.push(`${f.name} is ${octal(m)}`);
    }
    if (wrong.length === 0)
      return { check: 'keys', status: 'ok', detail: `${dir} 0700, ${files.length} file(s) 0600` };
    return {
      check: 'keys',
      status: 'fail',
      detail: `${wrong.join(', ')} (expected 0700 and 0600)`,
      fix: `chmod 700 ${dir} && chmod 600 ${dir}/*`,
    };
  } catch (error) {
    return {
      check: 'keys',
      status: 'fail',
      detail: `${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      fix: `Make it yours and private: chmod 700 ${dir} && chmod 600 ${dir}/*`,
    };
  }
}

/** Opens the store as every command does (creating it on first use) and reports its schema. */
export function checkStore(
  home: string,
  open: (home: string) => Database.Database,
): { check: DoctorCheck; db?: Database.Database } {
  try {
    const db = open(home);
    const detail = `${db.name} (schema ${schemaVersion(db)})`;
    return { check: { check: 'store', status: 'ok', detail }, db };
  } catch (error) {
    const fix =
      error instanceof AssayError && error.suggestions.length > 0
        ? error.suggestions.join(' ')
        : 'Check the sqlite and home rows above; pass --home DIR to use another directory.';
    return { check: { check: 'store', status: 'fail', detail: firstLine((error as Error).message), fix } };
  }
}

/** The reference data reads use: what the store was synced with, or the dataset bundled with this assay. */
export function checkRefdata(db: Database.Database | undefined): DoctorCheck {
  let bundled: string;
  try {
    bundled = datasetVersion(bundledDataset(), 'bundled');
  } catch (error) {
    return {
      check: 'reference data',
      status: 'fail',
      detail: `the bundled dataset cannot be read: ${firstLine((error as Error).message)}`,
      fix: 'Reinstall assay: its data/ folder is missing or damaged.',
    };
  }
  if (!db)
    return { check: 'reference data', status: 'skip', detail: `${bundled} (bundled); the store is not open` };
  const meta = readSqliteMeta(db);
  if (!meta)
    return {
      check: 'reference data',
      status: 'ok',
      detail: `${bundled} (the bundled dataset; the store was never synced)`,
    };
  const detail = `${meta.dataset_version} from ${meta.source}, synced ${meta.synced_at}`;
  if (meta.source === 'bundled' && meta.dataset_version !== bundled)
    return {
      check: 'reference data',
      status: 'warn',
      detail: `${detail}; this assay bundles ${bundled}`,
      fix: 'Load the dataset bundled with this version: assay refdata sync',
    };
  return { check: 'reference data', status: 'ok', detail };
}
