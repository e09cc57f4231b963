/**
 * `assay doctor`: everything a first run needs, checked up front instead of found when a job fails. The
 * runtime (Node, the native SQLite module), the OCR programs and setting, the home and its keys, the store
 * and the reference data. `ok` is false when any check failed; warnings do not fail it.
 */
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

export type { CheckStatus, DoctorCheck };

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

export async function runDoctor(home: string): Promise<DoctorReport> {
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
  const store = checkStore(home, (h) => openDatabase(h));
  checks.push(store.check);
  try {
    checks.push(checkRefdata(store.db));
  } finally {
    store.db?.close();
  }
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
