// The host server in front of a rack of 8 simulator processes, all real processes on loopback:
// every module listed, every route answered through it exactly as the module itself answered it,
// Prometheus targets, access control and module tokens, event streams relayed.

import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allRoutes, type Route } from '../src/api/route/routes';
import { exchange, json, relay, sentByModule, startHost, startSimAt, within, type Proc, type Relay } from './host-helpers';

const PROFILES = ['everything', 'usbstem', 'usbhub3p', 'mtm-pm-1', 'everything', 'usbstem', 'usbhub3p', 'everything'];
const serialOf = (i: number): string => '0x' + (0xa0000001 + i).toString(16).toUpperCase();

/** A path for the route: the lowest valid path parameters (a real entity code for userconfig's {command}). */
function pathOf(serial: string, r: Route): string {
  const param = (name: string, min: number): number => (name === 'command' ? 3 : Math.max(min, 0));
  return `/api/v1/device/${serial}/${r.entity}/0/${r.op}` + r.params.map((p) => '/' + param(p.name, p.min)).join('');
}

describe('host server: a rack of 8 simulators', function () {
  this.timeout(60000);
  const sims: Proc[] = [];
  let host: Proc;
  let tee: Relay;
  const tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-tokens-'));
  const SECRET = 'rack-secret-7f3a';

  before(async () => {
    // Module 7 wants a token; the host server holds it (from the file) and never shows it.
    sims.push(...await Promise.all(PROFILES.map((p, i) => startSimAt(serialOf(i), ['--profile', p, ...(i === 7 ? ['--token', SECRET] : [])]))));
    tee = await relay(sims[0].port); // module 0 is reached through a recording relay
    const tokens = path.join(tokenDir, 'tokens');
    fs.writeFileSync(tokens, `# serial token\n${serialOf(7)} ${SECRET}\n`);
    const modules = sims.map((s, i) => ['--module', `http://127.0.0.1:${i === 0 ? tee.port : s.port}`]).flat();
    host = await startHost([...modules, '--tokens', tokens]);
    // Every test may run alone (mocha -g): each starts once every module has been probed.
    await within(5000, async () => json(await exchange(host.port, 'GET', '/api/v1/device')).response.filter((m: any) => m.online).length === 8,
      'all 8 modules online');
  });

  after(async () => {
    tee?.close();
    await Promise.all([host?.stop(), ...sims.map((s) => s.stop())]);
    fs.rmSync(tokenDir, { recursive: true, force: true });
  });

  it('lists every module with its address, online, lastSeen', async () => {
    const list: any[] = json(await exchange(host.port, 'GET', '/api/v1/device')).response;
    assert.equal(list.length, 8);
    for (let i = 0; i < 8; i++) {
      const m = list.find((x) => x.serialNumber === serialOf(i));
      assert.ok(m, `module ${serialOf(i)} listed`);
      assert.equal(m.online, true);
      assert.equal(m.address, `127.0.0.1:${i === 0 ? tee.port : sims[i].port}`);
      assert.ok(typeof m.model === 'number' && typeof m.module === 'number');
      assert.ok(Date.now() - Date.parse(m.lastSeen) < 5000);
    }
  });

  it('answers GET /api/v1/targets in Prometheus HTTP SD form, one group per module online', async () => {
    const r = await exchange(host.port, 'GET', '/api/v1/targets');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const groups = json(r);
    assert.equal(groups.length, 8);
    for (const g of groups) {
      assert.deepEqual(Object.keys(g).sort(), ['labels', 'targets']);
      assert.match(g.targets[0], /^127\.0\.0\.1:\d+$/);
      assert.match(g.labels.serial, /^0x[0-9A-F]{8}$/);
      assert.match(g.labels.model, /^\d+$/);
    }
  });

  it('forwards a walk of every route (GET and PUT) byte for byte as the module answered it', async () => {
    const routes = allRoutes().filter((r) => r.get !== 'bytes' && !(r.entity === 'system' && r.op.startsWith('reset')));
    const direct = sims[0].port;
    let checked = 0;
    for (const r of routes) {
      const p = pathOf(serialOf(0), r);
      for (const [method, body] of [['GET', undefined], ['PUT', '{"value":0}']] as const) {
        const before = tee.recorded().length;
        const via = await exchange(host.port, method, p, body);
        const sent = tee.recorded().subarray(before);
        assert.ok(sentByModule(sent, via.status, via.body), `${method} ${p}: ${via.status} ${via.body} is not what the module sent`);
        checked++;
      }
      // The same route asked of the module directly gets the same status. Not for an action: two at
      // once race for it (a second bulk capture while the first runs is 503 aErrBusy, whoever asks).
      if (r.get === 'none') continue;
      const [a, b] = await Promise.all([exchange(host.port, 'GET', p), exchange(direct, 'GET', p)]);
      assert.equal(a.status, b.status, `GET ${p}`);
    }
    assert.ok(checked >= 2 * 290, `walked ${checked}`);
  });

  it('forwards to every module of the rack, by serial and by the literal brainstem', async () => {
    await Promise.all(sims.map(async (s, i) => {
      const via = json(await exchange(host.port, 'GET', `/api/v1/brainstem/${serialOf(i).toLowerCase()}/system/0/serialnumber`));
      assert.equal(via.response.value >>> 0, 0xa0000001 + i);
      const desc = await exchange(host.port, 'GET', `/api/v1/device/${serialOf(i)}`);
      const own = await exchange(s.port, 'GET', `/api/v1/device/${serialOf(i)}`);
      assert.equal(desc.status, 200);
      assert.deepEqual(Object.keys(json(desc).response.entities), Object.keys(json(own).response.entities));
    }));
  });

  it('GET /api/v1 lists its own links, each answered here, and no console page it does not serve', async () => {
    const links = json(await exchange(host.port, 'GET', '/api/v1')).response.links;
    assert.deepEqual(Object.keys(links).sort(), ['devices', 'events', 'openapi', 'rollouts', 'targets']);
    for (const name of ['devices', 'openapi', 'rollouts', 'targets']) {
      assert.equal((await exchange(host.port, 'GET', links[name])).status, 200, name);
    }
    const events = links.events.replace('{serial}', serialOf(0)) + '?watch=system/0/uptime&interval=200';
    const type = await new Promise<string>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: host.port, path: events }, (res) => {
        resolve(`${res.statusCode} ${res.headers['content-type']}`);
        req.destroy();
      });
      req.on('error', reject);
    });
    assert.match(type, /^200 text\/event-stream/);
  });

  it('writes to a module with a token from the tokens file, and never shows the token', async () => {
    const p = `/api/v1/device/${serialOf(7)}/system/0/name`;
    const direct = await exchange(sims[7].port, 'PUT', p.replace(`/${serialOf(7)}`, ''), '{"value":"bench"}');
    assert.equal(direct.status, 401);
    const via = await exchange(host.port, 'PUT', p, '{"value":"bench"}');
    assert.equal(via.status, 200, via.body.toString());
    for (const q of ['/api/v1/device', '/api/v1/targets', '/api/v1']) assert.ok(!(await exchange(host.port, 'GET', q)).body.includes(SECRET));
    assert.ok(!host.out().includes(SECRET));
  });

  it('applies the modules\' access control itself: Host check and cross-site writes', async () => {
    const p = `/api/v1/device/${serialOf(1)}/system/0/name`;
    const rebind = await exchange(host.port, 'GET', p, undefined, { Host: 'evil.example' });
    assert.equal(rebind.status, 403);
    assert.equal(json(rebind).response.error, 'aErrPermission');
    const cross = await exchange(host.port, 'PUT', p, '{"value":"x"}', { Origin: 'http://evil.example' });
    assert.equal(cross.status, 403);
    const unknown = await exchange(host.port, 'GET', '/api/v1/device/0xDEADBEEF/system/0/model');
    assert.equal(unknown.status, 404);
    assert.equal(json(unknown).response.error, 'aErrNotFound');
    const noSerial = await exchange(host.port, 'GET', '/api/v1/device/system/0/model');
    assert.equal(noSerial.status, 404);
    assert.match(json(noSerial).response.message, /put the serial in the path/);
  });

  it('answers HEAD with the headers of the module\'s GET and no body', async () => {
    const target = `/api/v1/device/${serialOf(1)}/system/0/serialnumber`;
    const get = await exchange(host.port, 'GET', target);
    const head = await exchange(host.port, 'HEAD', target);
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers['content-length'], String(get.body.length));
    assert.equal(head.body.length, 0);
  });

  /** Three events of a stream relayed from module 2, then the client goes away. */
  async function threeEvents(): Promise<string[]> {
    const http = await import('node:http');
    return new Promise<string[]>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: host.port, path: `/api/v1/device/${serialOf(2)}/events?watch=system/0/inputvoltage&interval=100` }, (res) => {
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^text\/event-stream/);
        const seen: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          seen.push(...d.split('\n').filter((l) => l.startsWith('data: ')));
          if (seen.length >= 3) { req.destroy(); resolve(seen); }
        });
      });
      req.on('error', reject);
    });
  }

  it('relays an event stream as it comes', async () => {
    const events = await threeEvents();
    for (const e of events) assert.ok('system/0/inputvoltage' in JSON.parse(e.slice(6)).values);
  });

  it('gives a relayed stream\'s connection back when its client goes away', async () => {
    // Twice the host server's 3 connections to the module, one after another: each must be returned.
    for (let i = 0; i < 6; i++) await threeEvents();
    const r = await exchange(host.port, 'GET', `/api/v1/device/${serialOf(2)}/system/0/serialnumber`);
    assert.equal(r.status, 200);
    assert.ok(r.ms < 1000, `answered at once, not after a wait for a connection (${r.ms} ms)`);
  });
});
