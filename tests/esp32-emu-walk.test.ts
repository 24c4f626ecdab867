// The wired ESP32 image on the emulated ESP32 (tests/esp32-emu-run.ts): it takes its address from
// dnsmasq over its TAP link, names itself from its eFuse MAC, answers a GET of every route of its own
// description, takes every setting's own value back and a changed value it reads back, and
// python-zeroconf resolves it on the wire after 150 s (the Pico W's walk client,
// tests/pico-emu/walk-client.ts, at the same address), every answer as its own OpenAPI document says.
import { strict as assert } from 'node:assert';
import { boardTrouble, missing, restartsIn, runBoard } from './esp32-emu-run';
import { clientResult } from './pico-emu-run';
import type { Step } from './pico-emu/walk-client';
import { explained, readsBack } from './pico-emu/walk-judge';

const REAL_SECONDS = 1200;
const RESOLVED = 'dns-sd: brainstem-c1000001._brainstem._tcp.local. 192.168.77.50 80 serial=0xC1000001';

interface Seen { served: boolean; steps: Step[]; nonconforming: string[]; resolvedAt: number; resolved: string }

describe('ESP32 wired image on an emulated ESP32: DHCP, every route, DNS-SD', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    const t0 = Date.now();
    out = await runBoard({ seconds: REAL_SECONDS, client: 'pico-emu/walk-client.js' });
    seen = clientResult<Seen>(out);
    console.log(`      ${seen?.steps.length ?? 0} routes walked, resolved at ${seen?.resolvedAt ?? '?'} s of uptime, ${Math.round((Date.now() - t0) / 1000)} s real`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`takes its address by DHCP on the wire and its serial from its eFuse MAC${skipped}`, function () {
    assert.match(out, /DHCPACK\(esp0\) 192\.168\.77\.50 24:0a:c1:00:00:01 brainstem-c1000001/, out.slice(0, 20000));
    assert.match(out, /Ethernet: address 192\.168\.77\.50/, out.slice(0, 20000));
    assert.match(out, /REST API on port 80, serial 0xc1000001/i, out.slice(0, 20000));
  });

  it(`answers a GET of every route of its description with 200${skipped}`, function () {
    assert.equal(restartsIn(out), 0, out.slice(-30000));
    assert.equal(boardTrouble(out), undefined, out.slice(-20000));
    assert.ok(seen?.served && seen.steps.length > 50, out.slice(-20000));
    const failed = seen.steps.filter((s) => s.get !== 200);
    assert.deepEqual(failed, [], JSON.stringify(failed, null, 1));
  });

  it(`answers every GET and PUT of the walk as its own OpenAPI document describes${skipped}`, function () {
    assert.ok(seen?.served && seen.steps.length > 50, out.slice(-20000));
    assert.deepEqual(seen.nonconforming, []);
  });

  it(`takes every setting's own value back, and a changed value it reads back${skipped}`, function () {
    assert.ok(seen, out.slice(-20000));
    const steps = seen.steps;
    const settings = steps.filter((s) => s.back !== undefined);
    assert.ok(settings.length > 40, `${settings.length} settings`);
    const wrong = settings.filter((s) => !explained(s, steps)).filter((s) => s.back !== 200 || (s.changed !== undefined && (s.put !== 200 || !readsBack(s) || s.restored !== 200)));
    assert.deepEqual(wrong, [], JSON.stringify(wrong, null, 1));
  });

  it(`is resolvable by python-zeroconf after 150 s${skipped}`, function () {
    assert.ok(seen && seen.resolvedAt >= 150, out.slice(-20000));
    assert.equal(seen.resolved, RESOLVED);
  });
});
