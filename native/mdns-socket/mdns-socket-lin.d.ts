// The type of this platform's mDNS socket module (its .js declares an XS host function, which tsc
// does not read): the same as src/device/mdns-socket/ecma419.ts.
import type { MdnsSocket } from '../../src/device/mdns-socket/ecma419';

export type { MdnsSocket };

export function openMdnsSocket(onReadable: (count: number) => void): MdnsSocket;
