import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { syncRows } from '../../src/refdata/present.js';
import { sourceFromFlag, syncRefdata } from '../../src/refdata/sync.js';
import type { RefdataSyncOutput } from '../../src/schemas/cli/refdata.js';

export default class RefdataSync extends EngineCommand<typeof RefdataSync> {
  static override summary = 'Load reference data into the store, all or nothing.';
  static override description = [
    'Without --from, loads the dataset bundled with assay. With an http(s) URL, reads a compatible server ' +
      '(GET /reference-data/, /lab-ranges/, /top-disease-predictors/ and POST /predictor-statistics/ for each ' +
      "sex and age 18-85: 139 requests). With a folder, reads a lab's own files (reference-data.json, " +
      'predictor-statistics.json, top-disease-predictors.json, lab-ranges.json or lab-ranges.csv) over what ' +
      'the store holds. Everything is validated first and written in one transaction; syncing the same data ' +
      'again changes nothing.',
    'With --json: {dataset_version, source, scoring_version, synced_at, resources}.',
    formatsSee('Reference data'),
  ].join('\n\n');

  static override examples = [
    '<%= config.bin %> refdata sync',
    '<%= config.bin %> refdata sync --from https://refdata.example.com --api-key KEY --json',
    '<%= config.bin %> refdata sync --from ./our-lab-ranges',
  ];

  static override flags = {
    from: Flags.string({
      description: 'Server URL (http/https) or folder to sync from; default: the bundled dataset.',
    }),
    'api-key': Flags.string({
      description: 'API key for the server (x-api-key header).',
      env: 'ASSAY_REFDATA_API_KEY',
    }),
  };

  async run(): Promise<RefdataSyncOutput> {
    const store = await openRefdataStore(this.storeTarget);
    try {
      const result = await syncRefdata(store, sourceFromFlag(this.flags.from, this.flags['api-key']));
      this.log(renderTable(['RESOURCE', 'ADDED', 'UPDATED', 'REMOVED'], syncRows(result)));
      this.log(`dataset ${result.dataset_version} from ${result.source}`);
      return result;
    } finally {
      await store.close();
    }
  }
}
