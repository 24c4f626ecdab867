// newlib's malloc lock on the Pico W (native/malloc-lock/malloc-lock-pico.c), compiled on the host
// with a fake of newlib's locking allocator and of lwIP's low-priority interrupt raised in the middle of
// each allocation, its handler allocating as the SDK's socket callbacks do (tests/native/malloc-scenarios.c).
import { strict as assert } from 'node:assert';
import { buildMalloc, missingCompiler, projectFile, run } from './native-harness';

describe('Pico W: malloc and free against lwIP\'s interrupt', function () {
  this.timeout(60000);
  const why = missingCompiler();
  before(function () {
    if (why) this.skip();
  });

  it(`with the project's lock, the interrupt waits until the allocator is done, and runs then${why ? ` (skipped: ${why})` : ''}`, function () {
    const r = run(buildMalloc('malloc-pico', [projectFile('native/malloc-lock/malloc-lock-pico.c')]));
    assert.ok(r.counts, r.output);
    assert.equal(r.counts.reentries, 0, r.output);
    assert.equal(r.counts.handled, r.counts.raised, r.output); // none lost
    assert.equal(r.counts.masked, 0, r.output); // interrupts on again afterwards
  });

  it('with newlib\'s empty lock alone, the handler enters the allocator the main loop is inside', function () {
    const r = run(buildMalloc('malloc-newlib', []));
    assert.ok(Number(r.counts?.reentries) > 0, r.output);
  });
});
