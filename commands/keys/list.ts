import { BaseCommand } from '../../src/cli/base-command.js';
import { renderTable } from '../../src/cli/table.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/server/api-keys.js';

export default class KeysList extends BaseCommand<typeof KeysList> {
  static override summary = 'List API keys (ids and names; keys themselves are never stored).';
  static override description = 'With --json: an array of {id, name, createdAt, revokedAt}.';

  async run(): Promise<Array<{ id: string; name: string; createdAt: string; revokedAt: string | null }>> {
    const db = openDatabase(this.home);
    try {
      const keys = new ApiKeys(db, { home: this.home }).list().map((k) => ({
        id: k.id,
        name: k.name,
        createdAt: new Date(k.createdAt).toISOString(),
        revokedAt: k.revokedAt === null ? null : new Date(k.revokedAt).toISOString(),
      }));
      this.log(
        keys.length
          ? renderTable(
              ['ID', 'NAME', 'CREATED', 'REVOKED'],
              keys.map((k) => [k.id, k.name, k.createdAt, k.revokedAt]),
            )
          : 'No API keys.',
      );
      return keys;
    } finally {
      db.close();
    }
  }
}
