import { Args } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { openKeyStore } from '../../src/keys/open.js';
import type { KeysRevokeOutput } from '../../src/schemas/cli/keys.js';

export default class KeysRevoke extends EngineCommand<typeof KeysRevoke> {
  static override summary = 'Revoke an API key: requests with it get 401 from then on.';
  static override description =
    'With --json: {id, revokedAt}. A running `assay serve` refuses the key within 2 seconds, on every node.';
  static override args = {
    id: Args.string({ description: 'Key id (from `assay keys list`).', required: true }),
  };

  async run(): Promise<KeysRevokeOutput> {
    const keys = await openKeyStore(this.storeTarget);
    try {
      const key = await keys.revoke(this.args.id);
      this.log(`API key ${key.id} revoked.`);
      return { id: key.id, revokedAt: new Date(key.revokedAt ?? Date.now()).toISOString() };
    } finally {
      await keys.close();
    }
  }
}
