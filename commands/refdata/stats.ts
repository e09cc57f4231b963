import { randomUUID } from 'node:crypto';
import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { statisticRows } from '../../src/refdata/present.js';
import type { RefdataStatsOutput } from '../../src/schemas/cli/refdata.js';
import { parseRefdata, predictorStatisticsRequestSchema } from '../../src/schemas/refdata.js';

export default class RefdataStats extends EngineCommand<typeof RefdataStats> {
  static override summary = 'Population statistics and optimal ranges of each predictor for a sex and age.';
  static override description = [
    'With --json: {header: {event_id, event_asof_dtutc, scoring_version}, predictor_statistics: [{name, observation_codes, mean, optimal_min, optimal_max, absolute_min, absolute_max, partner_lab_range, partner_lab_min, partner_lab_max}]}.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> refdata stats --sex female --age 50',
    '<%= config.bin %> refdata stats --sex male --age 62.5 --json',
  ];

  static override flags = {
    sex: Flags.string({ description: 'Sex of the population.', options: ['female', 'male'], required: true }),
    age: Flags.string({
      description: 'Age in years, 0 to 120 (the nearest whole year is used).',
      required: true,
    }),
    'event-id': Flags.string({ description: 'event_id echoed in the header (default: a new UUID).' }),
  };

  async run(): Promise<RefdataStatsOutput> {
    const request = parseRefdata(predictorStatisticsRequestSchema, 'The request', {
      header: {
        event_id: this.flags['event-id'] ?? randomUUID(),
        event_asof_dtutc: new Date().toISOString(),
      },
      sex: this.flags.sex,
      age: this.flags.age.trim() === '' ? Number.NaN : Number(this.flags.age),
    });
    const store = await openRefdataStore(this.storeTarget);
    try {
      const response = await store.predictorStatistics(request);
      if (response.predictor_statistics.length === 0) this.log(`No statistics for age ${request.age}.`);
      else
        this.log(
          renderTable(
            ['NAME', 'MEAN', 'OPTIMAL', 'P1-P99', 'PARTNER RANGE', 'CODES'],
            statisticRows(response.predictor_statistics),
          ),
        );
      return response;
    } finally {
      await store.close();
    }
  }
}
