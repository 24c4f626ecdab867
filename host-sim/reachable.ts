// Where a server listening on an address can be reached, for the lines the simulator prints: a
// wildcard address (0.0.0.0, ::) is where it listens, not an address to connect to, so loopback is
// shown for this machine, and this machine's own addresses for the others.
import * as os from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0']);

export interface Reachable {
  /** The base URL to print (http://host:port), one this machine can connect to. */
  base: string;
  /** Base URLs at this machine's other addresses for a wildcard address (IPv6 ones too for ::), else null. */
  others: string[] | null;
}

const url = (address: string, port: number): string => `http://${address.includes(':') ? `[${address}]` : address}:${port}`;

export function reachable(host: string, port: number, interfaces = os.networkInterfaces()): Reachable {
  if (!WILDCARDS.has(host)) return { base: url(host, port), others: null };
  const v6 = host !== '0.0.0.0';
  const others: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.internal || (a.family === 'IPv6' && (!v6 || a.address.toLowerCase().startsWith('fe80')))) continue;
      others.push(url(a.address, port));
    }
  }
  return { base: url('127.0.0.1', port), others };
}
