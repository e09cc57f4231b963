import { Args } from '@oclif/core';
import { BaseCommand } from '../src/cli/base-command.js';
import { formatsSee } from '../src/cli/help.js';
import { readJsonFile } from '../src/cli/read-json.js';
import { renderTable } from '../src/cli/table.js';
import { preventRiskLine, preventRisks } from '../src/report/pdf/cardiovascular-risks.js';
import type { ScoreOutput } from '../src/schemas/cli/misc.js';
import { parseReportRequest } from '../src/schemas/report.js';
import { scoreRequest } from '../src/scoring/score-request.js';

const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined ? '-' : v.toFixed(digits);

export default class Score extends BaseCommand<typeof Score> {
  static override summary = 'Score a report request: models, domains and changes, as the report shows them.';
  static override description = [
    'Input: a report request (JSON): report_metadata, uid_ext, and either health_events (an array of ' +
      '{health_event_id, event_age, predictors: [{observation_code, value, unit}]}) or one health_event.',
    'Output: a table per event (domain, model, health score, health age, risk, risk ratio, missing inputs). ' +
      'With --json, {uid_ext, scoring_version, events, changes}: each event with its models, domains and ' +
      'where each input came from. Nothing is imputed: a missing input is listed, never guessed.',
    formatsSee('Report request'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> score request.json',
    '<%= config.bin %> score request.json --json',
  ];
  static override args = {
    request: Args.string({
      description:
        'Report request file (JSON): health_events for a full report, health_event for a condensed one.',
      required: true,
    }),
  };

  async run(): Promise<ScoreOutput> {
    const { request } = parseReportRequest(readJsonFile(this.args.request), {
      requireDestination: false,
      what: this.args.request,
    });
    const report = scoreRequest(request);
    for (const event of report.events) {
      this.log(`event ${event.health_event_id}  age ${event.event_age}  sex ${event.sex ?? 'unknown'}`);
      this.log(
        renderTable(
          ['DOMAIN', 'MODEL', 'SCORE', 'HEALTH AGE', 'RISK', 'RATIO', 'MISSING'],
          event.domains.map((d) => [
            d.domain,
            d.model,
            fmt(d.health_score),
            fmt(d.health_age),
            d.risk === null ? '-' : `${(d.risk * 100).toFixed(1)}%`,
            fmt(d.risk_ratio, 2),
            d.inputs_missing.join(', ') || '-',
          ]),
        ),
      );
      const risks = preventRisks(event);
      const tenYear = preventRiskLine(risks, '10y');
      const thirtyYear = preventRiskLine(risks, '30y');
      if (tenYear) this.log(`PREVENT 10-year risk: ${tenYear}`);
      if (thirtyYear) this.log(`PREVENT 30-year risk: ${thirtyYear}`);
      for (const d of event.domains) this.log(`${d.domain}: ${d.model_reason}`);
      this.log('');
    }
    return report;
  }
}
