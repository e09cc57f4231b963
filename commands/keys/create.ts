import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { openKeyStore } from '../../src/keys/open.js';
import type { KeysCreateOutput } from '../../src/schemas/cli/keys.js';

export default class KeysCreate extends EngineCommand<typeof KeysCreate> {
  static override summary =
    'Create an API key for `assay serve`. The key and its webhook secret are shown once.';
  static override description =
    'With --json: {id, name, key, webhookSecret, createdAt}. Send the key as the x-api-key header; lab webhooks are signed with the webhook secret.';
  static override examples = ['<%= config.bin %> keys create --name ci-pipeline'];
  static override flags = { name: Flags.string({ description: 'A label for the key.', required: true }) };

  async run(): Promise<KeysCreateOutput> {
    const keys = await openKeyStore(this.storeTarget);
    try {
      const { key, apiKey } = await keys.create(this.flags.name);
      this.log(`id              ${apiKey.id}`);
      this.log(`key             ${key}`);
      this.log(`webhook secret  ${apiKey.webhookSecret}`);
      this.logToStderr('Store both now: only a hash of the key is kept, and neither is shown again.');
      return {
        id: apiKey.id,
        name: apiKey.name,
        key,
        webhookSecret: apiKey.webhookSecret,
        createdAt: new Date(apiKey.createdAt).toISOString(),
      };
    } finally {
      await keys.close();
    }
  }
}
