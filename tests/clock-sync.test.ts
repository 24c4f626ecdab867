// The network time (src/device/clock-sync.ts) on src/device/main.ts with Wi-Fi and config.sntp, a chip
// clock that starts in 1970 (tests/fakes/time.ts) and a fake of the SDK's SNTP (tests/fakes/sntp.ts):
// a server that does not answer is asked again with a backoff up to an hour, the clock is set once one
// answers, to the millisecond, and follows it hourly after, and a clock set by PUT is not moved by an
// answer that arrives later.

import { strict as assert } from 'node:assert';
import { ask, FULL_BOARD, freshWorld, get, net, put } from './fakes/world';
import { setConfig } from './fakes/config';
import { radio } from './fakes/wifi';
import { sntpServer } from './fakes/sntp';
import { chipDate, clockSets, hostDate } from './fakes/time';
import { CLOCK_RESYNC_MS, CLOCK_RETRY_MAX_MS, CLOCK_RETRY_MIN_MS } from '../src/device/clock-sync';

const MAIN = require.resolve('../src/device/main');

function boot(chip: 'esp32' | 'pico' = 'esp32'): void {
  freshWorld();
  chipDate(chip);
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD, ssid: 'lab', password: 'pw', sntp: 'pool.ntp.org' });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.advance(1000); // joined, addressed
}

function clock(field: string): number {
  const r = ask(8080, get(`clock/0/${field}`));
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.response.value as number;
}

/** How far the module clock (a GET's envelope timestamp, ms) is ahead of the server's. */
function offsetMs(): number {
  const r = ask(8080, get('clock/0/second'));
  return Date.parse(r.json.timestamp as string) - sntpServer.now();
}

/** The steps the clock was set by, as traced. */
function steps(): number[] {
  return net.traces.flatMap((t) => /^SNTP: clock set \(([-+]\d+) ms\)/.exec(t)?.[1] ?? []).map(Number);
}

/** Time between one exchange's start and the next's. */
function gaps(): number[] {
  const a = sntpServer.asked;
  return a.slice(1).map((t, k) => t - a[k]);
}

describe('network time: asked until answered, a PUT clock kept', () => {
  beforeEach(() => { radio.reset(); sntpServer.reset(); });
  after(() => { delete require.cache[MAIN]; hostDate(); net.reset(); radio.reset(); sntpServer.reset(); });

  it('asks again with a backoff up to an hour while no server answers, then sets the clock', () => {
    boot();
    assert.equal(sntpServer.asked.length, 1, 'asked once the network is up');
    net.advance(12 * 3600 * 1000);
    const g = gaps();
    assert.ok(g.length >= 12, `${g.length + 1} exchanges in 12 h`);
    // each gap: the SDK's 25 s of tries, then the wait (30 s, doubling, at most an hour)
    assert.ok(g[0] >= 25000 + CLOCK_RETRY_MIN_MS && g[0] < 25000 + 2 * CLOCK_RETRY_MIN_MS, `first gap ${g[0]} ms`);
    for (let k = 1; k < g.length; k++) assert.ok(g[k] >= g[k - 1] && g[k] <= 25000 + CLOCK_RETRY_MAX_MS + 1000, `gap ${k}: ${g[k]} ms`);
    assert.equal(g[g.length - 1], 25000 + CLOCK_RETRY_MAX_MS, 'the wait stops growing at an hour');
    assert.equal(clock('year'), 1970);
    sntpServer.up = true;
    net.advance(CLOCK_RETRY_MAX_MS + 30000);
    assert.deepEqual(clockSets, [sntpServer.seconds]);
    assert.equal(clock('year'), 2026);
  });

  it('asks again every hour once answered, and follows a server that was stepped', () => {
    sntpServer.up = true;
    boot();
    net.advance(1000);
    assert.equal(clockSets.length, 1, 'set by the first answer');
    const first = sntpServer.asked.length;
    net.advance(3 * CLOCK_RESYNC_MS);
    assert.equal(sntpServer.asked.length, first + 3, 'one exchange an hour');
    assert.deepEqual(gaps().slice(-2), [CLOCK_RESYNC_MS + sntpServer.delayMs, CLOCK_RESYNC_MS + sntpServer.delayMs]);
    const before = clockSets[clockSets.length - 1];
    sntpServer.seconds += 7; // the server stepped: the next exchange brings the module along
    net.advance(CLOCK_RESYNC_MS);
    assert.equal(clockSets[clockSets.length - 1] - before, 3600 + 7, 'an hour on, and the step');
    assert.ok(Math.abs(offsetMs()) <= 1, `${offsetMs()} ms from the server`);
    // a server gone for a while: asked again with the backoff, then hourly once it answers again
    sntpServer.up = false;
    net.advance(3 * CLOCK_RESYNC_MS);
    sntpServer.up = true;
    const sets = clockSets.length;
    net.advance(CLOCK_RETRY_MAX_MS + 30000);
    assert.equal(clockSets.length, sets + 1, 'set again once the server is back');
  });

  it('keeps the Pico\'s clock within milliseconds of the server over days of hourly exchanges, never stepping back and forth', () => {
    // The Pico keeps its boot's millisecond phase through Time.set (whole seconds): with the answer's
    // whole second only, an exchange that lands just after the server's second turned set the clock a
    // second back, the next one a second forward again.
    sntpServer.up = true;
    sntpServer.seconds = 1767225600.93; // the server's second turns 70 ms after its first stamp
    sntpServer.delayMs = 240;
    boot('pico');
    net.advance(1000);
    assert.ok(Math.abs(offsetMs()) <= 1, `after the first answer: ${offsetMs()} ms from the server`);
    for (let hour = 1; hour <= 72; hour++) {
      net.advance(CLOCK_RESYNC_MS + 137); // each exchange meets the server's second at another phase
      assert.ok(Math.abs(offsetMs()) <= 1, `hour ${hour}: ${offsetMs()} ms from the server`);
    }
    const s = steps();
    assert.ok(s.length >= 70, `${s.length} exchanges`);
    assert.deepEqual(s.slice(1).filter((x) => Math.abs(x) > 2), [], 'every step after the first within 2 ms');
  });

  it('stops asking once the clock is set by PUT after a network answer', () => {
    sntpServer.up = true;
    boot();
    net.advance(1000);
    assert.equal(ask(8080, put('clock/0/year', 2033)).status, 200);
    const n = sntpServer.asked.length;
    net.advance(3 * CLOCK_RESYNC_MS);
    assert.ok(sntpServer.asked.length <= n + 1, `${sntpServer.asked.length - n} exchanges after the PUT`);
    assert.equal(clockSets.length, 1, 'no network answer set the clock after the PUT');
    assert.equal(clock('year'), 2033);
  });

  it('keeps a clock set by PUT when the network answer arrives later', () => {
    sntpServer.up = true;
    sntpServer.delayMs = 20000; // a slow server: the PUT comes first
    boot();
    assert.equal(ask(8080, put('clock/0/year', 2031)).status, 200);
    assert.equal(ask(8080, put('clock/0/month', 7)).status, 200);
    net.advance(60000); // the answer has come
    assert.equal(clockSets.length, 0, 'the network answer set the clock');
    assert.equal(clock('year'), 2031);
    assert.equal(clock('month'), 7);
  });

  it('keeps a clock set by PUT while the server is unreachable, and stops asking', () => {
    boot();
    net.advance(40000);
    assert.equal(ask(8080, put('clock/0/year', 2029)).status, 200);
    sntpServer.up = true;
    net.advance(3 * 3600 * 1000);
    assert.equal(clockSets.length, 0);
    assert.equal(clock('year'), 2029);
  });
});
