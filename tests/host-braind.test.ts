// BrainD's own names on the host server (docs/lab.md §BrainD's names), against real processes on
// loopback: a simulator of 3 modules and one module that wants a token for writes (held by the host
// server). Every answer is checked against the host server's own OpenAPI document as it serves it.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { exchange, json, startHost, startSimAt, within, type Proc } from './host-helpers';
import { OpenApiValidator } from './openapi-validator';

const SECRET = 'braind-read-secret';
const RACK = ['0x0000D001', '0x0000D002', '0x0000D003'];
const LOCKED = '0x0000E001';
const PACKAGE = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };

describe('host server: BrainD\'s names', function () {
  this.timeout(30000);
  const sims: Proc[] = [];
  let host: Proc;
  let validator: OpenApiValidator;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-braind-'));

  before(async () => {
    sims.push(await startSimAt(RACK[0], ['--devices', '3', '--profile', 'usbhub3p']));
    sims.push(await startSimAt(LOCKED, ['--profile', 'mtm-pm-1', '--token', SECRET]));
    fs.writeFileSync(path.join(dir, 'tokens'), `${LOCKED} ${SECRET}\n`);
    host = await startHost([...sims.flatMap((s) => ['--module', `http://127.0.0.1:${s.port}`]), '--tokens', path.join(dir, 'tokens')]);
    await within(5000, async () => json(await exchange(host.port, 'GET', '/api/v1/device')).response.filter((m: any) => m.online).length === 4,
      'all 4 modules online');
    const doc = await exchange(host.port, 'GET', '/api/v1/openapi.json', undefined, { 'accept-encoding': 'gzip' });
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['content-encoding'], 'gzip');
    validator = new OpenApiValidator(JSON.parse(gunzipSync(doc.body).toString('utf8')));
  });

  after(async () => {
    await Promise.all([host?.stop(), ...sims.map((s) => s.stop())]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** GET `p` through the host server: 200, JSON, and as the host server's OpenAPI document says. */
  async function conforming(p: string): Promise<any> {
    const r = await exchange(host.port, 'GET', p);
    assert.equal(r.status, 200, r.body.toString());
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const body = json(r);
    assert.equal(validator.check('GET', p, 200, body), '', p);
    return body;
  }

  it('GET /api/v1/acronameDevices lists every module online, in the envelope', async () => {
    const body = await conforming('/api/v1/acronameDevices');
    assert.equal(body.request.endpointName, '/api/v1/acronameDevices');
    const devices: any[] = body.response.acronameDevices;
    assert.deepEqual(devices.map((d) => d.serialNumber).sort(), [...RACK, LOCKED]);
    const listed: any[] = json(await exchange(host.port, 'GET', '/api/v1/device')).response;
    for (const d of devices) {
      const m = listed.find((x) => x.serialNumber === d.serialNumber);
      assert.deepEqual(d, { type: 'NETWORK', serialNumber: m.serialNumber, module: m.module, model: m.model });
    }
    assert.equal(devices.find((d) => d.serialNumber === LOCKED).model, 14, 'MTM-PM-1');
  });

  it('GET /api/v1/acronameDevicesState: firmware versions, and a sequence counting up on each answer', async () => {
    const first = (await conforming('/api/v1/acronameDevicesState')).response;
    const second = (await conforming('/api/v1/acronameDevicesState')).response;
    assert.ok(Number.isInteger(first.sequence) && first.sequence >= 1);
    assert.equal(second.sequence, first.sequence + 1);
    assert.ok(Date.parse(second.timestamp) >= Date.parse(first.timestamp));
    const [major, minor, patch] = PACKAGE.version.split('.').map(Number);
    assert.deepEqual(first.brainstemVersion, { major, minor, patch });
    const devices: any[] = second.acronameDevices;
    assert.deepEqual(devices.map((d) => d.serialNumber).sort(), [...RACK, LOCKED]);
    for (const d of devices) {
      // What the module itself answers at system/0/version.
      const sim = d.serialNumber === LOCKED ? sims[1] : sims[0];
      const v = json(await exchange(sim.port, 'GET', `/api/v1/device/${d.serialNumber}/system/0/version`)).response.rawValue;
      assert.deepEqual(d.firmwareVersion, { major: v >>> 28, minor: (v >>> 24) & 15, patch: v & 0xffffff }, d.serialNumber);
      assert.equal(d.type, 'NETWORK');
      assert.equal(d.address, `127.0.0.1:${sim.port}`);
    }
    assert.equal(JSON.stringify(second).includes(SECRET), false, 'the token is never shown');
  });

  it('GET /api/v1/version: the host server\'s version, not in the envelope; other methods 405', async () => {
    const body = await conforming('/api/v1/version');
    const [major, minor, patch] = PACKAGE.version.split('.').map(Number);
    assert.deepEqual(body, { major, minor, patch });
    const head = await exchange(host.port, 'HEAD', '/api/v1/version');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const put = await exchange(host.port, 'PUT', '/api/v1/version', '{"value":1}', { 'content-type': 'application/json' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.allow, 'GET, HEAD, OPTIONS');
  });

  it('serves its own OpenAPI document: the forwarded module routes, its lists and BrainD\'s names', async () => {
    const r = await exchange(host.port, 'GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined, 'plain to a client that does not ask for gzip');
    const doc = json(r);
    for (const p of ['/api/v1/acronameDevices', '/api/v1/acronameDevicesState', '/api/v1/version', '/api/v1/targets', '/api/v1/device',
      '/api/v1/device/{serial}/system/{index}/version']) assert.ok(doc.paths[p]?.get, p);
    assert.equal(doc.paths['/metrics'], undefined, 'the host server has no /metrics of its own');
    assert.equal(doc.info.version, PACKAGE.version);
    await conforming('/api/v1/device');
    await conforming('/api/v1/targets');
    const forwarded = `/api/v1/device/${RACK[1]}/system/0/version`;
    assert.equal(validator.check('GET', forwarded, 200, json(await exchange(host.port, 'GET', forwarded))), '');
  });
});
