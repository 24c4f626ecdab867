// The Pico W image on the emulated board (tests/pico-emu-run.ts) against a hostile lab network
// (tests/pico-emu/hostile-client.ts), with the emulator watching for the races of lwIP's interrupt
// (tools/pico-emu/race-watch.mjs): the allocator entered by an interrupt inside the heap's work, and
// lwIP called outside its lock. The short form here; `make pico-emu-hostile` runs hundreds of each.
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import { assertPhasesWhole, type Phase } from './pico-emu/hostile-judge';

const REAL_SECONDS = Number(process.env.PICO_EMU_HOSTILE_SECONDS ?? 1800);
const SHORT = 'aborts=6,streams=3,scanners=20,bursts=1,stalls=1,races=1';

interface Seen { served: boolean; phases: Phase[]; mdnsQueries: number; trouble?: string }

describe('Pico W image on an emulated board: a hostile lab network', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    const env = { PICO_EMU_RACE_WATCH: '1', PICO_EMU_HOSTILE: process.env.PICO_EMU_HOSTILE ?? SHORT };
    out = await runBoard({ seconds: REAL_SECONDS, client: 'hostile-client.js', env });
    seen = clientResult<Seen>(out);
    console.log(`      ${runFigures(out)}; ${/race-watch: \d+ allocator.*$/m.exec(out)?.[0] ?? 'no race-watch summary'}`);
    for (const line of out.split('\n').filter((l) => l.startsWith('client: '))) console.log(`      ${line.slice(0, 400)}`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`no interrupt enters the allocator inside the heap's work, no lwIP call outside its lock${skipped}`, function () {
    const summary = /race-watch: (\d+) allocator entries inside the heap's work, (\d+) lwIP calls outside the lock \(of (\d+) checked\) while serving/.exec(out);
    assert.ok(summary, out);
    assert.equal(summary[1], '0', out);
    assert.equal(summary[2], '0', out);
    assert.ok(Number(summary[3]) > 0, 'lwIP calls were checked');
    assert.ok(seen && seen.mdnsQueries > 0, out);
  });

  it(`after aborting clients, scanners, 16 at once and beside a stalled client, four clients get whole answers and the board never stops${skipped}`, function () {
    assert.ok(seen?.served, out);
    assert.equal(seen.trouble, undefined, out);
    assertPhasesWhole(seen.phases, out);
    assert.doesNotMatch(out, /tcp_free|pbuf_free: p->ref|PANIC/, out);
  });
});
