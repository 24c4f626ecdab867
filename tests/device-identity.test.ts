// A serial per board (DECISIONS §Identity): src/device/main.ts on the fakes, whose chips have no MAC
// before their Wi-Fi driver starts (tests/fakes/platform.ts: the ESP32's `net` answers nothing, the
// Pico W's reads ROM bytes). Two boards with two MACs get two serials and two default host names; a
// configured serial wins; a board with no identifier serves no serial at all (503) and announces nothing.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, platform, radio } from './fakes/world';
import { setConfig } from './fakes/config';

const MAIN = require.resolve('../src/device/main');
const claimed = (): Promise<void> => new Promise((r) => setImmediate(r));

interface Board { chip: 'esp32' | 'pico'; mac: string; ssid?: string; serial?: string }

/**
 * Power up a board: a chip with this MAC (a fresh one, or the same one again with its saved settings:
 * `restart`), main.ts evaluated again, Wi-Fi joined (if configured).
 */
async function boot(b: Board, restart = false): Promise<void> {
  if (restart) net.reset();
  else freshWorld();
  radio.reset();
  radio.mac = b.mac;
  platform.chip = b.chip;
  setConfig({
    http: { port: 8080, connections: 4 }, firmware: { major: 1, minor: 2, patch: 3 }, board: FULL_BOARD,
    ...(b.ssid ? { ssid: b.ssid, password: 'pw' } : {}), ...(b.serial ? { serial: b.serial } : {}),
  });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.advance(2000); // association and DHCP address
  await claimed();
}

function value(path: string): unknown {
  const r = ask(8080, get(path));
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.response.value;
}

/** The names the module announced on DNS-SD, as its trace says (src/device/announce.ts). */
function announced(): string[] {
  const names: string[] = [];
  for (const t of net.traces) {
    const m = /^announced (\S+)\.local /.exec(t);
    if (m) names.push(m[1]);
  }
  return names;
}

/** The identity a client and the network see: serial, host name, and the name announced. */
function identity(): { serial: unknown; hostname: unknown; announced: string[] } {
  return { serial: value('system/0/serialnumber'), hostname: value('ethernet/0/hostname'), announced: announced() };
}

describe('a serial per board, read where the chip has it', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); radio.reset(); });

  for (const chip of ['esp32', 'pico'] as const) {
    it(`two ${chip} boards with two MACs get two serials and two default host names`, async () => {
      await boot({ chip, mac: '24:0A:C4:12:34:56', ssid: 'lab' });
      const a = identity();
      await boot({ chip, mac: '24:0A:C4:AB:CD:EF', ssid: 'lab' });
      const b = identity();
      assert.deepEqual(a, { serial: 0xc4123456, hostname: 'brainstem-c4123456', announced: ['brainstem-c4123456'] });
      assert.deepEqual(b, { serial: 0xc4abcdef, hostname: 'brainstem-c4abcdef', announced: ['brainstem-c4abcdef'] });
      // The name it took is its name for the Host check too.
      const byName = ask(8080, 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: brainstem-c4abcdef.local\r\n\r\n');
      assert.equal(byName.status, 200, JSON.stringify(byName.json));
    });
  }

  it('keeps a configured serial (config.serial wins over the MAC)', async () => {
    await boot({ chip: 'esp32', mac: '24:0A:C4:12:34:56', ssid: 'lab', serial: '0x1234ABCD' });
    assert.deepEqual(identity(), { serial: 0x1234abcd, hostname: 'brainstem-1234abcd', announced: ['brainstem-1234abcd'] });
  });

  it('keeps a saved host name over the one the serial gives', async () => {
    await boot({ chip: 'esp32', mac: '24:0A:C4:12:34:56', ssid: 'lab' });
    const put = 'PUT /api/v1/device/ethernet/0/hostname HTTP/1.1\r\nHost: 192.168.1.50\r\nContent-Length: 17\r\n\r\n{"value":"bench"}';
    assert.equal(ask(8080, put).status, 200);
    assert.equal(ask(8080, get('system/0/save')).status, 200);
    await boot({ chip: 'esp32', mac: '24:0A:C4:12:34:56', ssid: 'lab' }, true);
    assert.equal(value('ethernet/0/hostname'), 'bench');
    assert.equal(value('system/0/serialnumber'), 0xc4123456);
  });

  // No Wi-Fi to start: the ESP32's `net` has no MAC, the Pico W's reads its boot ROM (a constant).
  for (const chip of ['esp32', 'pico'] as const) {
    it(`a ${chip} board with no identifier serves no serial (503) and does not announce itself`, async () => {
      await boot({ chip, mac: '24:0A:C4:12:34:56' });
      for (const path of ['system/0/serialnumber', 'ethernet/0/hostname']) {
        const r = ask(8080, get(path));
        assert.equal(r.status, 503, JSON.stringify(r.json));
        assert.equal(r.json.response.error, 'aErrResource');
        assert.match(r.json.response.message, /no serial number/);
      }
      const list = ask(8080, 'GET /api/v1/device HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n');
      assert.equal(list.status, 503);
      await claimed();
      assert.deepEqual(announced(), []);
      assert.deepEqual(net.traces.filter((t) => t.startsWith('not announced')), []); // not even tried
      assert.ok(net.traces.some((t) => t.startsWith('identity: no identifier readable')), net.traces.join(''));
    });
  }
});
