// The Pico W losing its access point and getting it back: src/device/main.ts on the fakes with Wi-Fi
// configured and the Pico's lwIP sockets (tests/fakes/lwip-heap.ts set as net.lwip), whose listener
// cannot be closed and made again: the SDK's close frees its pcb twice and the next listener makes
// lwIP panic, "tcp_free: LISTEN" (tests/fakes/listener.ts). The module keeps its one listener across
// the loss, withdraws its announcement while the network is down, and serves again once it rejoins.

import { strict as assert } from 'node:assert';
import { FULL_BOARD, freshWorld, get, net, replies } from './fakes/world';
import { setConfig } from './fakes/config';
import { radio } from './fakes/wifi';
import { LwipHeap, PICO_SND_BUF } from './fakes/lwip-heap';
import Listener from './fakes/listener';
import { RETRY_MAX_MS } from '../src/device/network';

const MAIN = require.resolve('../src/device/main');
const PICO_PACING = { writeMax: 1460, sendingMax: 2 }; // manifest.json, platform pico/pico_w

function bootPico(): void {
  freshWorld();
  net.lwip = new LwipHeap();
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: { ...FULL_BOARD, ...PICO_PACING }, ssid: 'lab', password: 'pw' });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
}

/** A GET of the serial on a new connection, as curl asks it; whether it was answered within 5 s. */
function serves(): boolean {
  let c;
  try {
    c = net.connect(8080, PICO_SND_BUF);
  } catch {
    return false; // no address: nothing reaches the module
  }
  c.onReceived = () => { if (replies(c).length) c.close(); };
  c.send(get('system/0/serialnumber'));
  net.advance(5000);
  const r = replies(c);
  return r.length === 1 && r[0].status === 200;
}

function apAwayAndBack(): void {
  radio.off();
  net.advance(20000);
  assert.equal(serves(), false);
  radio.on();
  net.advance(RETRY_MAX_MS + 5000);
  assert.equal(radio.station?.connection, 500, 'the station never rejoined');
}

describe('Pico W: the access point goes away and comes back (fake lwIP listener)', () => {
  beforeEach(() => radio.reset());
  after(() => { delete require.cache[MAIN]; net.reset(); radio.reset(); });

  it('the fake panics as lwIP does when a listener is made after one was closed', () => {
    freshWorld();
    net.lwip = new LwipHeap();
    new Listener({ port: 8080 }).close();
    assert.throws(() => new Listener({ port: 8080 }), /tcp_free: LISTEN/);
    assert.equal(net.panic, 'tcp_free: LISTEN');
  });

  it('keeps its listener across two outages and serves after each rejoin, with no lwIP panic', () => {
    bootPico();
    net.advance(3000);
    assert.equal(serves(), true);
    const listener = net.listeners.get(8080);
    for (let outage = 1; outage <= 2; outage++) {
      apAwayAndBack();
      assert.equal(net.panic, null, `lwIP panicked after outage ${outage}`);
      assert.equal(serves(), true, `no answer after outage ${outage}`);
    }
    assert.equal(net.listeners.get(8080), listener, 'the listener was made again');
    assert.deepEqual(net.traces.filter((t) => /network (up|down):/.test(t)), []);
  });

  it('withdraws its announcement while the network is down and announces again after the rejoin', () => {
    bootPico();
    net.advance(3000);
    const announced = (): number => net.traces.filter((t) => t.startsWith('announced ')).length;
    const before = announced();
    assert.ok(before >= 1, 'never announced');
    apAwayAndBack();
    assert.ok(announced() > before, 'not announced again after the rejoin');
  });
});
