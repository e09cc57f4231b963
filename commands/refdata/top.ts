import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { topRows } from '../../src/refdata/present.js';
import type { RefdataTopOutput } from '../../src/schemas/cli/refdata.js';

export default class RefdataTop extends EngineCommand<typeof RefdataTop> {
  static override summary = 'The top-ranked predictors of each health domain.';
  static override description = [
    'With --json: {top_disease_predictors: [{disease, predictors: [{observation_codes, rank, strength}]}]}.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = ['<%= config.bin %> refdata top', '<%= config.bin %> refdata top --json'];

  async run(): Promise<RefdataTopOutput> {
    const store = await openRefdataStore(this.storeTarget);
    try {
      const top = await store.topDiseasePredictors();
      this.log(renderTable(['DOMAIN', 'RANK', 'STRENGTH', 'OBSERVATION CODES'], topRows(top)));
      return top;
    } finally {
      await store.close();
    }
  }
}
