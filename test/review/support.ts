import type { ExtractionCore, PanelResult } from '../../src/lab/types.js';

type Row = Partial<PanelResult> & Pick<PanelResult, 'biomarker'>;

export function row(r: Row): PanelResult {
  return {
    resultValue: '1',
    resultType: 'numeric',
    resultUnit: 'mg/dL',
    loincCode: null,
    loincMatchType: null,
    ucumCode: 'mg/dL',
    ucumMatchMethod: 'static_map',
    minRefRangeValue: null,
    maxRefRangeValue: null,
    referenceRangeText: null,
    pageNumber: 1,
    flag: null,
    doubts: [],
    bbox: null,
    ...r,
  };
}

/** A completed extraction body of two panels: glucose is doubted (an OCR misreading), the rest is not. */
export function sampleResult(): ExtractionCore & { jobId: string; status: 'completed' } {
  return {
    jobId: '00000000-0000-4000-8000-000000000001',
    status: 'completed',
    labName: 'Quest Diagnostics',
    dateCollected: '2025-03-14',
    verification: { dobFound: false, dobMatches: null },
    panels: [
      {
        panelName: 'COMPREHENSIVE METABOLIC PANEL',
        panelCode: '24323-8',
        dateCollected: '2025-03-14',
        pageNumber: 1,
        panelResults: [
          row({
            id: 'p1-glucose-1',
            biomarker: 'GLUCOSE',
            resultValue: 'eg',
            resultType: 'string',
            resultUnit: 'MEL',
            ucumCode: null,
            ucumMatchMethod: 'not_found',
            referenceRangeText: '62-99',
            minRefRangeValue: 62,
            maxRefRangeValue: 99,
            doubts: [{ code: 'ocr_malformed_value', message: 'GLUCOSE has a value no laboratory prints' }],
            bbox: { page: 1, x: 49, y: 211.7, width: 514.6, height: 10.5 },
          }),
          row({ id: 'p1-albumin-1', biomarker: 'ALBUMIN', resultValue: '4.7', resultUnit: 'g/dL' }),
        ],
      },
      {
        panelName: 'HEMOGLOBIN A1c',
        panelCode: '4548-4',
        dateCollected: '2025-03-14',
        pageNumber: 1,
        panelResults: [
          row({
            id: 'p1-hemoglobin-a1c-1',
            biomarker: 'HEMOGLOBIN A1c',
            resultValue: '5.2',
            resultUnit: '%',
          }),
        ],
      },
    ],
    mergeActions: [],
    validationFlags: [
      {
        code: 'ocr_malformed_value',
        severity: 'warning',
        message: 'GLUCOSE has a value no laboratory prints',
        pageNumber: 1,
        resultId: 'p1-glucose-1',
      },
      {
        code: 'unread_row',
        severity: 'warning',
        message: 'A line on page 1 looks like a result',
        pageNumber: 1,
      },
    ],
    coverage: { resultsRead: 3, resultLikeRows: 4, ratio: 0.75 },
  };
}
