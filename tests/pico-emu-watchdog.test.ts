// A hung main loop on the emulated Pico W (tests/pico-emu-run.ts; skips with the reason when the board
// cannot run): the runner stops the main loop at 10 s of emulated time (--hang-at: a branch to itself
// with interrupts masked), the firmware's watchdog (native/watchdog/pico, 8.4 s) resets the chip
// (tools/pico-emu/chip-reset.mjs), and the board serves again with the settings saved before the hang
// (one of them 64 bytes long, more than one Preference value holds on the Pico).
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import { DNS, NAME } from './pico-emu/watchdog-client';

const REAL_SECONDS = 480;

interface Seen {
  servedFirst: boolean; nameBefore: unknown; put: number; putDns: number; dnsAfter?: unknown; save: number; restartsBefore?: number; savedBeforeHang: boolean;
  hang?: string; reset?: string; restartLine?: string; servedAgain?: boolean; nameAfter?: unknown; restartsAfter?: number;
}

const stampOf = (line?: string): number => Number(/^\[(\d+\.\d+) s\]/.exec(line ?? '')?.[1]);

describe('Pico W image on an emulated board: the watchdog', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`restarts a hung main loop, which serves again with its saved setting and counts the restart${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, args: ['--hang-at', '10'], client: 'watchdog-client.js' });
    const seen = clientResult<Seen>(out);
    assert.ok(seen, out);
    assert.ok(seen.servedFirst && seen.put === 200 && seen.putDns === 200 && seen.save === 200 && seen.savedBeforeHang, out);
    assert.notEqual(seen.nameBefore, NAME);
    assert.equal(seen.restartsBefore, 0, out);
    // the watchdog fires 8.4 s after its last feed (fed every 4 s), not before the hang
    const late = stampOf(seen.reset) - stampOf(seen.hang);
    assert.ok(late > 4.3 && late <= 8.5, `reset ${late} s after the hang\n${out}`);
    assert.match(seen.restartLine ?? '', /REST API on port 80, serial 0xc1000001, started by watchdog$/, out);
    assert.ok(seen.servedAgain, out);
    assert.equal(seen.nameAfter, NAME, 'the saved setting survives the restart');
    assert.equal(seen.dnsAfter, DNS, 'a saved 64-byte value survives it whole');
    assert.equal(seen.restartsAfter, 1, out);
    console.log(`      ${runFigures(out)}; hang at ${stampOf(seen.hang)} s, reset at ${stampOf(seen.reset)} s, serving at ${stampOf(seen.restartLine)} s`);
  });
});
