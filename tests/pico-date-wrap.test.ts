// The module clock across the Pico's 32-bit millisecond wrap: XS's Date there is a uint32_t of
// milliseconds since boot plus the seconds Time.set gave (xs/platforms/pico/xsHost.c:232-255;
// tests/fakes/time.ts chipDate('pico')), so 49.7 days after boot it falls back by 2^32 ms. The module
// is booted from src/device/main.ts on the fakes a minute before that moment; the clock entity, the
// answers' timestamps and their Date: headers must go on from where they were.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, put, type Reply } from './fakes/world';
import { setConfig } from './fakes/config';
import { radio } from './fakes/wifi';
import { sntpServer } from './fakes/sntp';
import { chipDate, hostDate } from './fakes/time';

const MAIN = require.resolve('../src/device/main');
const WRAP = 2 ** 32;

/** Boot the device entry on the Pico's clock, `before` ms short of the wrap, with SNTP. */
function bootBeforeWrap(before: number): void {
  freshWorld();
  net.now = WRAP - before;
  chipDate('pico');
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD, ssid: 'lab', password: 'pw', sntp: 'pool.ntp.org' });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.advance(1000); // joined, addressed, SNTP asked
}

/** What one GET of the clock says: its value, the envelope's timestamp and the Date: header, in ms. */
function read(field: string): { value: number; stamp: number; date: number; reply: Reply } {
  const reply = ask(8080, get(`clock/0/${field}`));
  assert.equal(reply.status, 200, JSON.stringify(reply.json));
  const date = /^date: (.*)$/im.exec(reply.head)?.[1];
  assert.ok(date, `no Date: header in\n${reply.head}`);
  return { value: reply.json.response.value, stamp: Date.parse(reply.json.timestamp), date: Date.parse(date), reply };
}

/** The clock's own fields as one instant (ms since the epoch, whole seconds). */
function clockMs(): number {
  const f = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) => read(k).value);
  return Date.UTC(f[0], f[1] - 1, f[2], f[3], f[4], f[5]);
}

describe('Pico W: the module clock across the 32-bit millisecond wrap (49.7 days after boot)', () => {
  beforeEach(() => { radio.reset(); sntpServer.reset(); });
  after(() => { delete require.cache[MAIN]; hostDate(); net.reset(); radio.reset(); sntpServer.reset(); });

  it('the fake Date falls back by 2^32 ms at the wrap, as xsHost.c reads it', () => {
    freshWorld();
    net.now = WRAP - 1500;
    chipDate('pico');
    const before = Date.now();
    net.now += 2000;
    assert.equal(Date.now() - before, 2000 - WRAP);
    hostDate();
  });

  it('set by SNTP a minute before: clock, timestamps and Date: go on across the wrap', () => {
    sntpServer.up = true;
    bootBeforeWrap(60000);
    const set = sntpServer.seconds * 1000;
    const first = read('year');
    assert.equal(first.value, 2026);
    assert.ok(Math.abs(first.stamp - set) < 2000, `timestamp ${first.reply.json.timestamp}`);
    net.advance(120000); // across the wrap
    const after = read('year');
    assert.equal(after.value, 2026, 'the year fell back with the wrap');
    const elapsed = after.stamp - first.stamp;
    assert.ok(elapsed >= 120000 && elapsed < 122000, `timestamp moved ${elapsed} ms in 120 s (${after.reply.json.timestamp})`);
    assert.ok(Math.abs(after.date - after.stamp) < 1000, `Date: ${after.date} against timestamp ${after.stamp}`);
    const clock = clockMs();
    assert.ok(clock - set >= 120000 && clock - set < 124000, `clock reads ${new Date(clock).toISOString()}`);
    net.advance(3600000); // and on, an hour later
    assert.ok(Math.abs(read('hour').stamp - (set + 3721000)) < 3000);
  });

  it('set by PUT before the wrap: the clock keeps its time across it', () => {
    bootBeforeWrap(60000);
    for (const [field, v] of [['year', 2027], ['month', 3], ['day', 14], ['hour', 9], ['minute', 30], ['second', 0]] as const) {
      assert.equal(ask(8080, put(`clock/0/${field}`, v)).status, 200);
    }
    const set = Date.UTC(2027, 2, 14, 9, 30, 0);
    net.advance(90000);
    const clock = clockMs();
    assert.ok(clock - set >= 90000 && clock - set < 93000, `clock reads ${new Date(clock).toISOString()}`);
    const r = read('minute');
    assert.ok(r.stamp - set >= 90000 && r.stamp - set < 94000, `timestamp ${r.reply.json.timestamp}`);
    assert.ok(Math.abs(r.date - r.stamp) < 1000, 'Date: agrees with the timestamp');
  });

  it('set by SNTP only after the wrap: the clock reads the server\'s time, not 49.7 days on', () => {
    bootBeforeWrap(30000);
    net.advance(60000); // across the wrap, no answer yet: 1970, and no Date: header
    assert.equal(ask(8080, get('clock/0/year')).json.response.value, 1970);
    sntpServer.up = true;
    net.advance(3600000); // the next exchange is answered
    const r = read('year');
    assert.equal(r.value, 2026);
    assert.ok(Math.abs(r.stamp - sntpServer.seconds * 1000) < 3700000, `timestamp ${r.reply.json.timestamp}`);
  });
});
