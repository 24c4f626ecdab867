// The device entry (src/device/main.ts) booted on the fakes with the Pico W's write pacing and its small
// lwIP heap (tests/fakes/lwip-heap.ts), for tests/device-lwip-*.test.ts: four clients fetching at once,
// and the linked console page and OpenAPI document.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { freshWorld, net } from './fakes/world';
import { setConfig } from './fakes/config';
import Resource from './fakes/resource';
import { PICO_SND_BUF } from './fakes/lwip-heap';
import { latin1, type FakeClient } from './fakes/net';
import { dechunk } from './helpers';
import { CONSOLE_RESOURCE } from '../src/device/console-resource';
import { OPENAPI_RESOURCE } from '../src/device/openapi';

export const MAIN = require.resolve('../src/device/main');
const ROOT = path.resolve(__dirname, '../..');
export const PICO_PACING = { writeMax: 1460, sendingMax: 2 }; // manifest.json, platform pico/pico_w

const TARGETS = ['/', '/api/v1/openapi.json', '/api/v1/device/0x1234ABCD', '/metrics'];

export function boot(board: Record<string, unknown>): void {
  freshWorld();
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
}

/** Each target fetched by its own client, all at once; the answers' heads and bodies once everything settled. */
export function fetchAll(): { head: string; body: Uint8Array }[] {
  const clients: FakeClient[] = TARGETS.map(() => net.connect(8080, PICO_SND_BUF));
  TARGETS.forEach((t, i) => clients[i].send(`GET ${t} HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n`));
  net.advance(20000);
  return clients.map((c) => {
    const bytes = latin1(c.received);
    const end = c.received.indexOf('\r\n\r\n');
    assert.ok(end > 0, `no answer head: ${JSON.stringify(c.received.slice(0, 80))}`);
    const head = c.received.slice(0, end);
    const rest = bytes.subarray(end + 4);
    const length = /content-length: (\d+)/i.exec(head);
    if (length) {
      assert.equal(rest.length, Number(length[1]), `${head.split('\r\n')[0]}: body cut`);
      return { head, body: rest };
    }
    assert.match(head, /transfer-encoding: chunked/i);
    const d = dechunk(rest);
    assert.equal(d.used, rest.length, 'bytes after the last chunk');
    return { head, body: d.body };
  });
}

/** The page and the OpenAPI document as the build links them, for one describe's tests. */
export function withResources(): void {
  before(() => {
    Resource.files.set(CONSOLE_RESOURCE, readFileSync(path.join(ROOT, 'resources', CONSOLE_RESOURCE)));
    Resource.files.set(OPENAPI_RESOURCE, readFileSync(path.join(ROOT, 'resources', OPENAPI_RESOURCE)));
  });
  after(() => {
    Resource.files.delete(CONSOLE_RESOURCE);
    Resource.files.delete(OPENAPI_RESOURCE);
    delete require.cache[MAIN];
    net.reset();
  });
}
