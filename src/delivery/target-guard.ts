import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from './addresses.js';

let privateAllowed: boolean | undefined;

/**
 * Whether deliveries in this process may reach loopback, private and other non-public addresses. One
 * setting per process: `assay serve --allow-private-targets` sets it, and any other process (a CLI worker)
 * reads ASSAY_ALLOW_PRIVATE_TARGETS. It is read when each delivery connects, not when the job was
 * accepted, so a job accepted under the flag is refused once the process runs without it.
 */
export function allowPrivateTargets(allowed: boolean): void {
  privateAllowed = allowed;
}

export function privateTargetsAllowed(): boolean {
  if (privateAllowed !== undefined) return privateAllowed;
  const env = process.env.ASSAY_ALLOW_PRIVATE_TARGETS?.toLowerCase();
  return env === '1' || env === 'true';
}

/** A delivery the target policy refused; its message is safe to show the caller. */
export class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(what: string) {
    super(`${what} is not a public internet address; deliveries go only to public addresses.`);
    this.name = 'TargetRefusedError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of every delivery socket: resolves the name, refuses it when any address it resolves to is
 * not public, and hands the socket exactly the addresses it checked. The check and the connection use one
 * answer, so a name cannot resolve to a public address for the check and a private one for the connect.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address)))
      return callback(new TargetRefusedError(`The host ${hostname}`), []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

/** Sockets skip `lookup` for an address written in the URL, so a literal is checked here instead. */
export function checkLiteralHost(hostname: string): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new TargetRefusedError(`The address ${host}`);
}
