// Malformed and hostile multicast DNS packets a neighbour on the link could send (RFC 1035 §4.1 header
// and name format, RFC 6762), for the board to drop or answer without stopping: each is sent to the
// mDNS group and to the board's own address (tests/pico-emu/network-client.ts).
import * as dgram from 'node:dgram';

const header = (qd: number, an = 0, ns = 0, ar = 0, flags = 0): Buffer => {
  const b = Buffer.alloc(12);
  b.writeUInt16BE(flags, 2);
  [qd, an, ns, ar].forEach((n, i) => b.writeUInt16BE(n, 4 + 2 * i));
  return b;
};
const label = (n: number, fill = 0x61): Buffer => Buffer.concat([Buffer.from([n]), Buffer.alloc(n, fill)]);
const question = (type: number, klass: number): Buffer => Buffer.from([type >> 8, type & 255, klass >> 8, klass & 255]);
const QR = 0x8400; // a response, authoritative
const nameOf = (host: string): Buffer => Buffer.concat([...host.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
const A = 1, ANY = 255;

/** [what it is, the packet] for the board named `host` (brainstem-c1000001.local). */
export function hostilePackets(host: string): [string, Buffer][] {
  const own = (klass: number, type = A): Buffer => Buffer.concat([header(1), nameOf(host), question(type, klass)]);
  return [
    ['a truncated header (5 bytes)', Buffer.from([0, 0, 0, 0, 0])],
    ['a header alone claiming 65535 of each section', header(0xffff, 0xffff, 0xffff, 0xffff)],
    ['a question whose name points at itself', Buffer.concat([header(1), Buffer.from([0xc0, 0x0c]), question(1, 1)])],
    ['two names pointing at each other', Buffer.concat([header(2), Buffer.from([0xc0, 0x12]), question(1, 1), Buffer.from([0xc0, 0x0c]), question(1, 1)])],
    ['a pointer past the end', Buffer.concat([header(1), Buffer.from([0xc0, 0xff]), question(1, 1)])],
    ['a label longer than the packet', Buffer.concat([header(1), Buffer.from([63]), Buffer.from('short'), question(1, 1)])],
    ['a name over 255 bytes (five 63-byte labels)', Buffer.concat([header(1), ...Array.from({ length: 5 }, () => label(63)), Buffer.from([0]), question(1, 1)])],
    ['a reserved label type (0x80)', Buffer.concat([header(1), Buffer.from([0x85]), Buffer.from('local'), Buffer.from([0]), question(1, 1)])],
    ['a query for its name with class 254 (NONE)', own(254)],
    ['a query for its name with class 0 and the unicast-response bit', own(0x8000)],
    ['a query for its name of type ANY with class 255', own(255, ANY)],
    ['an answer for its name whose address runs past the end', Buffer.concat([header(0, 1, 0, 0, QR), nameOf(host), question(A, 1), Buffer.from([0, 0, 0, 120, 0, 4, 10, 0])])],
    ['an answer with a 65535-byte record length', Buffer.concat([header(0, 1, 0, 0, QR), Buffer.from([0]), question(1, 1), Buffer.from([0, 0, 0, 120, 0xff, 0xff, 1, 2])])],
    ['4 KiB of 0xFF', Buffer.alloc(4096, 0xff)],
  ];
}

/** Sends each packet to the mDNS group and to `address`, port 5353, from the namespace's side of the link. */
export async function sendHostile(packets: [string, Buffer][], address: string, from: string): Promise<number> {
  const sock = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  await new Promise<void>((r) => sock.bind(0, from, r));
  sock.setMulticastInterface(from);
  let sent = 0;
  for (const [, bytes] of packets) {
    for (const to of ['224.0.0.251', address]) {
      await new Promise<void>((r) => sock.send(bytes, 5353, to, (err) => { if (!err) sent++; r(); }));
    }
  }
  sock.close();
  return sent;
}
