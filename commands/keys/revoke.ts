import { Args } from '@oclif/core';
import { BaseCommand } from '../../src/cli/base-command.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { ApiKeys } from '../../src/server/api-keys.js';

export default class KeysRevoke extends BaseCommand<typeof KeysRevoke> {
  static override summary = 'Revoke an API key: requests with it get 401 from then on.';
  static override description = 'With --json: {id, revokedAt}.';
  static override args = {
    id: Args.string({ description: 'Key id (from `assay keys list`).', required: true }),
  };

  async run(): Promise<{ id: string; revokedAt: string }> {
    const db = openDatabase(this.home);
    try {
      const key = new ApiKeys(db, { home: this.home }).revoke(this.args.id);
      this.log(`API key ${key.id} revoked.`);
      return { id: key.id, revokedAt: new Date(key.revokedAt ?? Date.now()).toISOString() };
    } finally {
      db.close();
    }
  }
}
