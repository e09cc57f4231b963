import { BaseCommand } from '../../src/cli/base-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { topRows } from '../../src/refdata/present.js';
import { RefdataStore } from '../../src/refdata/store.js';
import type { TopDiseasePredictors } from '../../src/schemas/refdata.js';

export default class RefdataTop extends BaseCommand<typeof RefdataTop> {
  static override summary = 'The top-ranked predictors of each health domain.';
  static override description = [
    'With --json: {top_disease_predictors: [{disease, predictors: [{observation_codes, rank, strength}]}]}.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = ['<%= config.bin %> refdata top', '<%= config.bin %> refdata top --json'];

  async run(): Promise<TopDiseasePredictors> {
    const db = openDatabase(this.home);
    try {
      const top = new RefdataStore(db).topDiseasePredictors();
      this.log(renderTable(['DOMAIN', 'RANK', 'STRENGTH', 'OBSERVATION CODES'], topRows(top)));
      return top;
    } finally {
      db.close();
    }
  }
}
