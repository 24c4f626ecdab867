// XS bundle entry for tests/firmware-xs-heap.test.ts: the device-side core as the device wires it (one
// Api, one shared codec, 4 Connections), three connections each holding a half-received request (the
// load of the memory budget) while the fourth streams a firmware image through the real body sink
// (src/http/request-parser.ts, src/api/resources/firmware.ts) into a stand-in FirmwareHal: it counts
// the bytes and keeps none, as embedded:update hands them to flash; its digest is a fixed value the
// request names (crypt's Digest is native: its state is a host chunk, not slots).
// globalThis.handleCommand(msg), msg[0]:
//   'S'          set up the core, the 3 half requests and the PUT's head (Content-Length IMAGE_BYTES)
//   'B' u32be    N more body bytes to the streaming connection, in 1,460-byte TCP segments
//   (always)     answers JSON {bytes, written, status, taken}: `bytes` = ArrayBuffer bytes reachable from
//                the 4 connections, `status` = the streaming request's answer status (0 before it).

import { Connection, type Transport } from '../../src/http/connection';
import { HttpResponse } from '../../src/http/request';
import { Api } from '../../src/api/api';
import type { FirmwareHal, ModuleHal } from '../../hal/types';
import { standardTextCodec } from '../../util/text';
import { latin1Bytes } from './script-format';
import { xsSha256 } from './xs-sha256';
import { xsRandom } from './xs-random';

export const IMAGE_BYTES = 1024 * 1024;
const DIGEST = new Uint8Array(32).fill(7);
const DIGEST_B64 = 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=';
const HALF = latin1Bytes('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept: */*\r\n');
const HEAD = latin1Bytes(`PUT /api/v1/device/firmware HTTP/1.1\r\nHost: 192.168.1.50\r\nContent-Length: ${IMAGE_BYTES}\r\n` +
  `Authorization: Bearer t0ken\r\nContent-Digest: sha-256=:${DIGEST_B64}:\r\n\r\n`);
const SEGMENT = new Uint8Array(1460);

let taken = 0;
const firmware: FirmwareHal = {
  capacity: 0x1e0000,
  status: () => ({ version: 0x00010000, build: 1, slot: 'ota_0', confirmed: true, rollback: -1 }),
  begin: () => ({
    write: (b: Uint8Array) => { taken += b.length; },
    complete: () => 0x00020000,
    abort: () => undefined,
    restart: () => undefined,
  }),
  sha256: () => ({ write: () => undefined, close: () => DIGEST }),
};
const device: ModuleHal = { serialNumber: 0x1234abcd, entities: {}, now: () => 1700000000000, afterResponse: () => undefined, firmware };

let written = 0;
let text = '';
const transport: Transport = {
  write(bytes: Uint8Array): void {
    written += bytes.length;
    if (text.length < 64) for (let i = 0; i < bytes.length && text.length < 64; i++) text += String.fromCharCode(bytes[i]);
  },
  close(): void { /* counted nowhere */ },
};

let api: Api | undefined;
let conns: Connection[] = [];

function setUp(): void {
  const codec = standardTextCodec();
  api = new Api([device], { codec, token: 't0ken', sha256: xsSha256, random: xsRandom });
  const response = new HttpResponse();
  conns = [];
  for (let i = 0; i < 4; i++) {
    const c = new Connection(api, transport, { now: () => 0, codec, response });
    c.receive(i === 0 ? HEAD : HALF);
    conns.push(c);
  }
}

function body(n: number): void {
  for (let sent = 0; sent < n; sent += SEGMENT.length) conns[0].receive(SEGMENT, Math.min(SEGMENT.length, n - sent));
}

function bufferBytes(value: unknown, seen: unknown[]): number {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return 0;
  if (value === api || seen.indexOf(value) >= 0) return 0;
  seen.push(value);
  if (ArrayBuffer.isView(value)) return bufferBytes(value.buffer, seen);
  if (value instanceof ArrayBuffer) return value.byteLength;
  let total = 0;
  const names = Object.getOwnPropertyNames(value);
  for (let i = 0; i < names.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, names[i]);
    if (d && 'value' in d && typeof d.value !== 'function') total += bufferBytes(d.value, seen);
  }
  return total;
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  if (m[0] === 0x53) setUp(); // 'S'
  if (m[0] === 0x42) body(((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0); // 'B'
  const seen: unknown[] = [];
  let bytes = 0;
  for (const c of conns) bytes += bufferBytes(c, seen);
  const status = text.length >= 12 ? Number(text.slice(9, 12)) : 0;
  return latin1Bytes(JSON.stringify({ bytes, written, status, taken })).buffer as ArrayBuffer;
};
