// XS bundle entry for tests/xs-heap.test.ts: the device-side core as the device wires it (one Api over
// a module HAL, one shared UTF-8 codec, 4 Connections) with every connection holding a half-received
// request. globalThis.handleCommand(msg), msg[0]:
//   'H'        make the module HAL (the simulated one: ~8,700 slots under XS, not the core measured)
//   'S'        set up the core (fresh Api + 4 connections, each fed the first half of a request)
//   'R' u32be  N requests: complete the held request of connection i % 4 (it answers), then hold a new half
//   (always)   answers JSON {bytes, written, closed}: `bytes` = ArrayBuffer bytes reachable from the
//              4 connections (request buffers; the shared Api is not counted), written = response bytes.

import { Connection, type Transport } from '../../src/http/connection';
import { HttpResponse } from '../../src/http/request';
import { Api } from '../../src/api/api';
import { createSimModule } from '../../hal/sim/index';
import type { ModuleHal } from '../../hal/types';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { FIXED_MS, SERIAL_NUMBER } from './xs-entry';
import { latin1Bytes } from './script-format';

const CONNECTIONS = 4;
const HALF = latin1Bytes('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept: */*\r\n');
const REST = latin1Bytes('\r\n');
const now = (): number => FIXED_MS;

let hal: ModuleHal | undefined;
let api: Api | undefined;
let codec: TextCodec | undefined;
let conns: Connection[] = [];
let written = 0;
let closed = 0;

const transport: Transport = {
  write(bytes: Uint8Array): void {
    written += bytes.length;
  },
  close(): void {
    closed++;
  },
};

function makeHal(): void {
  codec = standardTextCodec();
  hal = createSimModule({ serialNumber: SERIAL_NUMBER, now });
}

function setUp(): void {
  if (!hal) makeHal();
  api = new Api([hal!], { codec });
  conns = [];
  const response = new HttpResponse(); // one for every connection, as a server's core makes them
  for (let i = 0; i < CONNECTIONS; i++) {
    const c = new Connection(api, transport, { now, codec, response });
    c.receive(HALF);
    conns.push(c);
  }
}

function requests(n: number): void {
  for (let i = 0; i < n; i++) {
    const c = conns[i % CONNECTIONS];
    c.receive(REST);
    c.receive(HALF);
  }
}

/** ArrayBuffer bytes reachable from `value` through own data properties, each buffer once. */
function bufferBytes(value: unknown, seen: unknown[]): number {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return 0;
  if (value === api || value === hal || value === codec || seen.indexOf(value) >= 0) return 0;
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

function report(): string {
  const seen: unknown[] = [];
  let bytes = 0;
  for (const c of conns) bytes += bufferBytes(c, seen);
  return JSON.stringify({ bytes, written, closed });
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  if (m[0] === 0x48) makeHal(); // 'H'
  if (m[0] === 0x53) setUp(); // 'S'
  if (m[0] === 0x52) requests(((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0); // 'R'
  return latin1Bytes(report()).buffer as ArrayBuffer;
};
