import type { HealthEventInput } from './types.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The calendar date of an event: its event_date, or an id that is a date (what from-labs writes); null when
 * the request says only the age, as SPEC.md A1 requests do.
 */
export function eventDateOf(event: Pick<HealthEventInput, 'health_event_id' | 'event_date'>): string | null {
  if (event.event_date && ISO_DATE.test(event.event_date)) return event.event_date;
  return ISO_DATE.test(event.health_event_id) && !Number.isNaN(Date.parse(event.health_event_id))
    ? event.health_event_id
    : null;
}
