// The emulated Pico W on its network (tests/pico-emu-run.ts; skips with the reason when the board cannot
// run), in one boot: malformed and hostile mDNS packets leave it serving and resolvable; when the access
// point goes away and comes back it rejoins, serves and announces itself again; four clients at once get
// whole answers (tests/pico-emu/network-client.ts drives it from inside the namespace).
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import { type Fetched, ROUNDS } from './pico-emu/network-client';

const REAL_SECONDS = 600;
const RESOLVED = 'dns-sd: brainstem-c1000001._brainstem._tcp.local. 192.168.77.50 80 serial=0xC1000001';

interface Seen {
  served: boolean; four?: Fetched[][]; afterFour?: number; hostileSent: number; afterHostile: number; resolvedAfterHostile: string;
  whileAway: unknown; servedAfterBack: boolean; announcedAgain?: string; announcementsAfterBack: number; resolvedAfterBack: string;
}

describe('Pico W image on an emulated board: its network', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    out = await runBoard({ seconds: REAL_SECONDS, client: 'network-client.js' });
    seen = clientResult<Seen>(out);
    const four = seen?.four?.[0]?.map((f) => `${f.path} ${f.bytes} B ${f.seconds} s`).join(', ');
    console.log(`      ${runFigures(out)}; four clients: ${four ?? 'none'}`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`stays serving and resolvable after malformed and hostile mDNS packets${skipped}`, function () {
    assert.ok(seen, out);
    assert.equal(seen.hostileSent, 28, out);
    assert.equal(seen.afterHostile, 200, out);
    assert.equal(seen.resolvedAfterHostile, RESOLVED, out);
    assert.doesNotMatch(out.split('the access point goes away')[0], /pico-emu: backtrace|the watchdog resets/, out);
  });

  it(`rejoins when the access point comes back, serves and announces itself again${skipped}`, function () {
    assert.ok(seen, out);
    assert.notEqual(seen.whileAway, 200, 'it does not answer while the access point is away');
    assert.match(out, /pico-emu: the access point is back[\s\S]*cyw43: join "lab": joined/, out);
    assert.ok(seen.servedAfterBack, out);
    assert.match(seen.announcedAgain ?? '', /announced brainstem-c1000001\.local/, out);
    assert.ok(seen.announcementsAfterBack > 0, 'an mDNS response from the board after the access point came back');
    assert.equal(seen.resolvedAfterBack, RESOLVED, out);
  });

  it(`gives four clients at once whole answers, ${ROUNDS} times: console page, OpenAPI document, description, /metrics${skipped}`, function () {
    assert.ok(seen?.served && seen.four, out);
    // where the board stopped, its panic and backtrace say why
    const stopped = /\*\*\* PANIC \*\*\*[\s\S]*?pico-emu: the core stopped[^\n]*/.exec(out)?.[0];
    assert.equal(stopped, undefined, `the board stopped under four clients:\n${stopped}`);
    assert.equal(seen.four.length, ROUNDS, out);
    for (const [page, openapi, description, metrics] of seen.four) {
      for (const f of [page, openapi, description, metrics]) {
        assert.equal(f.status, 200, `${f.path}: ${JSON.stringify(f)}`);
        if (f.contentLength !== undefined) assert.equal(f.bytes, f.contentLength, `${f.path}: ${JSON.stringify(f)}`);
      }
      assert.equal(page.whole, 'html', JSON.stringify(page));
      assert.match(openapi.whole, /^openapi 3\./, JSON.stringify(openapi));
      assert.equal(description.whole, 'description of 0xC1000001', JSON.stringify(description));
      assert.match(metrics.whole, /^metrics \d+ lines$/, JSON.stringify(metrics));
    }
    assert.equal(seen.afterFour, 200, 'still serving after them');
  });
});
