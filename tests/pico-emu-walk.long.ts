// The walk on the emulated Pico W (make pico-emu-walk; not in make test: it takes the board several
// minutes of emulated time). A GET of every route of the board's own description, every setting PUT
// back its value and a changed value read back, then python-zeroconf still resolves it after 150 s of
// emulated time (tests/pico-emu/walk-client.ts drives it; tests/pico-emu-run.ts says why it skips).
import { strict as assert } from 'node:assert';
import { clientResult, missing, runBoard, runFigures } from './pico-emu-run';
import type { Step } from './pico-emu/walk-client';
import { explained, readsBack } from './pico-emu/walk-judge';

const REAL_SECONDS = 3600;
const RESOLVED = 'dns-sd: brainstem-c1000001._brainstem._tcp.local. 192.168.77.50 80 serial=0xC1000001';

interface Seen { served: boolean; steps: Step[]; nonconforming: string[]; walkedAt: number; resolvedAt: number; resolved: string }

describe('Pico W image on an emulated board: every route', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    // as a board on a bench: a panic locks the core up and the watchdog restarts it, and the walk goes on
    out = await runBoard({ seconds: REAL_SECONDS, args: ['--no-debugger'], client: 'walk-client.js' });
    seen = clientResult<Seen>(out);
    console.log(`      ${runFigures(out)}; ${seen?.steps.length ?? 0} routes walked by ${seen?.walkedAt ?? '?'} s`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`answers a GET of every route of its description with 200${skipped}`, function () {
    const panics = out.match(/\*\*\* PANIC \*\*\*[\s\S]*?pico-emu: the core locks up[^\n]*/g) ?? [];
    assert.equal(panics.length, 0, `the board panicked ${panics.length} times during the walk:\n${panics.join('\n')}`);
    assert.ok(seen?.served && seen.steps.length > 100, out);
    const failed = seen.steps.filter((s) => s.get !== 200);
    assert.deepEqual(failed, [], JSON.stringify(failed, null, 1));
  });

  it(`answers every GET and PUT of the walk as its own OpenAPI document describes${skipped}`, function () {
    assert.ok(seen?.served && seen.steps.length > 50, out.slice(-20000));
    assert.deepEqual(seen.nonconforming, []);
  });

  it(`takes every setting's own value back, and a changed value it reads back${skipped}`, function () {
    assert.ok(seen, out);
    const steps = seen.steps;
    const settings = steps.filter((s) => s.back !== undefined);
    assert.ok(settings.length > 40, `${settings.length} settings`);
    const wrong = settings.filter((s) => !explained(s, steps)).filter((s) => s.back !== 200 || (s.changed !== undefined && (s.put !== 200 || !readsBack(s) || s.restored !== 200)));
    assert.deepEqual(wrong, [], JSON.stringify(wrong, null, 1));
  });

  it(`is still resolvable by python-zeroconf after 150 s${skipped}`, function () {
    assert.ok(seen && seen.resolvedAt >= 150, out);
    assert.equal(seen.resolved, RESOLVED);
    assert.doesNotMatch(out, /pico-emu: backtrace|the watchdog resets/, out);
  });
});
