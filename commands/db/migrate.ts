import { EngineCommand } from '../../src/cli/engine-command.js';
import { renderTable } from '../../src/cli/table.js';
import { migrateStores } from '../../src/engine/migrate-store.js';
import { isPostgresUrl } from '../../src/engine/postgres/url.js';
import type { DbMigrateOutput } from '../../src/schemas/cli/misc.js';
import { prepareSealingKeys } from '../../src/sealing-keys.js';

export default class DbMigrate extends EngineCommand<typeof DbMigrate> {
  static override summary =
    'Bring the stores to this version of assay: the home file and the --store database.';
  static override description = [
    'Applies the numbered migrations each store has not seen: the SQLite file under --home always, and the ' +
      'PostgreSQL store when --store / ASSAY_STORE names one. Every command also migrates on open; run this once before starting new nodes of a new version. ' +
      'Safe to run again and on several nodes at once. A store written by a newer assay is refused. With a ' +
      'PostgreSQL store it also makes the sealing keys missing from the keys folder (ASSAY_KEYS_DIR, default ' +
      '<home>/keys), which every node must share: run it on the first node, then copy that folder to the others.',
    'With --json: an array of {store, location, from, to}.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> db migrate',
    'ASSAY_STORE=postgres://assay:secret@db.internal:5432/assay <%= config.bin %> db migrate --json',
  ];

  async run(): Promise<DbMigrateOutput> {
    const results = await migrateStores(this.storeTarget);
    if (isPostgresUrl(this.store)) {
      const dir = await prepareSealingKeys(this.home);
      this.logToStderr(
        `Sealing keys are in ${dir}: every node of this store must hold the same (ASSAY_KEYS_DIR).`,
      );
    }
    this.log(
      renderTable(
        ['STORE', 'LOCATION', 'FROM', 'TO'],
        results.map((r) => [r.store, r.location, String(r.from), String(r.to)]),
      ),
    );
    return results;
  }
}
