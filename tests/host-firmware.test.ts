// A firmware image sent to one module through the host server (docs/lab.md, docs/firmware.md), real
// processes on loopback: PUT /api/v1/device/{serial}/firmware is forwarded whole with its digest, the
// module's answer comes back as it gave it; a refused request (no token at the host) reaches no module;
// an image over the host's limit is 413; other bodies keep the 4 KiB limit.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exchange, json, startHost, startSimAt, within, type Proc } from './host-helpers';
import { digestOf, image } from './firmware-helpers';

const MODULE_TOKEN = 'module-token-5e1';
const HOST_TOKEN = 'host-token-77a';
const SERIAL = '0x30000101';

describe('host server: a firmware image forwarded to one module', function () {
  this.timeout(30000);
  let sim: Proc;
  let host: Proc;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-fw-'));

  const firmwareOf = async (): Promise<any> => json(await exchange(host.port, 'GET', `/api/v1/device/${SERIAL}/firmware`)).response;
  const put = (body: Uint8Array, headers: Record<string, string>) =>
    exchange(host.port, 'PUT', `/api/v1/device/${SERIAL}/firmware`, body, { 'content-type': 'application/octet-stream', ...headers });

  before(async () => {
    sim = await startSimAt(SERIAL, ['--token', MODULE_TOKEN, '--auth', 'digest']); // the host server must speak Digest to it
    const tokens = path.join(dir, 'tokens');
    fs.writeFileSync(tokens, `* ${MODULE_TOKEN}\n`);
    host = await startHost(['--module', `http://127.0.0.1:${sim.port}`, '--tokens', tokens, '--token', HOST_TOKEN]);
    await within(5000, async () => json(await exchange(host.port, 'GET', '/api/v1/device')).response.some((m: any) => m.online), 'the module online');
  });

  after(async () => {
    await Promise.all([host?.stop(), sim?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an image without the host\'s token (401) and the module keeps its firmware', async () => {
    const img = image({ version: '2.12.0', size: 200000 });
    const r = await put(img, { 'content-digest': digestOf(img) });
    assert.equal(r.status, 401);
    assert.equal(json(r).response.error, 'aErrPermission');
    assert.equal((await firmwareOf()).version, '2.11.3');
  });

  it('relays the module\'s 400 for an image whose digest does not match, with nothing changed', async () => {
    const img = image({ version: '2.12.0', size: 200000 });
    const r = await put(img, { 'content-digest': digestOf(image({ version: '2.12.1', size: 200000 })), authorization: `Bearer ${HOST_TOKEN}` });
    assert.equal(r.status, 400);
    assert.match(json(r).response.message, /digest/i);
    assert.equal((await firmwareOf()).version, '2.11.3');
  });

  it('answers 413 for an image over 4 MiB before taking it, and keeps the 4 KiB limit of other bodies', async () => {
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    const r = await put(big, { 'content-digest': digestOf(big), authorization: `Bearer ${HOST_TOKEN}` });
    assert.equal(r.status, 413);
    const other = await exchange(host.port, 'PUT', `/api/v1/device/${SERIAL}/system/0/name`, JSON.stringify({ value: 'x'.repeat(5000) }),
      { 'content-type': 'application/json', authorization: `Bearer ${HOST_TOKEN}` });
    assert.equal(other.status, 413);
  });

  it('forwards a good image whole: 202 with its version, and the module comes back running it', async () => {
    const img = image({ version: '2.12.0', size: 300000 });
    const r = await put(img, { 'content-digest': digestOf(img), authorization: `Bearer ${HOST_TOKEN}` });
    assert.equal(r.status, 202, r.body.toString());
    assert.equal(json(r).response.version, '2.12.0');
    await within(10000, async () => {
      try {
        return (await firmwareOf()).version === '2.12.0';
      } catch {
        return false;
      }
    }, 'the module runs 2.12.0');
  });
});
