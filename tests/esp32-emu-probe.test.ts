// TCP health probes on the emulated ESP32 (the Pico W's probe client, tests/pico-emu/probe-client.ts, at
// the same address): a client that connects and sends its FIN before a byte is closed by the board at
// once, not when its 10 s header time-out fires (native/socket-lwip/tcp-guards.h, compiled for the
// ESP32 by native/socket-esp32/tcp-esp32.c, under esp-lwip's tcpip task). Skips with the reason.
import { strict as assert } from 'node:assert';
import { boardTrouble, missing, restartsIn, runBoard } from './esp32-emu-run';
import { clientResult } from './pico-emu-run';

const REAL_SECONDS = 600;
const HEADER_TIMEOUT_MS = 10_000;

describe('ESP32 wired image on an emulated ESP32: TCP health probes', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`closes a probe that FINs before a byte as soon as its FIN arrives${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'pico-emu/probe-client.js' });
    const seen = clientResult<{ served: boolean; closedMs: number[]; four: number[]; error?: string }>(out);
    assert.ok(seen && !seen.error, out.slice(-20000));
    assert.equal(seen.served, true, out.slice(-20000));
    console.log(`      probes closed after ${seen.closedMs.join(', ')} ms of the board's clock`);
    for (const ms of seen.closedMs) {
      assert.ok(ms >= 0 && ms < HEADER_TIMEOUT_MS / 2, `probes closed after ${seen.closedMs.join(', ')} ms of the board's clock`);
    }
    assert.deepEqual(seen.four, [200, 200, 200, 200], out.slice(-20000));
    assert.equal(restartsIn(out), 0, out.slice(-20000));
    assert.equal(boardTrouble(out), undefined, out.slice(-20000));
  });
});
