/**
 * Why a delivery got no HTTP answer, in words, for the person running the CLI on their own machine. The
 * job record keeps one generic message (SSRF: the detail would make deliveries a port scanner for a
 * remote caller); the CLI's own worker may say which it was, since the CLI's user owns the network.
 */
import type { DeliveryFailure } from './http.js';

const CAUSES: Array<[RegExp, string]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'the host name does not resolve (DNS)'],
  [/^ECONNREFUSED$/, 'the connection was refused'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'the connection was dropped'],
  [
    /^(TimeoutError|AbortError|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)$/,
    'no answer within the time limit',
  ],
  [/^ETARGETREFUSED$/, 'the address is not public (--allow-private-targets lifts this)'],
  [/^(ENETUNREACH|EHOSTUNREACH)$/, 'the network or host is unreachable'],
  [/CERT|TLS|SSL/, 'the TLS certificate or handshake was refused'],
];

export function describeDeliveryFailure(failure: DeliveryFailure): string {
  const cause = CAUSES.find(([pattern]) => pattern.test(failure.code))?.[1] ?? 'the connection failed';
  return `Delivery to ${failure.target} got no answer: ${cause} (${failure.code}).`;
}

/** Print each target's failure cause once per cause while a command runs; returns the unsubscribe. */
export function printDeliveryFailures(
  subscribe: (listener: (failure: DeliveryFailure) => void) => () => void,
  print: (line: string) => void,
): () => void {
  const said = new Set<string>();
  return subscribe((failure) => {
    const key = `${failure.target}\u0000${failure.code}`;
    if (said.has(key)) return;
    said.add(key);
    print(describeDeliveryFailure(failure));
  });
}
