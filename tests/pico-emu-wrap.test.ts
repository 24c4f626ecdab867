// The emulated Pico W with its timer started shortly before 2^32 ms (tests/pico-emu-run.ts,
// tools/pico-emu/run.mjs --timer-ms; skips with the reason when the board cannot run): 10 s of
// emulated time before it in make test, PICO_EMU_WRAP_LEAD_S=60 for a minute. XS's Date
// there is a uint32_t of milliseconds (xs/platforms/pico/xsHost.c:232-255), which falls back 49.7 days
// at that moment. The board keeps serving across it, and its clock, the answers' timestamps and their
// Date: headers go on from where they were (hal/device/wall-clock.ts).
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';

const LEAD_S = Number(process.env.PICO_EMU_WRAP_LEAD_S || 10);
/** The emulator runs at 0.03x to 0.4x real time, slower on a busy machine. */
const REAL_SECONDS = 300 + LEAD_S * 20;
const TIMER_MS = 2 ** 32 - LEAD_S * 1000;

interface Reading { status: number; year: unknown; stamp?: string; date?: string; real: number; afterWrap: boolean }
interface Seen { served: boolean; put?: number; readings: Reading[] }

describe('Pico W image on an emulated board: the 32-bit millisecond wrap', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`serves across it with its clock, timestamps and Date: right${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, args: ['--timer-ms', String(TIMER_MS)], client: 'wrap-client.js',
      env: { PICO_EMU_WAIT_S: String(REAL_SECONDS) } });
    const seen = clientResult<Seen>(out);
    assert.ok(seen?.served && seen.put === 200, out);
    const [first, ...later] = seen.readings;
    assert.ok(first && !first.afterWrap && first.year === 2026, `the clock was not set before the wrap\n${out}`);
    assert.equal(later.length, 3, `no answers after the wrap\n${out}`);
    const t0 = Date.parse(first.stamp ?? '');
    let last = t0;
    for (const r of later) {
      assert.ok(r.afterWrap && r.status === 200, `${JSON.stringify(r)}\n${out}`);
      assert.equal(r.year, 2026, `clock/0/year after the wrap: ${JSON.stringify(r)}`);
      const t = Date.parse(r.stamp ?? '');
      // emulated time runs slower than real time: the clock moves on, never more than the real time
      assert.ok(t >= last && t - t0 <= (r.real - first.real + 2) * 1000, `timestamp ${r.stamp} after ${first.stamp}`);
      assert.equal(Date.parse(r.date ?? ''), Math.floor(t / 1000) * 1000, `Date: ${r.date} against timestamp ${r.stamp}`);
      last = t;
    }
    assert.ok(last - t0 >= 1000, `the clock moved ${last - t0} ms from before the wrap to after it`);
    assert.doesNotMatch(out, /BKPT|panic/, out);
    console.log(`      ${runFigures(out)}; ${first.stamp} before, ${later[later.length - 1].stamp} after the wrap`);
  });
});
