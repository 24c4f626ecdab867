// XS bundle entry for tests/xs-keys.test.ts: the Api over a device module (hal/device on the fake io)
// answering requests whose names a client chose, each time new ones (an unknown entity, operation or
// serial, a body member, a watched operation...): XS never collects a property key, so each of these
// must be found without becoming one (util/known-key.ts, src/api/values/json-body.ts).
// globalThis.handleCommand(msg): msg[0] the kind (an index of KINDS), msg[1..4] u32be the first
// number, msg[5..8] u32be how many requests (names z{kind}q{number}: new to every kind); answers the last
// status line.

import platform from '../fakes/platform';
import Preference from '../fakes/preference';
import { readBoard } from '../../hal/device/board';
import { DeviceModule } from '../../hal/device/module';
import { Api } from '../../src/api/api';
import { Connection, ConnectionShared, type Transport } from '../../src/http/connection';
import { standardTextCodec } from '../../util/text';
import { latin1Bytes } from './script-format';

(globalThis as unknown as { trace: (t: string) => void }).trace = () => { /* no console */ };

const codec = standardTextCodec();
const board = readBoard({ name: 'keys', digital: [4], analog: [], servo: [], signal: [], uart: [], led: 2 });
const device = new DeviceModule({ board, platform, preferences: Preference, firmware: { version: 1, build: 2 },
  serial: 0x1234abcd, httpPort: 8080, onReset: (restart) => restart() });
const api = new Api([device], { codec, ticks: () => 0 });
const shared = new ConnectionShared(api, { now: () => 0, codec });
let status = '';
const transport: Transport = {
  write(bytes: Uint8Array): void {
    if (!status) for (let i = 0; i < bytes.length && bytes[i] !== 13; i++) status += String.fromCharCode(bytes[i]);
  },
  close(): void { /* nothing held */ },
};
const HEAD = ' HTTP/1.1\r\nHost: 127.0.0.1\r\n';

function put(path: string, body: string, extra = ''): string {
  return `PUT ${path}${HEAD}${extra}Content-Length: ${body.length}\r\n\r\n${body}`;
}

/** Each kind: the request for the name `z`. */
const KINDS: readonly ((z: string) => string)[] = [
  (z) => `GET /api/v1/device/${z}/0/serialnumber${HEAD}\r\n`, // an unknown entity
  (z) => `GET /api/v1/device/SYSTEM/0/${z}${HEAD}\r\n`, // an unknown operation (of an entity in capitals)
  (z) => `GET /api/v1/device/system/${z}/serialnumber${HEAD}\r\n`, // a segment where an index stands
  (z) => `GET /api/v1/device/0x${z.length.toString(16)}${z.slice(-6)}/system/0/serialnumber${HEAD}\r\n`, // a serial
  (z) => `GET /api/v1/${z}${HEAD}\r\n`, // a top-level name
  (z) => put('/api/v1/device/system/0/ledmaxbrightness', `{"value": 1, "${z}": {"${z}x": [1]}}`), // body members
  (z) => put('/api/v1/device/system/0/ledmaxbrightness', `{"value": {"${z}": 1}}`), // a member inside the value
  (z) => `GET /api/v1/device/events?watch=system/0/${z},${z}/0/x&${z}=1${HEAD}\r\n`, // watched names, a query
  (z) => `GET /api/v1/device/system/0/serialnumber${HEAD}X-${z}: 1\r\nOrigin: http://${z}\r\n\r\n`, // header names and values
  (z) => put('/api/v1/device/system/0/ledmaxbrightness', '{"value": 1}', `Authorization: Bearer ${z}\r\nContent-Type: text/${z}\r\n`),
];

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  const first = ((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0;
  const count = ((m[5] << 24) | (m[6] << 16) | (m[7] << 8) | m[8]) >>> 0;
  const request = KINDS[m[0]];
  for (let i = first; i < first + count; i++) {
    status = '';
    new Connection(api, transport, { shared }).receive(latin1Bytes(request('z' + m[0] + 'q' + i.toString(36))));
  }
  return latin1Bytes(status).buffer as ArrayBuffer;
};
