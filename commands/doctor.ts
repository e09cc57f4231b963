import { EngineCommand } from '../src/cli/engine-command.js';
import { renderTable } from '../src/cli/table.js';
import { doctorFixes, doctorRows, runDoctor } from '../src/doctor/doctor.js';
import { EXIT } from '../src/errors.js';
import type { DoctorOutput } from '../src/schemas/cli/misc.js';

export default class Doctor extends EngineCommand<typeof Doctor> {
  static override summary = 'Check that this machine can run assay, and say how to fix what is missing.';
  static override description =
    'Checks the Node.js version against the supported range, that the native SQLite module loads, that ' +
    'pdftoppm, pdfimages and tesseract (with English data) are on PATH for OCR of scanned PDFs, the OCR ' +
    'budget per page (ASSAY_OCR_PAGE_CPU_MS), that the home is a writable directory (or can be created) ' +
    'with a private keys/ folder, that the job store opens (it is created on first use, as by any ' +
    'command), and which reference dataset reads use. With --store postgres://..., also that the server ' +
    'answers, that its schema is the one this assay writes, and that LISTEN/NOTIFY reaches this node. Prints one row per check and the fix for each ' +
    'problem. Exit code 0 when nothing failed (warnings allowed), 1 otherwise. With --json: ' +
    '{ok, checks: [{check, status (ok, warn, fail or skip), detail, fix?}]}.';

  static override examples = [
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor --json',
    '<%= config.bin %> doctor --home /srv/assay',
    '<%= config.bin %> doctor --store postgres://assay@db.internal/assay',
  ];

  async run(): Promise<DoctorOutput> {
    const report = await runDoctor(this.home, this.store);
    this.log(renderTable(['CHECK', 'STATUS', 'DETAIL'], doctorRows(report)));
    const fixes = doctorFixes(report);
    if (fixes.length > 0) {
      this.log('\nTo fix:');
      for (const fix of fixes) this.log(`  ${fix}`);
    }
    this.log(report.ok ? '\nassay is ready to use.' : '\nassay found problems: see the fixes above.');
    if (!report.ok) process.exitCode = EXIT.jobFailed;
    return report;
  }
}
