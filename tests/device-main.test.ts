// src/device/main.ts booted on the fakes as mcconfig would boot it (config from mc/config, the saved
// settings from Preference): saved settings survive a reset and unsaved ones are dropped, on a chip that
// restarts and on a platform that soft-resets; the REST port moves after save + reset only.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, platform, put } from './fakes/world';
import { setConfig } from './fakes/config';
import Resource from './fakes/resource';
import { CONSOLE_RESOURCE } from '../src/device/console-resource';

const MAIN = require.resolve('../src/device/main');

/** Boot the entry module again (a chip restart: RAM gone, Preference kept). */
function boot(): void {
  net.reset();
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation, as a restart does; import would reuse the cached one
  require(MAIN);
}

function value(port: number, path: string): unknown {
  const r = ask(port, get(path));
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.response.value;
}

function ok(port: number, request: string): void {
  const r = ask(port, request);
  assert.equal(r.status, 200, JSON.stringify(r.json));
}

/** GET system/0/reset and let the reset happen (the answer leaves, then 100 ms). */
function reset(port: number): void {
  ok(port, get('system/0/reset'));
  net.advance(500);
}

describe('device entry (main.ts) on the fakes', () => {
  beforeEach(() => {
    freshWorld();
    setConfig({
      http: { port: 8080, connections: 4 },
      serial: '0x1234ABCD',
      firmware: { major: 1, minor: 2, patch: 3, build: '0x2A' },
      board: FULL_BOARD,
    });
  });
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('boots from the manifest config', () => {
    boot();
    assert.equal(value(8080, 'system/0/serialnumber'), 0x1234abcd);
    assert.equal(value(8080, 'system/0/version'), 0x12000003);
    assert.equal(value(8080, 'system/0/build'), 42);
    assert.equal(value(8080, 'system/0/name'), 'test board');
  });

  for (const chip of [false, true]) {
    it(`keeps saved settings and drops unsaved ones across a reset (${chip ? 'chip restart' : 'soft reset'})`, () => {
      platform.chipRestarts = chip;
      boot();
      ok(8080, put('system/0/hbinterval', 25));
      ok(8080, put('signal/1/t3time', 2000000));
      ok(8080, get('system/0/save'));
      ok(8080, put('system/0/hbinterval', 99));
      ok(8080, put('system/0/name', 'not saved'));
      reset(8080);
      assert.equal(platform.restarts.length, 1);
      if (chip) boot();
      assert.equal(value(8080, 'system/0/hbinterval'), 25);
      assert.equal(value(8080, 'signal/1/t3time'), 2000000);
      assert.equal(value(8080, 'system/0/name'), 'test board');
    });

    it(`listens on the saved REST port after save + reset only (${chip ? 'chip restart' : 'soft reset'})`, () => {
      platform.chipRestarts = chip;
      boot();
      ok(8080, put('ethernet/0/interfaceport/0', 9090));
      reset(8080);
      if (chip) boot();
      assert.deepEqual([...net.listeners.keys()], [8080], 'moved without a save');
      ok(8080, put('ethernet/0/interfaceport/0', 9090));
      ok(8080, get('system/0/save'));
      reset(8080);
      if (chip) boot();
      assert.deepEqual([...net.listeners.keys()], [9090]);
      assert.equal(value(9090, 'ethernet/0/interfaceport/0'), 9090);
      assert.throws(() => net.connect(8080), /nothing listens/);
    });
  }

  it('factory defaults forget what was saved', () => {
    boot();
    ok(8080, put('system/0/hbinterval', 25));
    ok(8080, get('system/0/save'));
    ok(8080, get('system/0/resetdevicetofactorydefaults'));
    net.advance(500);
    assert.equal(value(8080, 'system/0/hbinterval'), 10);
  });

  it('serves the console page from its linked resource, as mapped', () => {
    // Marker bytes, unlike the real page: the answer must be exactly what the resource maps.
    const marker = Uint8Array.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]);
    Resource.files.set(CONSOLE_RESOURCE, marker);
    try {
      boot();
      const c = net.connect(8080);
      c.send('GET / HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n');
      net.run();
      const end = c.received.indexOf('\r\n\r\n');
      assert.match(c.received.slice(0, end), /^HTTP\/1\.1 200 OK\r\n[^]*Content-Length: 9\r\n/);
      assert.deepEqual([...c.received.slice(end + 4)].map((ch) => ch.charCodeAt(0)), [...marker]);
      c.close();
      net.run();
    } finally {
      Resource.files.delete(CONSOLE_RESOURCE);
    }
  });

  it('answers GET / with a 404 envelope when the firmware links no console page', () => {
    assert.equal(Resource.files.has(CONSOLE_RESOURCE), false);
    boot();
    const c = net.connect(8080);
    c.send('GET / HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n');
    net.run();
    const end = c.received.indexOf('\r\n\r\n');
    assert.match(c.received.slice(0, end), /^HTTP\/1\.1 404 /);
    const body = JSON.parse(c.received.slice(end + 4)) as { response: { error: string; message: string } };
    assert.equal(body.response.error, 'aErrNotFound');
    assert.match(body.response.message, /no web console page/);
    c.close();
    net.run();
  });
});
