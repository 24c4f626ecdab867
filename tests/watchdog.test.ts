// The watchdog (src/device/keepalive.ts) and the restart causes (hal/device/restarts.ts) on
// src/device/main.ts, against a fake of the `watchdog` native module that behaves like each chip
// (tests/fakes/watchdog.ts): fed while the main loop runs, not fed once it hangs (the chip restarts), the
// cause known after the boot, and counted in GET /metrics as brainstem_restarts_total, which promtool
// checks.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { ask, FULL_BOARD, freshWorld, get, net, platform } from './fakes/world';
import { setConfig } from './fakes/config';
import { chip } from './fakes/watchdog';
import { parseExposition } from './metrics-helpers';
import { RESTART_CAUSES } from '../hal/kit/restart-causes';
import { restartCause } from '../hal/device/restarts';
import StandinWatchdog from '../hal/device/standin/watchdog';

const MAIN = require.resolve('../src/device/main');
const CRLF = '\r\n';

/** A boot of the firmware: RAM gone, Preference and the chip's reset cause kept. */
function boot(): void {
  net.reset();
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
}

/** GET /metrics on the module: its restart counters, by cause. */
function restarts(): Record<string, number> {
  const c = net.connect(8080);
  c.send(`GET /metrics HTTP/1.1${CRLF}Host: 192.168.1.50${CRLF}Connection: close${CRLF}${CRLF}`);
  net.run();
  const text = c.received;
  const body = dechunk(text.slice(text.indexOf('\r\n\r\n') + 4));
  const family = parseExposition(body).find((f) => f.name === 'brainstem_restarts_total');
  assert.ok(family, 'no brainstem_restarts_total');
  assert.equal(family.type, 'counter');
  const out: Record<string, number> = {};
  for (const s of family.samples) {
    assert.equal(s.labels.serial, '0x1234ABCD');
    out[s.labels.cause] = s.value;
  }
  const check = spawnSync('promtool', ['check', 'metrics'], { input: body, encoding: 'utf8' });
  assert.equal(check.error, undefined, 'promtool (make prometheus installs it)');
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.equal((check.stdout + check.stderr).trim(), '');
  return out;
}

function dechunk(s: string): string {
  let out = '';
  for (;;) {
    const eol = s.indexOf('\r\n');
    const n = parseInt(s.slice(0, eol), 16);
    if (!n) return out;
    out += s.slice(eol + 2, eol + 2 + n);
    s = s.slice(eol + 2 + n + 2);
  }
}

function counts(partial: Record<string, number>): Record<string, number> {
  const all: Record<string, number> = {};
  for (const c of RESTART_CAUSES) all[c] = partial[c] ?? 0;
  return all;
}

describe('watchdog and restart causes', () => {
  beforeEach(() => {
    freshWorld();
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD });
  });
  after(() => { delete require.cache[MAIN]; net.reset(); chip.reset(); });

  for (const kind of ['esp32', 'pico'] as const) {
    const timeout = kind === 'esp32' ? 10000 : 8388;

    it(`${kind}: fed while the main loop runs, restarts ${timeout} ms after it hangs, and says why`, () => {
      chip.kind = kind;
      boot();
      assert.equal(chip.running, true, 'the watchdog runs');
      assert.equal(chip.timeoutMs, timeout);
      net.advance(120000); // two minutes of a working loop
      assert.equal(chip.bitten(), false);
      assert.ok(chip.feeds >= 29 && chip.feeds <= 31, `${chip.feeds} feeds in 2 min (one every 4 s)`);
      assert.equal(ask(8080, get('system/0/serialnumber')).status, 200);
      chip.hang(timeout - 1);
      assert.equal(chip.bitten(), false, 'bit before its time');
      chip.hang(1);
      assert.equal(chip.bitten(), true, 'a hung loop kept the watchdog fed');
      chip.restartedBy('watchdog');
      boot();
      assert.ok(net.traces.some((t) => t.startsWith('boot: started by watchdog')), net.traces.join(''));
      assert.deepEqual(restarts(), counts({ power: 1, watchdog: 1 }));
    });
  }

  it('tells a reset asked for from a crash, and counts each cause across restarts', () => {
    platform.chipRestarts = true;
    boot(); // power on
    assert.equal(ask(8080, get('system/0/reset')).status, 200);
    net.advance(500);
    assert.equal(platform.restarts.length, 1);
    boot(); // after System.restart with the note left
    assert.deepEqual(restarts(), counts({ power: 1, reset: 1 }));
    chip.restartedBy('software'); // XS aborted: the same restart, no note
    boot();
    chip.restartedBy('pin');
    boot();
    chip.restartedBy('power');
    boot();
    assert.deepEqual(restarts(), counts({ power: 2, reset: 2, crash: 1 }));
  });

  it('pico: a UF2 download of another image counts as an update; a panic, and an XS abort on the same image, as crashes', () => {
    chip.kind = 'pico';
    chip.image = 'a1b2c3d4';
    boot(); // power on
    chip.restartedBy('software'); // XS aborted: the image is the same
    boot();
    chip.uf2('0badf00d'); // BOOTSEL, a new image copied, the boot ROM restarts the chip
    boot();
    assert.ok(net.traces.some((t) => t.startsWith('boot: started by update (software)')), net.traces.join(''));
    chip.panic(); // wdt-pico.c's handler: a crash note, then the reset at once
    boot();
    chip.restartedBy('software'); // and an XS abort on the new image
    boot();
    assert.deepEqual(restarts(), counts({ power: 1, update: 1, crash: 3 }));
  });

  it('esp32: the EN button reads as a power-on (the chip cannot tell them apart); a panic as a crash', () => {
    chip.kind = 'esp32';
    boot();
    chip.restartedBy('power'); // EN: ESP_RST_POWERON on the original ESP32
    boot();
    chip.panic();
    boot();
    assert.deepEqual(restarts(), counts({ power: 2, crash: 1 }));
  });

  it('the desktop host: no watchdog, a soft reset counted as a reset', () => {
    assert.equal(StandinWatchdog.start(10000), false);
    assert.equal(StandinWatchdog.cause(), 'power');
    boot(); // a platform that soft-resets (platform.chipRestarts false), as lin does
    assert.equal(ask(8080, get('system/0/reset')).status, 200);
    net.advance(500);
    assert.equal(platform.restarts.length, 1);
    assert.deepEqual(restarts(), counts({ power: 1, reset: 1 }));
  });

  it('maps what the chip says and the note to a cause', () => {
    assert.equal(restartCause('software', 'update'), 'update');
    assert.equal(restartCause('software', 'reset'), 'reset');
    assert.equal(restartCause('software', undefined), 'crash');
    assert.equal(restartCause('software', undefined, true), 'update'); // another image, no note: written by another way
    assert.equal(restartCause('software', 'reset', true), 'reset');
    assert.equal(restartCause('watchdog', undefined, true), 'watchdog');
    assert.equal(restartCause('watchdog', 'reset'), 'watchdog'); // the note of a restart that never came
    assert.equal(restartCause('power', 'update'), 'power');
    assert.equal(restartCause('pin', undefined), 'reset');
    assert.equal(restartCause('crash', undefined), 'crash');
  });
});
