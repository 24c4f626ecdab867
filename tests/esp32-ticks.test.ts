// The device build across the ESP32's tick wrap: Time.ticks is a signed 32-bit millisecond count there
// (tests/fakes/time.ts wraps as the chip does, at 2^31 ms, 24.8 days after boot). The module is booted
// from src/device/main.ts on the fakes a few seconds before that moment; connection timeouts, slot
// eviction, the token lockout and event streams must behave across it as at any other time.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, replies } from './fakes/world';
import { setConfig } from './fakes/config';
import { radio } from './fakes/wifi';
import type { FakeClient } from './fakes/net';

const MAIN = require.resolve('../src/device/main');
const WRAP = 2 ** 31;

/** Boot the device entry with the virtual clock `before` ms short of the wrap. */
function bootBeforeWrap(before: number, http: Record<string, unknown> = {}): void {
  freshWorld();
  radio.reset();
  setConfig({ http: { port: 8080, connections: 4, ...http }, serial: '0x1234ABCD', board: FULL_BOARD });
  net.now = WRAP - before;
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
}

function open(request?: string, address?: string): FakeClient {
  const c = net.connect(8080, 4096, address);
  if (request) c.send(request);
  net.run();
  return c;
}

function withToken(path: string, token: string): string {
  return `GET /api/v1/device/${path} HTTP/1.1\r\nHost: 192.168.1.50\r\nAuthorization: Bearer ${token}\r\n\r\n`;
}

describe('device deadlines across the ESP32 tick wrap (signed 32-bit Time.ticks)', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('the fake clock wraps as the chip does', () => {
    net.now = WRAP - 1;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fake the device code sees
    const Time = require('./fakes/time').default as { ticks: number };
    assert.equal(Time.ticks, WRAP - 1);
    net.now = WRAP;
    assert.equal(Time.ticks, -WRAP);
  });

  it('closes an idle keep-alive connection after the idle timeout across the wrap', () => {
    bootBeforeWrap(5000);
    const c = open(get('system/0/serialnumber'));
    assert.equal(replies(c).length, 1);
    net.advance(29000);
    assert.equal(c.closedByServer, false, 'closed before its idle timeout');
    net.advance(2000);
    assert.equal(c.closedByServer, true, 'an idle connection stayed open across the wrap');
  });

  it('answers 408 to a head that never ends, 10 s after it began, across the wrap', () => {
    bootBeforeWrap(3000);
    const c = open('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n');
    net.advance(10500);
    assert.equal(replies(c)[0]?.status, 408);
  });

  it('gives a newcomer the slot of the connection idle longest, across the wrap', () => {
    bootBeforeWrap(1000);
    const oldest = open(get('system/0/serialnumber'));
    net.advance(2000); // past the wrap
    const others = [open(get('system/0/serialnumber')), open(get('system/0/serialnumber')), open(get('system/0/serialnumber'))];
    net.advance(100);
    const newcomer = open(get('system/0/serialnumber'));
    assert.equal(replies(newcomer)[0]?.status, 200);
    assert.equal(oldest.closedByServer, true, 'the oldest idle connection keeps its slot');
    for (const o of others) assert.equal(o.closedByServer, false);
  });

  it('evicts a partial request older than 2 s when every slot holds one, across the wrap', () => {
    bootBeforeWrap(1000);
    const partial = [];
    for (let k = 0; k < 4; k++) partial.push(open('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n'));
    net.advance(3000);
    const newcomer = open(get('system/0/serialnumber'));
    assert.equal(replies(newcomer)[0]?.status, 200, 'the newcomer was refused although partial requests are 3 s old');
    assert.equal(replies(partial[0])[0]?.status, 408);
  });

  it('lifts a token lockout after a minute, across the wrap', () => {
    bootBeforeWrap(30000, { token: 'right-token' });
    for (let k = 0; k < 10; k++) {
      const c = open(withToken('system/0/save', 'wrong-token'));
      assert.equal(replies(c)[0]?.status, 401);
      c.close();
    }
    const locked = open(withToken('system/0/save', 'right-token'));
    assert.equal(replies(locked)[0]?.status, 429);
    locked.close();
    net.advance(61000); // the lock began before the wrap and ends after it
    const after = open(withToken('system/0/save', 'right-token'));
    assert.equal(replies(after)[0]?.status, 200, 'the address stays locked after the wrap');
  });

  it('keeps an event stream going across the wrap', () => {
    bootBeforeWrap(2500);
    const c = open(get('events?watch=system/0/uptime&interval=500'));
    net.advance(6000);
    const events = c.received.split('\n').filter((l) => l.startsWith('data: '));
    assert.ok(events.length >= 12, `${events.length} events in 6 s at 500 ms`);
  });

  it('counts system/0/uptime on past 49.7 days, where a 32-bit millisecond count wraps', () => {
    bootBeforeWrap(2 ** 31 - 1000); // booted a second after power-on
    const DAY = 86400000;
    const uptime = (): number => {
      const r = ask(8080, get('system/0/uptime'));
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return r.json.response.value as number;
    };
    net.advance(49 * DAY);
    assert.equal(uptime(), 49 * 1440);
    net.advance(2 * DAY); // past 2^32 ms since power-on
    assert.equal(uptime(), 51 * 1440, 'uptime started again at the 32-bit wrap');
  });
});
