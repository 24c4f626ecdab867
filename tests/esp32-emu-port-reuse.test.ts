// A client that meets its own port again on the emulated ESP32 (tests/pico-emu/port-reuse-client.ts at
// the same address): the board closes first after an answer and holds the connection in TIME-WAIT,
// where esp-lwip answers a new SYN from that port with an ACK of the old connection. With lwIP's 2 MSL
// of 120 s the client got no answer for a minute or two; the module's TIME-WAIT is 2 s
// (CONFIG_LWIP_TCP_MSL in esp32/sdkconfig.defaults), so the client's SYN, sent again after 1 and 3 s,
// is answered. Skips with the reason.
import { strict as assert } from 'node:assert';
import { boardTrouble, missing, restartsIn, runBoard } from './esp32-emu-run';
import { assertReusesAnswered, type Seen } from './pico-emu/port-reuse-client';
import { clientResult } from './pico-emu-run';

const REAL_SECONDS = 600;
/** Linux sends a SYN again after 1, 3, 7 and 15 s: a TIME-WAIT of 2 s is over by the second or third. */
const ANSWERED_WITHIN_S = 15;

describe('ESP32 wired image on an emulated ESP32: a client port used again', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`answers a connection from the port of one it has just closed within seconds${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'pico-emu/port-reuse-client.js' });
    assertReusesAnswered(clientResult<Seen>(out), ANSWERED_WITHIN_S, out.slice(-20000));
    assert.equal(restartsIn(out), 0, out.slice(-20000));
    assert.equal(boardTrouble(out), undefined, out.slice(-20000));
  });
});
