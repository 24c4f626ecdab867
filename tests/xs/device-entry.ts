// XS bundle entry for tools/bench-xs-device.mjs: the device module (hal/device on the fake io of
// tests/fakes, which bundle for XS as they are), the Api and the DeviceServer over the fake network,
// as src/device/app.ts wires them, so that what the device's transport and identity cost can be
// measured under a real XS engine. globalThis.handleCommand(msg), msg[0]:
//   'Z'       drop the previous run (module, server, clients): what is live after it is the baseline
//   'B' p     boot: module, Api, server; p = 1: the Pico W's write pacing and lwIP heap (else roomy)
//   'C'       4 clients connect and each makes one keep-alive request for /api/v1/device/system/0/serialnumber
//   'F'       the 4 clients each fetch /api/v1/openapi.json (about 7 KB gzip-compressed) at once, run to the end
//   'P'       4 clients connect and each sends the first half of a request: every connection slot is held
//   'X'       4 more clients connect, which are refused (503) while every slot is held; they read nothing,
//             so each 503 waits in its socket's transport (what a refused socket holds until it drains)
//   'Y'       the refused clients read: `refused` in the answer lists the status each received
//   'M'       one client connects, fetches /metrics to its last byte and closes (what a scrape costs)
//   'G'       one client connects, GETs /api/v1/device/system/0/serialnumber with `Connection: close`
//             and reads the answer (what one GET of one value costs, as the Pico W figures ask it)
//   'U'       the same with a PUT of /api/v1/device/system/0/hbinterval
//   (always)  answers JSON {bytes, failures}: answer bytes received by the clients, writes lost ('G', 'U': {status, bytes})

import { net } from '../fakes/net';
import { LwipHeap, PICO_SND_BUF } from '../fakes/lwip-heap';
import Preference from '../fakes/preference';
import platform from '../fakes/platform';
import Resource from '../fakes/resource';
import type { FakeClient } from '../fakes/net';
import { readBoard } from '../../hal/device/board';
import { DeviceModule } from '../../hal/device/module';
import { Api } from '../../src/api/api';
import { DeviceServer } from '../../src/device/server';
import { deviceOpenApi, OPENAPI_RESOURCE } from '../../src/device/openapi';
import { standardTextCodec } from '../../util/text';

(globalThis as unknown as { trace: (t: string) => void }).trace = () => { /* no console */ };

const BOARD = readBoard({ name: 'bench', digital: [0, 1, 2, 3], analog: [4, 5], servo: [10], signal: [11], led: 12 });
const DOCUMENT = new Uint8Array(7000);
for (let i = 0; i < DOCUMENT.length; i++) DOCUMENT[i] = (i * 31 + 7) & 0xff;
Resource.files.set(OPENAPI_RESOURCE, DOCUMENT);

let server: DeviceServer | null = null;
let clients: FakeClient[] = [];
/** The refused clients of 'X', kept so that their sockets stay open. */
let refused: FakeClient[] = [];
let heap: LwipHeap | null = null;
const HOST = ' HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n';
/** The head of Node's http.request with `agent: false`, as the Pico W figures ask (without its end). */
const ONCE = ' HTTP/1.1\r\nAccept-Encoding: gzip\r\nHost: 192.168.1.50\r\nConnection: close\r\n';

function drop(): void {
  clients = [];
  refused = [];
  server = null;
  net.reset();
}

function boot(paced: boolean): void {
  drop();
  heap = paced ? new LwipHeap() : null;
  net.lwip = heap;
  const codec = standardTextCodec();
  const device = new DeviceModule({
    board: BOARD, platform, preferences: Preference, firmware: { version: 0x01000000, build: 1 },
    serial: 0x1234abcd, httpPort: 8080, onReset: (restart) => restart(),
  });
  const api = new Api([device], { codec, ticks: () => net.now, openapi: deviceOpenApi() });
  server = new DeviceServer(api, { codec, port: 8080, maxConnections: 4, ticks: () => net.now,
    writeMax: paced ? 1460 : 0, sendingMax: paced ? 2 : 0 });
}

function connect(): void {
  clients = [];
  for (let i = 0; i < 4; i++) {
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET /api/v1/device/system/0/serialnumber' + HOST);
    clients.push(c);
  }
  net.advance(200);
}

function holdPartial(): void {
  clients = [];
  for (let i = 0; i < 4; i++) {
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 192.168.1.50\r\n');
    clients.push(c);
  }
  net.run();
}

function refuseMore(): void {
  for (let i = 0; i < 4; i++) {
    const c = net.connect(8080, 64);
    c.setReading(false);
    refused.push(c);
  }
  net.run();
}

function fetchAll(): void {
  for (let i = 0; i < clients.length; i++) clients[i].send('GET /api/v1/openapi.json' + HOST);
  net.advance(2000);
}

function scrape(): void {
  const c = net.connect(8080, PICO_SND_BUF);
  c.send('GET /metrics HTTP/1.1\r\nHost: 192.168.1.50\r\nConnection: close\r\n\r\n');
  clients = [c];
  net.advance(2000);
}

/** One request on a connection of its own, read to its end: its status and byte count. */
function once(head: string): string {
  const c = net.connect(8080, PICO_SND_BUF);
  c.send(head);
  net.advance(50);
  return JSON.stringify({ status: c.received.slice(9, 12), bytes: c.received.length });
}

function report(): string {
  let bytes = 0;
  for (let i = 0; i < clients.length; i++) { bytes += clients[i].received.length; clients[i].received = ''; }
  const statuses = refused.map((c) => c.received.slice(9, 12)).join(',');
  return JSON.stringify({ bytes, failures: heap ? heap.failures : 0, server: server !== null, refused: statuses });
}

function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  if (m[0] === 0x5a) drop(); // 'Z'
  if (m[0] === 0x42) boot(m[1] === 1); // 'B'
  if (m[0] === 0x43) connect(); // 'C'
  if (m[0] === 0x46) fetchAll(); // 'F'
  if (m[0] === 0x50) holdPartial(); // 'P'
  if (m[0] === 0x58) refuseMore(); // 'X'
  if (m[0] === 0x4d) scrape(); // 'M'
  if (m[0] === 0x47) return latin1(once('GET /api/v1/device/system/0/serialnumber' + ONCE + '\r\n')).buffer as ArrayBuffer; // 'G'
  if (m[0] === 0x55) return latin1(once('PUT /api/v1/device/system/0/hbinterval' + ONCE + 'Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{"value": 20}')).buffer as ArrayBuffer; // 'U'
  if (m[0] === 0x59) { for (const c of refused) c.setReading(true); net.advance(100); } // 'Y'
  return latin1(report()).buffer as ArrayBuffer;
};
