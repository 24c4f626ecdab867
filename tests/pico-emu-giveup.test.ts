// A client that vanishes mid-answer for good, on the emulated Pico W (tests/pico-emu-run.ts; skips with
// the reason when the board cannot run): lwIP retransmits the board's segment until it gives up, about
// 38 minutes of emulated time (as many real: PICO_EMU_GIVEUP_SECONDS), and frees the connection before
// it tells the socket (tcp_slowtmr). Watched by the runner's pcb watch (tools/pico-emu/pcb-watch.mjs:
// every lwIP call the firmware makes on a connection, checked against lwIP's free list): nothing is
// done to the freed connection, lwIP's heap gets the segment's bytes back, and four clients at once
// get their answers whole afterwards.
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import type { Fetched } from './pico-emu/network-client';

const REAL_SECONDS = Number(process.env.PICO_EMU_GIVEUP_SECONDS || 4200);

interface Seen { served: boolean; vanishedAfter?: number; droppedAt?: number; waitedTo?: number; four: Fetched[]; afterFour?: number }

/** lwIP's heap in use on each memory line, with the board's clock. */
function lwipUse(out: string): { at: number; used: number }[] {
  return [...out.matchAll(/^\[(\d+\.\d+) s\] memory: .*lwIP heap (\d+)\/\d+ B/gm)].map((m) => ({ at: Number(m[1]), used: Number(m[2]) }));
}

describe('Pico W image on an emulated board: a connection lwIP gives up on', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`touches nothing of it after lwIP frees it, and serves four clients whole${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'giveup-client.js', args: ['--memory-every', '60'],
      env: { PICO_EMU_PCB_WATCH: '1', PICO_EMU_WAIT_S: String(REAL_SECONDS - 200) } });
    const seen = clientResult<Seen>(out);
    assert.ok(seen?.served, out.slice(-3000));
    // Mid-answer: the board still has bytes of it to send, and its socket open, when lwIP gives up.
    assert.ok(seen.vanishedAfter && seen.vanishedAfter < 18390, `it vanished after ${seen.vanishedAfter} bytes, not in the middle of the 18,390\n${out.slice(-3000)}`);
    assert.ok((seen.waitedTo ?? 0) - (seen.droppedAt ?? 0) >= 2400, `waited only to ${seen.waitedTo} s (dropped at ${seen.droppedAt} s)\n${out.slice(-3000)}`);
    // While lwIP retransmits it holds the segment; once it gives up, the bytes come back.
    const use = lwipUse(out);
    const holding = use.filter((u) => u.at > seen.droppedAt! + 60 && u.at < seen.droppedAt! + 2000).map((u) => u.used);
    const after = use.filter((u) => u.at > seen.droppedAt! + 2360 && u.at <= seen.waitedTo!).map((u) => u.used);
    assert.ok(holding.length && after.length, `memory lines: ${JSON.stringify(use)}`);
    assert.ok(Math.max(...after) < Math.min(...holding), `lwIP's heap: ${Math.min(...holding)} B while retransmitting, ${Math.max(...after)} B after`);
    assert.doesNotMatch(out, /pcb-watch:/, out.split('\n').filter((l) => /pcb-watch/.test(l)).join('\n'));
    for (const f of seen.four) {
      assert.equal(f.status, 200, JSON.stringify(f));
      if (f.contentLength !== undefined) assert.equal(f.bytes, f.contentLength, JSON.stringify(f));
      assert.doesNotMatch(f.whole, /cut|bad|not whole/, JSON.stringify(f));
    }
    assert.equal(seen.four.length, 4, out.slice(-3000));
    assert.equal(seen.afterFour, 200, out.slice(-3000));
    assert.doesNotMatch(out, /tcp write failed|BKPT|panic/, out.slice(-3000));
    console.log(`      ${runFigures(out)}; lwIP heap ${Math.min(...holding)} B while retransmitting, ${Math.max(...after)} B after`);
  });
});
