// PUT and GET /api/v1/device[/{serial}]/firmware on the simulator over real sockets (docs/firmware.md):
// a good image restarts the module into its version with its saved settings; a wrong digest, a body
// cut short, an image for another platform or model, no token, and a second update at the same time
// are refused with the running firmware unchanged.

import assert from 'node:assert/strict';
import * as http from 'node:http';
import { connect, digestOf, firmwareSim, firstAnswer, image, putHead, putImage, TOKEN, until } from './firmware-helpers';
import type { SimServer } from './sim-server';

const AUTH = { Authorization: `Bearer ${TOKEN}` };

function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; json: any; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: AUTH }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : null, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function version(port: number, serial = ''): Promise<string> {
  return (await call(port, 'GET', `/api/v1/device/${serial}firmware`)).json.response.version;
}

describe('firmware update on the simulator', function () {
  this.timeout(20000);
  let sim: { server: SimServer } | null = null;
  afterEach(async () => { if (sim) await sim.server.close(); sim = null; });

  it('GET …/firmware tells the running version, build, slot, confirmed, and no rollback yet', async () => {
    sim = await firmwareSim();
    const a = await call(sim.server.port, 'GET', '/api/v1/device/0x1234ABCD/firmware');
    assert.equal(a.status, 200);
    assert.deepEqual(a.json.response, { version: '2.11.3', rawVersion: 0x2b000003, build: '0x5a17c0de', slot: 'sim-a', confirmed: true, rollback: null });
  });

  it('a good image answers 202 with its version; the module restarts into it, keeping saved settings only', async () => {
    sim = await firmwareSim();
    const port = sim.server.port;
    assert.equal((await call(port, 'PUT', '/api/v1/device/system/0/hbinterval', '{"value": 42}')).status, 200);
    assert.equal((await call(port, 'GET', '/api/v1/device/system/0/save')).status, 200);
    assert.equal((await call(port, 'PUT', '/api/v1/device/system/0/hbinterval', '{"value": 7}')).status, 200, 'an unsaved change');
    const img = image({ version: '2.12.5', size: 300000 });
    const a = await putImage(port, img, { ...AUTH, 'Content-Digest': digestOf(img) });
    assert.equal(a.status, 202, JSON.stringify(a.json));
    assert.deepEqual(a.json.response, { version: '2.12.5', rawVersion: 0x2c000005, restarting: true });
    const v = await call(port, 'GET', '/api/v1/device/system/0/version');
    assert.equal(v.json.response.value, 0x2c000005);
    assert.equal((await call(port, 'GET', '/api/v1/device/system/0/hbinterval')).json.response.value, 42, 'saved setting kept, unsaved one gone');
    const d = await call(port, 'GET', '/api/v1/device/0x1234ABCD');
    assert.equal(d.json.response.firmware, '2.12.5', 'the description');
    const s = (await call(port, 'GET', '/api/v1/device/firmware')).json.response;
    assert.equal(s.slot, 'sim-b');
    assert.equal(s.rollback, '2.11.3');
    assert.equal(s.confirmed, true, 'it has served since: confirmed');
  });

  it('refuses a wrong digest, an image for another platform or model, and an image cut short: 400, version unchanged', async () => {
    sim = await firmwareSim();
    const port = sim.server.port;
    const good = image();
    const cases: [Uint8Array, string, RegExp][] = [
      [good, digestOf(image({ version: '9.9.9' })), /Content-Digest/],
      [good, 'sha-256=:abc:', /32 bytes of base64/],
      [image({ platform: 'esp32' }), '', /platform 'esp32'.*simulator/],
      [image({ model: 99 }), '', /model 99; this module is model 4/],
      [good.subarray(0, 10000), '', /cut short: 10000 bytes came, its header says 20064/],
      [new Uint8Array(5000).fill(7), '', /not a simulator firmware image/],
    ];
    for (const [body, digest, why] of cases) {
      const a = await putImage(port, body, { ...AUTH, 'Content-Digest': digest || digestOf(body) });
      assert.equal(a.status, 400, why.source);
      assert.equal(a.json.response.error, 'aErrParam');
      assert.match(a.json.response.message, why);
    }
    const missing = await putImage(port, good, AUTH);
    assert.equal(missing.status, 400);
    assert.match(missing.json.response.message, /needs its digest: send Content-Digest: sha-256=:/);
    assert.equal(await version(port), '2.11.3');
  });

  it('a body that stops coming (the client goes) leaves the firmware and lets the next update in', async () => {
    sim = await firmwareSim();
    const port = sim.server.port;
    const img = image({ version: '3.0.0', size: 200000 });
    const c = await connect(port);
    c.socket.write(putHead('/api/v1/device/firmware', img.length, { ...AUTH, 'Content-Digest': digestOf(img) }));
    c.socket.write(img.subarray(0, 100000));
    await new Promise((r) => setTimeout(r, 100));
    c.socket.destroy();
    await c.closed;
    await until(() => sim!.server.stats().slots === 0);
    assert.equal(await version(port), '2.11.3');
    const again = await putImage(port, img, { ...AUTH, 'Content-Digest': digestOf(img) });
    assert.equal(again.status, 202, 'no update left busy');
  });

  it('a second update of the same module while one streams: 503 aErrBusy; another module of the simulator is free', async () => {
    sim = await firmwareSim(2);
    const port = sim.server.port;
    const img = image({ version: '2.13.0', size: 100000 });
    const headers = { ...AUTH, 'Content-Digest': digestOf(img) };
    const first = await connect(port);
    first.socket.write(putHead('/api/v1/device/0x1234ABCD/firmware', img.length, headers));
    first.socket.write(img.subarray(0, 50000));
    await new Promise((r) => setTimeout(r, 50));
    const second = await putImage(port, img, headers, '/api/v1/device/0x1234ABCD/firmware');
    assert.equal(second.status, 503);
    assert.equal(second.json.response.error, 'aErrBusy');
    const other = await putImage(port, img, headers, '/api/v1/device/0x1234ABCE/firmware');
    assert.equal(other.status, 202, 'the other module');
    first.socket.write(img.subarray(50000));
    await until(() => firstAnswer(first.received()) !== null);
    assert.equal(firstAnswer(first.received())!.status, 202);
    first.socket.destroy();
    assert.equal(await version(port, '0x1234ABCD/'), '2.13.0');
  });

  it('needs a token: none set is 403 saying how to set one; missing or wrong is 401', async () => {
    sim = await firmwareSim(1, '');
    const img = image();
    const open = await putImage(sim.server.port, img, { 'Content-Digest': digestOf(img) });
    assert.equal(open.status, 403);
    assert.match(open.json.response.message, /needs a token: set one \(simulator, host server: --token/);
    await sim.server.close();
    sim = await firmwareSim();
    const port = sim.server.port;
    const missing = await putImage(port, img, { 'Content-Digest': digestOf(img) });
    assert.equal(missing.status, 401);
    assert.match(missing.head, /WWW-Authenticate: Bearer/i);
    const wrong = await putImage(port, img, { Authorization: 'Bearer nope', 'Content-Digest': digestOf(img) });
    assert.equal(wrong.status, 401);
    assert.equal(await version(port), '2.11.3');
  });

  it('streams: an image over 4 KiB is taken, while an API PUT over 4 KiB is still 413; chunked is 411', async () => {
    sim = await firmwareSim();
    const port = sim.server.port;
    const big = await call(port, 'PUT', '/api/v1/device/system/0/hbinterval', `{"value": 1, "pad": "${'x'.repeat(5000)}"}`);
    assert.equal(big.status, 413);
    const c = await connect(port);
    c.socket.write('PUT /api/v1/device/firmware HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n' +
      `Authorization: Bearer ${TOKEN}\r\n\r\n5\r\nhello\r\n0\r\n\r\n`);
    await until(() => firstAnswer(c.received()) !== null);
    assert.equal(firstAnswer(c.received())!.status, 411);
    c.socket.destroy();
    const tooBig = await connect(port);
    tooBig.socket.write(putHead('/api/v1/device/firmware', 5 * 1024 * 1024, { ...AUTH, 'Content-Digest': digestOf(image()) }));
    await until(() => firstAnswer(tooBig.received()) !== null);
    assert.equal(firstAnswer(tooBig.received())!.status, 413, 'larger than the slot');
    tooBig.socket.destroy();
  });
});
