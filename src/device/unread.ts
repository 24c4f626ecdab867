// Reads away what a peer sent that the server will never read, before its socket closes. On the Pico W
// the SDK's close is tcp_close then tcp_abort (modules/network/socket/lwip/modLwipSafe.h:32). lwIP's
// tcp_close answers a connection whose received bytes were not all taken by the application
// (tcp_recved) with a RST and frees its pcb at once (lwIP src/core/tcp.c:352-371); the tcp_abort after
// it frees the same pcb a second time (tcp.c:621), and lwIP's pcb pool then hands that one pcb to two
// later connections. A read takes the bytes (the SDK calls tcp_recved for each buffer read:
// modules/io/socket/lwip/tcp.c:362), so the close that follows is lwIP's ordinary one (a FIN, then
// tcp_abort's RST, one free). The bytes go into the server's shared read buffer: nothing is allocated.

import type TCP from 'embedded:io/socket/tcp';

/** What the SDK's read(buffer) answers: the count, or nothing when no bytes wait (lwip/tcp.c:308-309, 326). */
type ReadInto = (buffer: Uint8Array) => number | undefined;

/**
 * Read and drop every byte waiting on `tcp`: first the `known` bytes its last onReadable reported, then
 * what arrived since, in reads that halve while fewer bytes wait than asked (the SDK throws "invalid"
 * for a read of more than is there: lwip/tcp.c:331-332).
 */
export function discardUnread(tcp: TCP, buffer: Uint8Array, known: number): void {
  const read = tcp.read as unknown as ReadInto;
  let size = buffer.length;
  for (;;) {
    const n = known > 0 ? Math.min(known, buffer.length) : size;
    let got: number | undefined;
    try {
      got = read.call(tcp, n === buffer.length ? buffer : buffer.subarray(0, n));
    } catch {
      known = 0;
      if (n === 1) return; // the socket takes no reads (closed)
      size = n >> 1;
      continue;
    }
    if (got === undefined) return; // nothing waits
    known -= n;
  }
}
