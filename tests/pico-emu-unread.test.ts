// The Pico W image on the emulated board (tests/pico-emu-run.ts) with clients that leave bytes
// unread on its side (tools/pico-emu/unread-clients.mjs): a PUT refused with 413 with its body sent, a
// last GET followed by more bytes, then four clients at once and one more GET. The SDK's close on the
// Pico (tcp_close then tcp_abort) freed such a connection twice in lwIP, after which the board stops
// answering; the firmware reads the bytes away before it closes (src/device/unread.ts) and serves on.
import { strict as assert } from 'node:assert';
import { missing, runBoard } from './pico-emu-run';

const REAL_SECONDS = 600;

describe('Pico W image on an emulated board: closing with the client\'s bytes unread', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`answers every client after refused bodies and bytes after a last request${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 30) * 1000);
    const env = { PICO_EMU_CURL: '0', PICO_EMU_CLIENT: 'node tools/pico-emu/unread-clients.mjs', PICO_EMU_UNREAD_ROUNDS: '1' };
    const out = await runBoard({ seconds: REAL_SECONDS, env, done: (o) => /^unread-clients: \d+ of \d+ answered/m.test(o) });
    assert.match(out, /unread-clients: round 1, PUT with a 5000-byte body: HTTP\/1\.1 413 /, out);
    assert.match(out, /unread-clients: round 1, GET and 1400 bytes more: HTTP\/1\.1 200 /, out);
    const tally = /^unread-clients: (\d+) of (\d+) answered/m.exec(out);
    assert.ok(tally, out);
    assert.equal(tally[1], tally[2], out);
    assert.doesNotMatch(out, /BKPT|panic/, out);
  });
});
