// Listens on the mDNS group from the namespace's side of the link and keeps when the board sent a
// response with answers (an announcement, or an answer to someone's query).
import * as dgram from 'node:dgram';

export interface MdnsWatch { responses: number[]; close(): void }

export async function watchResponses(board: string, local: string): Promise<MdnsWatch> {
  const responses: number[] = [];
  const sock = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  sock.on('message', (msg, rinfo) => {
    // QR set, ANCOUNT > 0 (RFC 1035 §4.1.1)
    if (rinfo.address === board && msg.length >= 12 && msg[2] & 0x80 && msg.readUInt16BE(6) > 0) responses.push(Date.now());
  });
  await new Promise<void>((r) => sock.bind(5353, '0.0.0.0', r));
  sock.addMembership('224.0.0.251', local);
  return { responses, close: () => sock.close() };
}
