// A firmware rollout from the host server across 8 simulated modules, real processes on loopback
// (docs/firmware.md §A rollout): one module first, then waves; a module that refuses the image half-way
// stops the rollout with the rest untouched; an image whose firmware never comes back stops it after
// the first module; progress is readable while it runs; the modules' tokens stay with the host server.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exchange, json, startHost, startSimAt, within, type Proc } from './host-helpers';
import { image } from './firmware-helpers';

const MODULE_TOKEN = 'module-token-91c';
const HOST_TOKEN = 'host-token-3b7';
const serial = (i: number): string => '0x' + (0x30000001 + i).toString(16).toUpperCase();
const ODD = '0x40000001'; // a module of another model: it refuses the image

describe('host server: a firmware rollout across 8 simulated modules', function () {
  this.timeout(60000);
  let sims: Proc[] = [];
  let host: Proc;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollout-'));
  const good = path.join(dir, 'good.bin');
  const dead = path.join(dir, 'dead.bin');
  const auth = { authorization: `Bearer ${HOST_TOKEN}`, 'content-type': 'application/json' };

  const versionOf = async (s: string): Promise<string> =>
    json(await exchange(host.port, 'GET', `/api/v1/device/${s}/firmware`)).response.version;
  const start = async (body: object) => json(await exchange(host.port, 'POST', '/api/v1/rollouts', JSON.stringify(body), auth));
  const progress = async (id: string) => json(await exchange(host.port, 'GET', `/api/v1/rollouts/${id}`)).response;
  const finished = async (id: string) => {
    await within(30000, async () => (await progress(id)).state !== 'running', `rollout ${id} ends`);
    return progress(id);
  };

  beforeEach(async () => {
    fs.writeFileSync(good, image({ version: '2.12.0', size: 50000 }));
    fs.writeFileSync(dead, image({ version: '2.13.0', size: 50000, neverStarts: true }));
    sims = await Promise.all([
      startSimAt(serial(0), ['--devices', '7', '--token', MODULE_TOKEN, '--auth', 'digest']), // Digest only: the rollout must speak it
      startSimAt(ODD, ['--profile', 'usbhub3p', '--token', MODULE_TOKEN]),
    ]);
    const tokens = path.join(dir, 'tokens');
    fs.writeFileSync(tokens, `* ${MODULE_TOKEN}\n`);
    host = await startHost([...sims.map((s) => ['--module', `http://127.0.0.1:${s.port}`]).flat(), '--tokens', tokens, '--token', HOST_TOKEN]);
    await within(5000, async () => json(await exchange(host.port, 'GET', '/api/v1/device')).response.filter((m: any) => m.online).length === 8,
      'all 8 modules online');
  });

  afterEach(async () => {
    await Promise.all([host?.stop(), ...sims.map((s) => s.stop())]);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('updates every module of a model: the first alone, then waves of 3; each comes back with the new version', async () => {
    const r = await start({ image: good, model: 4, waveSize: 3 });
    assert.equal(r.response.state, 'running');
    const p = await finished(r.response.id);
    assert.equal(p.state, 'done');
    assert.equal(p.done, 7, 'the 7 modules of model 4, not the other model');
    assert.deepEqual(p.modules.map((m: any) => m.wave), [1, 2, 2, 2, 3, 3, 3]);
    for (let i = 0; i < 7; i++) assert.equal(await versionOf(serial(i)), '2.12.0');
    assert.equal(await versionOf(ODD), '2.11.3', 'a module not named is untouched');
  });

  it('stops at a module that refuses the image half-way: the rest are not started and keep their firmware', async () => {
    const named = [serial(0), serial(1), serial(2), ODD, serial(3), serial(4), serial(5), serial(6)];
    const r = await start({ image: good, modules: named, waveSize: 3 });
    const p = await finished(r.response.id);
    assert.equal(p.state, 'stopped');
    const byState = (s: string) => p.modules.filter((m: any) => m.state === s).map((m: any) => m.serialNumber);
    assert.deepEqual(byState('done'), [serial(0), serial(1), serial(2)], 'waves 1 and 2 but the odd one');
    assert.deepEqual(byState('failed'), [ODD]);
    assert.match(p.modules[3].why, /answered 400 aErrParam: the image is for model 4; this module is model \d+/);
    assert.deepEqual(byState('not started'), [serial(3), serial(4), serial(5), serial(6)]);
    for (const s of [serial(3), serial(4), serial(5), serial(6)]) {
      const fw = json(await exchange(host.port, 'GET', `/api/v1/device/${s}/firmware`)).response;
      assert.deepEqual([fw.version, fw.slot, fw.rollback], ['2.11.3', 'sim-a', null], `${s} untouched`);
    }
  });

  it('stops after the first module when it never comes back with the new version; progress is readable meanwhile', async () => {
    const r = await start({ image: dead, model: 4, waveSize: 3, backWithinS: 3 });
    const id = r.response.id;
    await within(2000, async () => (await progress(id)).modules[0].state === 'restarting', 'the first module restarting');
    const during = await progress(id);
    assert.equal(during.state, 'running');
    assert.equal(during.notStarted, 6);
    const p = await finished(id);
    assert.equal(p.state, 'stopped');
    assert.equal(p.modules[0].state, 'failed');
    assert.match(p.modules[0].why, /did not come back with 2\.13\.0 within 3 s/);
    assert.equal(p.notStarted, 6);
    for (let i = 1; i < 7; i++) assert.equal(await versionOf(serial(i)), '2.11.3');
  });

  it('needs the host server token to start one; refuses an unreadable image and unknown modules', async () => {
    const noToken = await exchange(host.port, 'POST', '/api/v1/rollouts', JSON.stringify({ image: good, model: 4 }), { 'content-type': 'application/json' });
    assert.equal(noToken.status, 401);
    const missing = await start({ image: path.join(dir, 'nope.bin'), model: 4 });
    assert.match(missing.response.message, /cannot read the image .*ENOENT/);
    const unknown = await start({ image: good, modules: ['0x0BADF00D'] });
    assert.match(unknown.response.message, /0x0BADF00D is not online here/);
    const list = json(await exchange(host.port, 'GET', '/api/v1/rollouts')).response;
    assert.deepEqual(list, [], 'nothing was started');
  });
});
