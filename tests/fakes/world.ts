// A device module, API and server on the fakes, for the device tests: one call makes the world fresh
// (fake network, clock, NVS, pins), then requests go over fake TCP clients or straight to the Api.

import { net } from './install';
import Preference, { clearPreferences } from './preference';
import { resetPins } from './io';
import platform from './platform';
import { radio } from './wifi';
import { chip } from './watchdog';
import { readBoard, type BoardProfile } from '../../hal/device/board';
import { DeviceModule } from '../../hal/device/module';
import { Api } from '../../src/api/api';
import { DeviceServer } from '../../src/device/server';
import { standardTextCodec } from '../../util/text';
import type { FakeClient } from './net';

/** A board with every entity the device HAL makes (the lin profile plus a UART and the LED). */
export const FULL_BOARD = Object.freeze({
  name: 'test board',
  model: 5,
  digital: [0, 1, 2, 3],
  analog: [4, 5],
  analogFullScale: 3100000,
  servo: [10],
  signal: [11, 13],
  uart: [{ port: 2, transmit: 17, receive: 16 }],
  led: 12,
  storeSlots: 2,
  slotCapacity: 1024,
});

/** Everything back to a fresh chip: empty NVS, no listeners or timers, the platform as made. */
export function freshWorld(): void {
  net.reset();
  clearPreferences();
  resetPins();
  radio.driverStarted = false; // a fresh chip: no MAC until a Wi-Fi object starts the driver
  platform.chip = 'esp32';
  platform.chipRestarts = false;
  platform.restarts = [];
  platform.onRestart = null;
  chip.reset();
}

export function board(raw: Record<string, unknown> = FULL_BOARD): BoardProfile {
  return readBoard(raw);
}

/** A device module on the fakes; `restarts` collects the restart functions handed to onReset. */
export function makeModule(b: BoardProfile = board(), onReset?: (restart: () => void) => void): DeviceModule {
  return new DeviceModule({
    board: b,
    platform,
    preferences: Preference,
    firmware: { version: 0x01000000, build: 7 },
    serial: 0x1234abcd,
    httpPort: 8080,
    onReset: onReset ?? ((restart) => restart()),
  });
}

export interface Served {
  device: DeviceModule;
  api: Api;
  server: DeviceServer;
}

/** A module served on `port` as src/device/app.ts serves it (the reset waits for its answer). */
export function serve(port = 8080, maxConnections = 4, b?: BoardProfile): Served {
  const codec = standardTextCodec();
  const served = {} as Served;
  served.device = makeModule(b, (restart) => served.server.restartAfterFlush(restart));
  served.api = new Api([served.device], { codec });
  served.server = new DeviceServer(served.api, { codec, port, maxConnections });
  return served;
}

const CRLF = '\r\n';
export function get(path: string, extra = ''): string {
  return `GET /api/v1/device/${path} HTTP/1.1${CRLF}Host: 192.168.1.50${CRLF}${extra}${CRLF}`;
}
export function put(path: string, value: unknown, extra = ''): string {
  const body = JSON.stringify({ value });
  return `PUT /api/v1/device/${path} HTTP/1.1${CRLF}Host: 192.168.1.50${CRLF}Content-Length: ${body.length}${CRLF}${extra}${CRLF}${body}`;
}

export interface Reply { status: number; head: string; json: any }

/** The complete responses a client has received (Content-Length framed; a partial one is left out). */
export function replies(c: FakeClient): Reply[] {
  const out: Reply[] = [];
  let rest = c.received;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.slice(0, end);
    const m = /content-length: (\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    if (rest.length < end + 4 + length) break;
    const body = rest.slice(end + 4, end + 4 + length);
    out.push({ status: Number(head.slice(9, 12)), head, json: body ? JSON.parse(body) : undefined });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** Send one request on a new connection, let everything settle, and return its answer. */
export function ask(port: number, request: string): Reply {
  const c = net.connect(port);
  c.send(request);
  net.run();
  const r = replies(c);
  c.close();
  net.run();
  if (r.length !== 1) throw new Error(`expected one answer, got ${r.length}: ${JSON.stringify(c.received)}`);
  return r[0];
}

export { net, platform, radio };
