// `src/device/mdns-socket` on ESP32 (the manifest's platform sections map it): the multicast DNS
// socket, an ECMA-419 UDP socket bound to port 5353 that has joined 224.0.0.251 with add(), which on
// ESP32 joins on every interface with an address (modules/io/socket/lwip/udp.c:233-254). The Pico W
// and the desktop host map their own (native/mdns-socket/mdns-socket-pico, -lin): docs/module.md
// §Discovery.

import UDP from 'embedded:io/socket/udp';
import { MDNS_GROUP, MDNS_PORT } from '../../dns/mdns-constants';

/** What the announcer uses of the socket. */
export interface MdnsSocket {
  read(): (ArrayBuffer & { address: string; port: number }) | undefined;
  write(bytes: Uint8Array, address: string, port: number): void;
  close(): void;
}

/** The socket, bound and joined; throws when either fails (the socket is closed then). */
export function openMdnsSocket(onReadable: (count: number) => void): MdnsSocket {
  const socket = new UDP({ port: MDNS_PORT, onReadable }) as unknown as MdnsSocket & { add(address: string): void };
  try {
    socket.add(MDNS_GROUP);
  } catch (e) {
    socket.close();
    throw e;
  }
  return socket;
}
