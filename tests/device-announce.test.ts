// The module's DNS-SD announcement (src/device/announce.ts) as main.ts starts it, on the fakes: the
// host name it claims, both services on the REST port with the TXT record, a taken name renamed by
// the mdns module, and a new announcement after a save + reset that changes hostname and port.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, platform, put } from './fakes/world';
import { setConfig } from './fakes/config';
import MDNS from './fakes/mdns';

const MAIN = require.resolve('../src/device/main');

function boot(): void {
  net.reset();
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation, as a restart does
  require(MAIN);
}

const claimed = (): Promise<void> => new Promise((r) => setImmediate(r));

function ok(port: number, request: string): void {
  const r = ask(port, request);
  assert.equal(r.status, 200, JSON.stringify(r.json));
}

describe('device announcement (DNS-SD) on the fakes', () => {
  beforeEach(() => {
    freshWorld();
    MDNS.announced.length = 0;
    MDNS.taken.clear();
    MDNS.broken = false;
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', firmware: { major: 1, minor: 2, patch: 3 }, board: FULL_BOARD });
  });
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('claims brainstem-{serial}.local and adds _http._tcp and _brainstem._tcp on the REST port with the TXT record', async () => {
    boot();
    await claimed();
    const m = MDNS.announced.at(-1)!;
    assert.equal(m.hostName, 'brainstem-1234abcd');
    assert.deepEqual(m.services.map((s) => s.name), ['http', 'brainstem']);
    for (const s of m.services) {
      assert.equal(s.port, 8080);
      assert.equal(s.protocol, 'tcp');
      assert.deepEqual(s.txt, { serial: '0x1234ABCD', model: String(FULL_BOARD.model), fw: '1.2.3', api: '/api/v1', auth: 'none' });
    }
  });

  it('serves on unannounced when no multicast socket can be made', async () => {
    MDNS.broken = true;
    boot();
    await claimed();
    assert.ok(net.traces.some((t) => t.startsWith('not announced: invalid multicast IP address')));
    ok(8080, get('system/0/serialnumber'));
  });

  it('announces nothing when the build config says so (config.announce false)', async () => {
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD, announce: false });
    boot();
    await claimed();
    assert.equal(MDNS.announced.length, 0);
    assert.ok(net.traces.some((t) => t.startsWith('not announced: config.announce is false')));
    ok(8080, get('system/0/serialnumber'));
  });

  it('takes the name the mdns module renamed it to when the first was taken', async () => {
    MDNS.taken.add('brainstem-1234abcd');
    boot();
    await claimed();
    assert.equal(MDNS.announced.at(-1)!.hostName, 'brainstem-1234abcd-2');
  });

  it('announces again after a save + reset that changes hostname and port, and not after one that changes neither', async () => {
    platform.chipRestarts = false;
    boot();
    await claimed();
    const first = MDNS.announced.at(-1)!;
    ok(8080, get('system/0/reset'));
    net.advance(500);
    assert.equal(MDNS.announced.at(-1), first, 'nothing changed: no new announcement');
    ok(8080, put('ethernet/0/hostname', 'bench-a'));
    ok(8080, put('ethernet/0/interfaceport/0', 9090));
    ok(8080, get('system/0/save'));
    ok(8080, get('system/0/reset'));
    net.advance(500);
    await claimed();
    const again = MDNS.announced.at(-1)!;
    assert.notEqual(again, first);
    assert.equal(first.closed, true);
    assert.equal(again.hostName, 'bench-a');
    assert.deepEqual(again.services.map((s) => s.port), [9090, 9090]);
  });
});
