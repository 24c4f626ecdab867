// XS bundle entry for the cost of an authenticated PUT (tests/xs-heap.test.ts, tools/xs-heap-figures.mjs):
// the device-side core as the device wires it (one Api with a token, one keep-alive Connection) and a
// PUT of system/0/hbinterval whose bytes the Node side makes, with `Authorization: Bearer` or with
// HTTP Digest answering the challenge this Api issued. SHA-256 is tests/xs/xs-sha256.ts (the
// device's is crypt's native Digest). globalThis.handleCommand(msg), msg[0]:
//   'S'          set up the core: fresh Api (token 't0ken') and Connection
//   'P' bytes    the connection receives these bytes; answers JSON {status, challenge} of the last answer
//                (challenge: its first WWW-Authenticate line, '' when none)
//   'Q' bytes    as 'P', answering nothing (what the request allocates, without the report's own)
//   'H'          the SHA-256 stand-in alone, fed as one Digest check feeds it (4 hashes, 13 writes):
//                its own cost, which the device's native Digest does not have in this form

import { Connection, ConnectionShared, type Transport } from '../../src/http/connection';
import { Api } from '../../src/api/api';
import { createSimModule } from '../../hal/sim/index';
import { standardTextCodec } from '../../util/text';
import { FIXED_MS, SERIAL_NUMBER } from './xs-entry';
import { latin1Bytes } from './script-format';
import { xsSha256 } from './xs-sha256';
import { xsRandom } from './xs-random';

const now = (): number => FIXED_MS;
let conn: Connection | null = null;
let head = '';
let ticks = 1_000_000;

const transport: Transport = {
  write(bytes: Uint8Array): void {
    if (head !== '') return; // the answer's head is its first write
    for (let i = 0; i < bytes.length && i < 512; i++) head += String.fromCharCode(bytes[i]);
  },
  close(): void { /* keep-alive */ },
};

function setUp(): void {
  const codec = standardTextCodec();
  const api = new Api([createSimModule({ serialNumber: SERIAL_NUMBER, now })], { codec, token: 't0ken', sha256: xsSha256, random: xsRandom, ticks: () => ticks });
  conn = new Connection(api, transport, { shared: new ConnectionShared(api, { now, codec }) });
}

const HEX = new Uint8Array(64);
function standInAlone(): void {
  let h = xsSha256();
  for (const part of ['admin', ':', 'brainstem', ':', 't0ken']) h.write(part);
  h.close();
  h = xsSha256();
  for (const part of ['PUT', ':', '/api/v1/device/system/0/hbinterval']) h.write(part);
  h.close();
  h = xsSha256();
  h.write(HEX);
  h.write(':00000f4200000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:00000001:0123456789abcdef0123456789abcdef:auth:');
  h.write(HEX);
  h.close();
  h = xsSha256();
  h.write('1:2a3b4c5d:6e7f8091:a2b3c4d5:e6f70812:93a4b5c6');
  h.write('00000f4200000000');
  h.close();
}

function report(): string {
  const status = Number(head.slice(9, 12));
  const at = head.indexOf('WWW-Authenticate: ');
  const challenge = at < 0 ? '' : head.slice(at + 18, head.indexOf('\r\n', at));
  return JSON.stringify({ status, challenge });
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  if (m[0] === 0x53) setUp(); // 'S'
  if (m[0] === 0x48) { // 'H'
    standInAlone();
    return new ArrayBuffer(0);
  }
  if (m[0] === 0x50 || m[0] === 0x51) { // 'P', 'Q'
    ticks += 10;
    head = '';
    conn!.receive(m.subarray(1));
    if (m[0] === 0x51) return new ArrayBuffer(0);
  }
  return latin1Bytes(report()).buffer as ArrayBuffer;
};
