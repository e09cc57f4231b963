/**
 * A domain whose model applies but cannot take a value (HDL 18 mg/dL, below PREVENT's 20-100) is shown as
 * not scored for that reason, on the card and on the Methods page; never as "not enough data".
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel, domainOf } from '../../src/report/model/model.js';
import { renderReport } from '../../src/report/pdf/render.js';
import { parseReportRequest } from '../../src/schemas/report.js';
import { fixtureJson } from './support/fixtures.js';
import { pageTexts } from './support/pdf.js';

const HDL = '2085-9';

function withHdl(value: string) {
  const request = structuredClone(fixtureJson('full-no-destination')) as {
    health_events: Array<{ predictors: Array<{ observation_code: string; value: string }> }>;
  };
  for (const event of request.health_events)
    for (const p of event.predictors) if (p.observation_code === HDL) p.value = value;
  const { request: parsed, variant } = parseReportRequest(request, { requireDestination: false });
  return buildReportModel(parsed, variant);
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("a value outside the chosen model's range", () => {
  it('leaves the cardiovascular card "Not scored" and names the value and range on Methods', async () => {
    const model = withHdl('18');
    const cv = domainOf(model.latest, 'cardiovascular');
    expect(cv?.model).toBeNull();
    expect(cv?.chosen_model).toBeTruthy();
    const pages = (await pageTexts(await renderReport(model))).map(flat);
    expect(pages[0]).toContain('Not scored');
    expect(pages[0]).not.toMatch(/Cardiovascular.{0,80}Not enough data/);
    const methods = pages.find((p) => p.includes('What could not be computed')) ?? '';
    expect(methods).toMatch(
      /Cardiovascular: not computed\. .*HDL cholesterol 18 is outside \[20, 100\] mg\/dL/,
    );
  });

  it('scores the same person normally once HDL is inside the range', async () => {
    const cv = domainOf(withHdl('21').latest, 'cardiovascular');
    expect(cv?.model).not.toBeNull();
    expect(cv?.value).not.toBeNull();
  });
});
