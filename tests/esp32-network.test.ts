// A network that comes and goes: src/device/main.ts on the fakes with Wi-Fi configured (config.ssid),
// against a fake of the SDK's ESP32 Wi-Fi interface (tests/fakes/wifi.ts: connect, association, DHCP
// address, a lost access point as a disconnect that nothing repairs by itself). The module waits for
// the access point at power-up, rejoins after losing it (with a backoff), and its REST listener serves
// again. Without an SSID (the desktop host) it serves at once.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net } from './fakes/world';
import { setConfig } from './fakes/config';
import { radio } from './fakes/wifi';
import { NetworkLink, RETRY_MAX_MS } from '../src/device/network';

const MAIN = require.resolve('../src/device/main');

function boot(ssid?: string): void {
  freshWorld();
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD, ...(ssid ? { ssid, password: 'pw' } : {}) });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
}

function serves(): boolean {
  try {
    return ask(8080, get('system/0/serialnumber')).status === 200;
  } catch {
    return false; // no address: nothing reaches the module
  }
}

describe('Wi-Fi: wait at power-up, rejoin after a loss (fake ESP32 Wi-Fi interface)', () => {
  beforeEach(() => radio.reset());
  after(() => { delete require.cache[MAIN]; net.reset(); radio.reset(); });

  it('serves at once when no Wi-Fi is configured (the desktop host)', () => {
    boot();
    assert.equal(serves(), true);
  });

  it('joins the configured network and serves once it has an address', () => {
    boot('lab');
    assert.equal(radio.connects, 1);
    net.advance(1000);
    assert.equal(radio.station?.connection, 500);
    assert.equal(serves(), true);
  });

  it('waits for an access point that is down at power-up, then serves', () => {
    radio.apOn = false;
    boot('lab');
    net.advance(60000);
    assert.equal(serves(), false);
    assert.ok(radio.connects >= 3, `${radio.connects} attempts in a minute`);
    radio.on();
    net.advance(RETRY_MAX_MS + 5000);
    assert.equal(radio.station?.connection, 500, 'the station never joined');
    assert.equal(serves(), true);
  });

  it('rejoins after the access point reboots, its REST listener serving again', () => {
    boot('lab');
    net.advance(1000);
    assert.equal(serves(), true);
    radio.off();
    net.advance(20000);
    assert.equal(serves(), false);
    radio.on();
    net.advance(RETRY_MAX_MS + 5000);
    assert.equal(radio.station?.connection, 500, 'the station never rejoined');
    assert.equal(serves(), true);
  });

  it('backs off between attempts while the access point stays away (1 s doubling, at most 60 s)', () => {
    boot('lab');
    net.advance(1000);
    radio.off();
    const start = radio.connects;
    net.advance(10 * 60000);
    const tries = radio.connects - start;
    // 1+2+4+8+16+32 s, then one every 60 s (plus 3 s of searching each): about 14 in ten minutes.
    assert.ok(tries >= 8 && tries <= 20, `${tries} attempts in ten minutes`);
  });

  it('boots when the Wi-Fi driver does not start, and tries it again after the backoff', () => {
    radio.failCreates = 2; // the first two Wi-Fi objects fail, as a Pico W's CYW43 that does not start
    boot('lab'); // main does not throw
    assert.equal(radio.connects, 0, 'no Wi-Fi object to join with');
    assert.equal(serves(), false);
    net.advance(1000 + 2000 + 1000); // the two retries (1 s, then 2 s), then the join itself
    assert.equal(radio.failCreates, 0);
    assert.equal(radio.station?.connection, 500);
    assert.equal(serves(), true);
  });
});

describe('NetworkLink watchers (the hook other network users take)', () => {
  beforeEach(() => { freshWorld(); radio.reset(); });

  it('tells each watcher up (with the address) and down, and a late watcher up at once', () => {
    const heard: string[] = [];
    const link = new NetworkLink({ ssid: 'lab' });
    link.watch({ up: (a) => heard.push('up ' + a), down: () => heard.push('down') });
    link.start();
    net.advance(1000);
    radio.off();
    net.run();
    radio.on();
    net.advance(5000);
    assert.deepEqual(heard, ['up 192.168.1.50', 'down', 'up 192.168.1.50']);
    const late: string[] = [];
    link.watch({ up: (a) => late.push(a), down: () => late.push('down') });
    assert.deepEqual(late, ['192.168.1.50']);
  });

  it('a watcher that throws does not keep the others from hearing', () => {
    const heard: string[] = [];
    const link = new NetworkLink({});
    link.watch({ up: () => { throw new Error('port in use'); }, down: () => undefined });
    link.watch({ up: () => heard.push('up'), down: () => undefined });
    link.start();
    assert.deepEqual(heard, ['up']);
  });
});
