/**
 * A report with no score in it is no report: when the latest event gives no domain a model and no
 * biological age, `report from-labs` stops (exit 1) and says what would make one: which tests, which flags.
 */
import { inputLabel, inSentence } from '../../scoring/input-labels.js';
import type { EventScore } from '../../scoring/types.js';
import { DOMAIN_LABELS } from '../model/labels.js';

/** The flag that supplies an input a lab report does not print. */
const FLAG_FOR: Record<string, string> = {
  systolic_bp: '--sbp',
  diastolic_bp: '--dbp',
  bmi: '--bmi (or --height and --weight)',
  sex: '--sex',
  smoking: '--smoker or --no-smoker',
  diabetes: '--diabetes or --no-diabetes',
  bp_treatment: '--bp-treated or --no-bp-treated',
  parental_diabetes: '--parental-diabetes or --no-parental-diabetes',
  statin: '--statin or --no-statin',
  race: '--race',
};

/** Null when the event has something to report; else one line per domain with what it lacks. */
export function emptyReportReasons(latest: EventScore): string[] | null {
  if (latest.domains.some((d) => d.model !== null)) return null;
  return latest.domains.map((d) => {
    const tests = d.inputs_missing.filter((i) => !(i in FLAG_FOR) && i !== 'age');
    const flags = d.inputs_missing.flatMap((i) => (FLAG_FOR[i] ? [FLAG_FOR[i]] : []));
    const needs = [
      ...(tests.length > 0 ? [`the tests ${tests.map((t) => inSentence(inputLabel(t))).join(', ')}`] : []),
      ...(flags.length > 0 ? [`the flags ${flags.join(', ')}`] : []),
    ];
    return needs.length > 0
      ? `${DOMAIN_LABELS[d.domain]}: add ${needs.join(' and ')}.`
      : `${DOMAIN_LABELS[d.domain]}: ${d.model_reason}`;
  });
}
