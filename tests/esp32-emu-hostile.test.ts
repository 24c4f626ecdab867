// The wired ESP32 image on the emulated ESP32 (tests/esp32-emu-run.ts) against a hostile lab network:
// the Pico W's hostile client (tests/pico-emu/hostile-client.ts) at the same address: four clients
// beside mDNS queries, clients that abort mid-answer and mid-stream (a FIN, then a RST), scanners, 16
// connections at once (more than lwIP's 8 pcbs: the NULL pcb), a client that stops acknowledging; after
// each, four clients at once get whole answers, and the board never panics or restarts.
import { strict as assert } from 'node:assert';
import { boardTrouble, missing, restartsIn, runBoard } from './esp32-emu-run';
import { clientResult } from './pico-emu-run';
import { assertPhasesWhole, type Phase } from './pico-emu/hostile-judge';

const REAL_SECONDS = 1800;
const COUNTS = process.env.ESP32_EMU_HOSTILE ?? 'aborts=20,streams=10,scanners=40,bursts=2,stalls=1,races=2';

interface Seen { served: boolean; phases: Phase[]; mdnsQueries: number }

describe('ESP32 wired image on an emulated ESP32: a hostile lab network', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    out = await runBoard({ seconds: REAL_SECONDS, client: 'pico-emu/hostile-client.js', env: { PICO_EMU_HOSTILE: COUNTS } });
    seen = clientResult<Seen>(out);
    for (const line of out.split('\n').filter((l) => l.startsWith('client: '))) console.log(`      ${line.slice(0, 300)}`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`after aborting clients, scanners, 16 at once and beside a stalled client, four clients get whole answers, with no panic or restart${skipped}`, function () {
    assert.ok(seen?.served, out.slice(-20000));
    assert.equal(restartsIn(out), 0, out.slice(-30000));
    assert.equal(boardTrouble(out), undefined, out.slice(-30000));
    assertPhasesWhole(seen.phases, out.slice(-20000));
    assert.ok(seen.mdnsQueries > 0, out.slice(-20000));
  });
});
