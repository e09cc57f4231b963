import { describe, expect, it } from 'vitest';
import { UnknownJobs } from '../../src/server/unknown-jobs.js';

describe('UnknownJobs', () => {
  it('remembers a miss per owner: another owner, or no owner, has not seen it', () => {
    const unknown = new UnknownJobs();
    unknown.add('key-a', 'job-1');
    expect(unknown.has('key-a', 'job-1')).toBe(true);
    expect(unknown.has('key-b', 'job-1')).toBe(false);
    expect(unknown.has(null, 'job-1')).toBe(false);
    expect(unknown.has('key-a', 'job-2')).toBe(false);
  });

  it('an owner and id cannot be spliced into another pair', () => {
    const unknown = new UnknownJobs();
    unknown.add('a', 'b\nc');
    expect(unknown.has('a\nb', 'c')).toBe(false);
  });

  it('holds at most its bound: full, it forgets everything and starts again', () => {
    const unknown = new UnknownJobs(3);
    for (const id of ['1', '2', '3']) unknown.add('k', id);
    expect(['1', '2', '3'].every((id) => unknown.has('k', id))).toBe(true);
    unknown.add('k', '4');
    expect(unknown.has('k', '1')).toBe(false);
    expect(unknown.has('k', '4')).toBe(true);
  });
});
