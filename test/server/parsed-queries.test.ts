import { describe, expect, it } from 'vitest';
import { ParsedQueries } from '../../src/server/parsed-queries.js';

describe('ParsedQueries', () => {
  it('parses a raw query once and answers the same value after', () => {
    const queries = new ParsedQueries<{ sex: string }>();
    let parses = 0;
    const parse = () => {
      parses += 1;
      return { sex: 'female' };
    };
    const first = queries.get('sex=female', parse);
    expect(queries.get('sex=female', parse)).toBe(first);
    expect(parses).toBe(1);
    queries.get('sex=male', parse);
    expect(parses).toBe(2);
  });

  it('keeps nothing of a query whose parse throws: it is refused again, every time', () => {
    const queries = new ParsedQueries<string>();
    let parses = 0;
    const refuse = () => {
      parses += 1;
      throw new Error('invalid');
    };
    expect(() => queries.get('sex=x', refuse)).toThrow('invalid');
    expect(() => queries.get('sex=x', refuse)).toThrow('invalid');
    expect(parses).toBe(2);
  });

  it('forgets everything when full, so junk queries cannot grow it', () => {
    const queries = new ParsedQueries<number>(2);
    let parses = 0;
    const parse = () => ++parses;
    queries.get('a', parse);
    queries.get('b', parse);
    queries.get('c', parse);
    expect(queries.get('c', parse)).toBe(3);
    expect(queries.get('a', parse)).toBe(4);
  });

  it('takes the query part of a URL', () => {
    expect(ParsedQueries.rawOf('/lab-ranges/?sex=F&vendor_name=Quest')).toBe('sex=F&vendor_name=Quest');
    expect(ParsedQueries.rawOf('/lab-ranges/')).toBe('');
    expect(ParsedQueries.rawOf('/lab-ranges/?')).toBe('');
  });
});
