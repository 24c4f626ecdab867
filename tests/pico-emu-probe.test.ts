// TCP health probes on the emulated Pico W (tests/pico-emu/probe-client.ts): a client that connects and
// sends its FIN before a byte is closed by the board at once, not when its 10 s header time-out
// fires: lwIP offers such a FIN only once, before the application has read the connection from its
// listener (native/socket-lwip/tcp-guards.h hands it to the socket). Skips with the reason.
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard } from './pico-emu-run';

const REAL_SECONDS = 900;
/** The board's header time-out (src/http/http-limits.ts): a probe held until then was not told of its FIN. */
const HEADER_TIMEOUT_MS = 10_000;

describe('Pico W image on an emulated board: TCP health probes', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`closes a probe that FINs before a byte as soon as its FIN arrives${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'probe-client.js', env: { PICO_EMU_CURL: '0' } });
    const seen = clientResult<{ served: boolean; closedMs: number[]; four: number[]; error?: string }>(out);
    assert.ok(seen && !seen.error, out);
    assert.equal(seen.served, true, out);
    for (const ms of seen.closedMs) {
      assert.ok(ms >= 0 && ms < HEADER_TIMEOUT_MS / 2, `probes closed after ${seen.closedMs.join(', ')} ms of the board's clock\n${out.slice(-3000)}`);
    }
    assert.deepEqual(seen.four, [200, 200, 200, 200], out);
    assert.doesNotMatch(out, /BKPT|panic/, out);
  });
});
