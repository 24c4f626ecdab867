// XS bundle entry for tests/xs-heap.test.ts: the device-side core as the device wires it (one Api over
// a module HAL, one shared UTF-8 codec, 4 Connections) with every connection holding a half-received
// request. globalThis.handleCommand(msg), msg[0]:
//   'H'        make the module HAL (the simulated one: ~8,700 slots under XS, not the core measured)
//   'S' [n]    set up the core (fresh Api + n connections, 4 by default, each fed the first half of a request)
//   'R' u32be  N requests: complete the held request of connection i % 4 (it answers), then hold a new half
//   'T' kind   a fifth connection starts streaming /metrics (kind 'm') or the description ('d') and stops
//              where a module's socket would be full (2 KiB waiting): what a stream holds while it is sent
//   'F'        the socket of that connection drains: the stream runs to its end (written counts it)
//   'P'        its socket drains once: one piece of the stream is made (answers [1] while it streams, [0] at its end)
//   'Q' u32be  as 'R', answering nothing (what one request allocates, without the report's own)
//   (others)   answer JSON {bytes, written, closed}: `bytes` = ArrayBuffer bytes reachable from the
//              4 connections (request buffers; the shared Api is not counted), written = response bytes.

import { Connection, ConnectionShared, type Transport } from '../../src/http/connection';
import { Api } from '../../src/api/api';
import { createSimModule } from '../../hal/sim/index';
import type { ModuleHal } from '../../hal/types';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { FIXED_MS, SERIAL_NUMBER } from './xs-entry';
import { latin1Bytes } from './script-format';
import { SLOT_ANSWERING } from '../../src/http/connection-slots';

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
/** What a server's connections share (src/http/server-core.ts makes one per server). */
let shared: ConnectionShared | undefined;
/** Bytes the streaming connection's socket holds (the module sends no more pieces while 2 KiB wait). */
let waiting = 0;
let streaming: Connection | null = null;

const streamTransport: Transport = {
  write(bytes: Uint8Array): void {
    written += bytes.length;
    waiting += bytes.length;
  },
  close(): void {
    closed++;
  },
  backlog: () => waiting,
};

/** A fifth connection asks for /metrics or the description; it stops once 2 KiB wait in its socket. */
function startStream(kind: number): void {
  streaming = new Connection(api!, streamTransport, { shared });
  const path = kind === 0x6d ? '/metrics' : '/api/v1/device/0x' + (SERIAL_NUMBER >>> 0).toString(16).padStart(8, '0');
  waiting = 0;
  streaming.receive(latin1Bytes(`GET ${path} HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n`));
}

/** Its socket drains as often as needed: the stream runs to its end. */
function finishStream(): void {
  for (let i = 0; i < 10_000 && streaming && streaming.slotState() === SLOT_ANSWERING; i++) {
    waiting = 0;
    streaming.drained();
  }
  streaming = null;
}

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

function setUp(n: number): void {
  if (!hal) makeHal();
  api = new Api([hal!], { codec });
  conns = [];
  streaming = null;
  shared = new ConnectionShared(api, { now, codec }); // one for every connection, as a server's core makes it
  for (let i = 0; i < n; i++) {
    const c = new Connection(api, transport, { shared });
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
  if (m[0] === 0x51) { // 'Q'
    requests(((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0);
    return new ArrayBuffer(0);
  }
  if (m[0] === 0x50) { // 'P'
    waiting = 0;
    if (streaming) streaming.drained();
    if (streaming && streaming.slotState() !== SLOT_ANSWERING) streaming = null;
    return new Uint8Array([streaming ? 1 : 0]).buffer as ArrayBuffer;
  }
  if (m[0] === 0x48) makeHal(); // 'H'
  if (m[0] === 0x53) setUp(m.length > 1 ? m[1] : CONNECTIONS); // 'S'
  if (m[0] === 0x54) startStream(m[1]); // 'T'
  if (m[0] === 0x46) finishStream(); // 'F'
  if (m[0] === 0x52) requests(((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0); // 'R'
  return latin1Bytes(report()).buffer as ArrayBuffer;
};
