/**
 * `assay doctor`: everything a first run needs, checked up front instead of found when a job fails. The
 * runtime (Node, the native SQLite module), the OCR programs and setting, the home and its keys, the store
 * and the reference data, and a shared PostgreSQL store when one is named. `ok` is false when any check
 * failed; warnings do not fail it.
 */
import { isPostgresUrl } from '../engine/postgres/url.js';
import { openDatabase } from '../engine/sqlite/open-database.js';
import {
  type CheckStatus,
  checkHome,
  checkKeys,
  checkNode,
  checkOcrSetting,
  checkProgram,
  checkRefdata,
  checkSqlite,
  checkStore,
  type DoctorCheck,
} from './checks.js';
import { checkPostgresStore } from './postgres-check.js';

export type { CheckStatus, DoctorCheck };

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/** `store`: a postgres:// URL the node shares with others, checked besides the home. */
export async function runDoctor(home: string, store?: string): Promise<DoctorReport> {
  const [pdftoppm, pdfimages, tesseract] = await Promise.all([
    checkProgram('pdftoppm', 'scanned PDFs cannot be rasterised for OCR', true),
    checkProgram('pdfimages', 'scanned pages are rasterised instead of read at their own resolution', false),
    checkProgram('tesseract', 'scanned PDFs cannot be OCRed and fail with no_text_layer', true),
  ]);
  const checks: DoctorCheck[] = [
    checkNode(),
    checkSqlite(),
    pdftoppm,
    pdfimages,
    tesseract,
    checkOcrSetting(),
    checkHome(home),
    checkKeys(home),
  ];
  const sqlite = checkStore(home, (h) => openDatabase(h));
  checks.push(sqlite.check);
  try {
    checks.push(checkRefdata(sqlite.db));
  } finally {
    sqlite.db?.close();
  }
  if (isPostgresUrl(store)) checks.push(...(await checkPostgresStore(store)));
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

const MARK: Record<CheckStatus, string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** Rows for the terminal table: check, status, detail. */
export function doctorRows(report: DoctorReport): string[][] {
  return report.checks.map((c) => [c.check, MARK[c.status], c.detail]);
}

/** One line per problem: what to do about it. */
export function doctorFixes(report: DoctorReport): string[] {
  return report.checks.filter((c) => c.fix).map((c) => `${c.check}: ${c.fix}`);
}
