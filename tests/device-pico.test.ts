// Pico W details on the fakes: digital inputs that have the same pull whatever the pin did before (the
// Pico's Digital.Input leaves the RP2040's reset pull-down in place: tests/fakes/digital.ts), the DNS
// address published as unavailable where `net` cannot give it, and the wrap-safe clock kept exact by its
// own timer through a network outage longer than the 24.8 days Time.ticks takes to wrap.

import { strict as assert } from 'node:assert';
import { ask, board, FULL_BOARD, freshWorld, get, makeModule, net, radio } from './fakes/world';
import { pins } from './fakes/io';
import Digital from './fakes/digital';
import { setConfig } from './fakes/config';
import { resetPins } from './fakes/io';
import type { DeviceModule } from '../hal/device/module';
import type { EntityHal } from '../hal/types';

function entity(m: DeviceModule, name: string): EntityHal {
  return (m.entities as unknown as { readonly [name: string]: EntityHal })[name];
}

const PIN = FULL_BOARD.digital[0];
const MAIN = require.resolve('../src/device/main');

describe('Pico W details', () => {
  beforeEach(() => {
    freshWorld();
    pins.chip = 'pico';
    pins.floating = 1; // an unconnected pin with no pull happens to read high
  });
  after(() => { delete require.cache[MAIN]; net.reset(); radio.reset(); resetPins(); });

  it('gives a high-Z input no pull even when it is the first open since reset', () => {
    const m = makeModule();
    entity(m, 'digital').set(0, 'configuration', [], 4);
    entity(m, 'system').run!(0, 'save', []);
    resetPins(); // a power cycle: the RP2040's pins back to their reset pull-down
    pins.chip = 'pico';
    pins.floating = 1;
    const d = entity(makeModule(), 'digital'); // boots with the saved configuration 4
    assert.equal(Digital.pullOf(PIN), 'none');
    assert.equal(d.get(0, 'state', []), true); // floating, not held low
  });

  it('gives an input (configuration 0) its pull-down after any history', () => {
    const d = entity(makeModule(), 'digital');
    assert.equal(Digital.pullOf(PIN), 'down');
    for (const before of [4, 1, 4]) {
      d.set(0, 'configuration', [], before);
      d.set(0, 'configuration', [], 0);
      assert.equal(Digital.pullOf(PIN), 'down', `after configuration ${before}`);
      assert.equal(d.get(0, 'state', []), false, `after configuration ${before}`);
    }
  });

  it('leaves ipv4dnsaddress out (501) on a board whose net gives no DNS servers', () => {
    const pico = entity(makeModule(board({ ...FULL_BOARD, readsDns: false })), 'ethernet');
    assert.equal(pico.supports('ipv4dnsaddress'), false);
    assert.equal(pico.supports('ipv4address'), true);
    assert.equal(entity(makeModule(), 'ethernet').supports('ipv4dnsaddress'), true);
  });

  it('answers ipv4dnsaddress 501 aErrUnimplemented through the API, and leaves it out of the description', () => {
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: { ...FULL_BOARD, readsDns: false } });
    delete require.cache[MAIN];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
    require(MAIN);
    const r = ask(8080, get('ethernet/0/ipv4dnsaddress'));
    assert.equal(r.status, 501, JSON.stringify(r.json));
    assert.equal(r.json.response.error, 'aErrUnimplemented');
    const c = net.connect(8080);
    c.send('GET /api/v1/device/0x1234ABCD HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n');
    net.advance(1000);
    assert.match(c.received, /"ipv4address"/);
    assert.doesNotMatch(c.received, /"ipv4dnsaddress"/);
  });

  it('keeps the token lockout right after a network outage of 25 days (the clock fed while no server runs)', () => {
    setConfig({ http: { port: 8080, connections: 4, token: 'sesame' }, serial: '0x1234ABCD', board: FULL_BOARD, ssid: 'lab', password: 'pw' });
    delete require.cache[MAIN];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
    require(MAIN);
    net.advance(2000);
    const put = (token: string): number => ask(8080, 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: 192.168.1.50\r\n' +
      `Authorization: Bearer ${token}\r\nContent-Length: 12\r\n\r\n{"value":20}`).status;
    let status = 0;
    for (let i = 0; i < 20 && status !== 429; i++) status = put('wrong');
    assert.equal(status, 429, 'locked out');
    radio.off(); // the access point goes away for 25 days: no server, nothing reads the clock but its timer
    net.advance(25 * 24 * 3600 * 1000);
    radio.on();
    net.advance(120000);
    assert.equal(put('sesame'), 200, 'still locked out after 25 days: the clock went backwards');
  });
});
