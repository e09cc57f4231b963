import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeDeliveryFailure, printDeliveryFailures } from '../../src/delivery/failure-words.js';
import { onDeliveryFailure, sendOnce } from '../../src/delivery/http.js';
import { allowPrivateTargets } from '../../src/delivery/target-guard.js';

const failure = (code: string) => ({ target: 'https://receiver.example.invalid/reports', code });

describe('why a delivery got no answer, for the CLI user', () => {
  it('tells a name that does not resolve from a refusal and from a time-out', () => {
    expect(describeDeliveryFailure(failure('ENOTFOUND'))).toBe(
      'Delivery to https://receiver.example.invalid/reports got no answer: the host name does not resolve (DNS) (ENOTFOUND).',
    );
    expect(describeDeliveryFailure(failure('EAI_AGAIN'))).toContain('does not resolve (DNS)');
    expect(describeDeliveryFailure(failure('TimeoutError'))).toContain('no answer within the time limit');
    expect(describeDeliveryFailure(failure('ECONNREFUSED'))).toContain('the connection was refused');
    expect(describeDeliveryFailure(failure('ERR_TLS_CERT_ALTNAME_INVALID'))).toContain('TLS certificate');
    expect(describeDeliveryFailure(failure('EWHATEVER'))).toContain('the connection failed (EWHATEVER)');
  });

  it('prints the cause of a real failed delivery once per target and cause, without the query', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    await new Promise<void>((done) => server.close(() => done()));
    const lines: string[] = [];
    const stop = printDeliveryFailures(onDeliveryFailure, (line) => lines.push(line));
    allowPrivateTargets(true);
    try {
      const url = `http://127.0.0.1:${port}/hook?token=secret`;
      for (let i = 0; i < 2; i++) await sendOnce(url, { method: 'POST', headers: {}, body: '{}' });
    } finally {
      allowPrivateTargets(false);
      stop();
    }
    expect(lines).toEqual([
      `Delivery to http://127.0.0.1:${port}/hook got no answer: the connection was refused (ECONNREFUSED).`,
    ]);
  });
});
