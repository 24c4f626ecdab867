// A hard fault on the emulated Pico W with no debugger attached (tests/pico-emu-run.ts, run.mjs
// --fault-at and --no-debugger; skips with the reason when the board cannot run): pico-sdk's handler
// is a BKPT, where the core locks up until the watchdog fires (counted as a watchdog); the module's
// (native/watchdog/pico/wdt-pico.c) notes a crash and restarts the chip at once, and the board serves
// again, started by a crash.
import { strict as assert } from 'node:assert';
import { missing, runBoard, runFigures } from './pico-emu-run';

const REAL_SECONDS = 900;
const SERVING = /REST API on port 80, serial 0xc1000001, started by (\w+)$/gm;

describe('Pico W image on an emulated board: a hard fault', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`restarts the chip at once and counts a crash${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, args: ['--fault-at', '3', '--no-debugger'],
      done: (o) => [...o.matchAll(SERVING)].length >= 2 });
    const starts = [...out.matchAll(SERVING)].map((m) => m[1]);
    assert.deepEqual(starts, ['power', 'crash'], out);
    const stamp = (re: RegExp): number => Number(/^\[(\d+\.\d+) s\]/m.exec(out.split('\n').find((l) => re.test(l)) ?? '')?.[1]);
    const fault = stamp(/the core takes a hard fault/);
    const reset = stamp(/the watchdog resets the chip \(the firmware triggered it\)/);
    assert.ok(reset - fault >= 0 && reset - fault < 0.5, `reset ${reset - fault} s after the fault\n${out}`);
    console.log(`      ${runFigures(out)}; fault at ${fault} s, reset at ${reset} s`);
  });
});
