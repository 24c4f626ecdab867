// A client that vanishes mid-answer on the emulated Pico W (tests/pico-emu-run.ts; skips with the
// reason when the board cannot run): the link drops its port both ways, so lwIP keeps its last
// segment after the board closes the connection, retransmitting it. Four clients at once afterwards
// must each get their answer whole: the board's send pacing keeps the vanished connection's turn while
// lwIP holds its bytes (src/device/send-turns.ts), rather than writing into a heap that cannot take it
// ("tcp write failed", an answer cut).
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import type { Fetched } from './pico-emu/network-client';

/** 40 s of emulated time and two rounds of four clients: 0.03x to 0.4x real time (PICO_EMU_VANISH_SECONDS). */
const REAL_SECONDS = Number(process.env.PICO_EMU_VANISH_SECONDS || 1200);

interface Seen { served: boolean; vanishedAfter?: number; four: Fetched[][]; afterFour?: number }

describe('Pico W image on an emulated board: a client that vanishes mid-answer', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`then serves four clients at once whole, twice${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'vanish-client.js', env: { PICO_EMU_WAIT_S: String(REAL_SECONDS - 200) } });
    const seen = clientResult<Seen>(out);
    assert.ok(seen?.served, out);
    assert.ok(seen.vanishedAfter && seen.vanishedAfter < 18390, `it vanished after ${seen.vanishedAfter} bytes, not in the middle of the 18,390\n${out}`);
    assert.equal(seen.four.length, 2, out);
    for (const round of seen.four) {
      for (const f of round) {
        assert.equal(f.status, 200, JSON.stringify(f));
        if (f.contentLength !== undefined) assert.equal(f.bytes, f.contentLength, JSON.stringify(f));
        assert.doesNotMatch(f.whole, /cut|bad|not whole/, JSON.stringify(f));
      }
    }
    assert.equal(seen.afterFour, 200, out);
    assert.doesNotMatch(out, /tcp write failed|BKPT|panic/, out);
    console.log(`      ${runFigures(out)}; four clients: ${seen.four[0].map((f) => `${f.path} ${f.bytes} B`).join(', ')}`);
  });
});
