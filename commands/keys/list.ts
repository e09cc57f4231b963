import { EngineCommand } from '../../src/cli/engine-command.js';
import { renderTable } from '../../src/cli/table.js';
import { openKeyStore } from '../../src/keys/open.js';
import type { KeysListOutput } from '../../src/schemas/cli/keys.js';

export default class KeysList extends EngineCommand<typeof KeysList> {
  static override summary = 'List API keys (ids and names; keys themselves are never stored).';
  static override description = 'With --json: an array of {id, name, createdAt, revokedAt}.';

  async run(): Promise<KeysListOutput> {
    const store = await openKeyStore(this.storeTarget);
    try {
      const keys = (await store.list()).map((k) => ({
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
      await store.close();
    }
  }
}
