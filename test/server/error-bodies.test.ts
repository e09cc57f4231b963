import { afterEach, describe, expect, it, vi } from 'vitest';
import { labErrorBody } from '../../src/server/error-bodies.js';

const notFound = { statusCode: 404, code: 'not_found', message: 'No lab job.', headers: {} };

describe('labErrorBody', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('dates each body with the time it is made, to the millisecond', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T10:00:00.001Z'));
    expect(labErrorBody(notFound, 'r-1').timestamp).toBe('2026-03-01T10:00:00.001Z');
    expect(labErrorBody(notFound, 'r-2')).toEqual({
      error: 'not_found',
      message: 'No lab job.',
      timestamp: '2026-03-01T10:00:00.001Z',
      requestId: 'r-2',
    });
    vi.setSystemTime(new Date('2026-03-01T10:00:00.002Z'));
    expect(labErrorBody(notFound, 'r-3').timestamp).toBe('2026-03-01T10:00:00.002Z');
    vi.setSystemTime(new Date('2027-01-01T00:00:00.000Z'));
    expect(labErrorBody(notFound, 'r-4').timestamp).toBe('2027-01-01T00:00:00.000Z');
  });
});
