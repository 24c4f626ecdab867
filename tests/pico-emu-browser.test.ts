// The cross-site rule on the emulated Pico W at its own address (tests/pico-emu/browser-client.ts): a page
// served from another address of the board's LAN fires actions and a PUT at it in headless Chromium;
// nothing may take effect, and the console at the board's address still sets and saves a value.
// Needs what tests/pico-emu-run.ts lists and Debian's chromium; skips with the reason.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { clientResult, missing, runBoard } from './pico-emu-run';

const REAL_SECONDS = 900;

describe('Pico W image on an emulated board: a page elsewhere on the LAN (Chromium)', function () {
  const why = missing() ?? (fs.existsSync('/usr/bin/chromium') ? undefined : 'no /usr/bin/chromium');
  before(function () {
    if (why) this.skip();
  });

  it(`runs nothing a page on another address fires at the board; its own console works${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const out = await runBoard({ seconds: REAL_SECONDS, client: 'browser-client.js', env: { PICO_EMU_CURL: '0' } });
    const seen = clientResult<{ [key: string]: any }>(out);
    assert.ok(seen && !seen.error, out);
    const trace = `${(seen.answers as string[]).join('\n')}\n${seen.log}\n${out.slice(-3000)}`;
    assert.equal(seen.served, true, trace);
    assert.equal(seen.put, 200, trace);
    for (const a of seen.answers as string[]) if (/\/system\/0\//.test(a)) assert.match(a, /-> (403|405)$/, trace);
    assert.ok((seen.answers as string[]).some((a) => /^GET \/api\/v1\/device\/system\/0\/reset -> 403$/.test(a)), trace);
    assert.match(seen.log, /fetch cors PUT hbinterval: blocked/, trace);
    assert.equal(seen.afterAttack, 33, `no reset and no PUT ran: ${trace}`);
    assert.equal(seen.restartsAfter, seen.restartsBefore, trace);
    assert.equal(seen.afterOwnReset, seen.factory, `no save ran: ${trace}`);
    assert.match(seen.console[0], /^set = 44\b/, trace);
    assert.equal(seen.console[1], 'done {}', trace);
    assert.equal(seen.consoleSaved, 44, `the console's save ran: ${trace}`);
  });
});
