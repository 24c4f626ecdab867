// The Pico W's main loop (native/main-loop/message-wait-pico.c, linked with the manifest's --wrap flags)
// on the host, over a fake of the SDK's message queue and of the chip's clock, WFE and interrupts
// (tests/native/loop-scenarios.c, fake-pico-loop.c): the loop sleeps until a message or a timer is
// due, and still delivers a message posted by an interrupt, a promise job and a timer set by a
// callback when they are due. The SDK's loop alone turns tens of thousands of times a second.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildLoop, missingCompiler, projectFile, run } from './native-harness';

/** The Pico W build's LDFLAGS in manifest.json (the --wrap flags), as the link gets them. */
function picoLdflags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../manifest.json'), 'utf8')) as {
    platforms: Record<string, { build?: Record<string, string> }>;
  };
  return manifest.platforms['pico/pico_w'].build!.LDFLAGS.split(' ');
}

describe('Pico W: the main loop sleeps until there is work', function () {
  this.timeout(60000);
  const why = missingCompiler();
  const skipped = why ? ` (skipped: ${why})` : '';
  before(function () {
    if (why) this.skip();
  });

  it(`with the project's wait, a handful of turns in 2 s idle, and every message, job and timer on time${skipped}`, function () {
    const r = run(buildLoop('loop-project', [projectFile('native/main-loop/message-wait-pico.c')], picoLdflags()));
    assert.ok(r.counts, r.output);
    const c = r.counts as Record<string, number>;
    assert.ok(c.turns <= 10, `turns in 2 s: ${c.turns}`);
    assert.ok(c.messageUs <= 100, `a message posted by an interrupt waited ${c.messageUs} µs`);
    assert.ok(c.jobUs <= 100, `a promise job waited ${c.jobUs} µs`);
    assert.ok(c.timerUs >= 5000 && c.timerUs <= 6100, `a 5 ms timer fired after ${c.timerUs} µs`);
    assert.ok(c.gapUs >= 3_999_000 && c.gapUs <= 4_000_100, `with no timer, the loop turned after ${c.gapUs} µs at most (the watchdog's feed period)`);
  });

  it('the SDK\'s loop alone never waits: tens of thousands of turns in 2 s idle', function () {
    const r = run(buildLoop('loop-sdk', []));
    assert.ok(Number(r.counts?.turns) > 10000, r.output);
  });
});
