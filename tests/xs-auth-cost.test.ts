// What HTTP Digest costs the device core per PUT under a real XS engine (xsnap), against the same PUT
// with Bearer (tests/xs/auth-cost.ts). docs/security.md §What Digest costs has the figures; the bounds
// leave headroom over what was measured, not room for a per-character cost in the credentials' parser.

import { strict as assert } from 'node:assert';
import { authCosts } from './xs/auth-cost';

/** Computrons of a Digest PUT besides the SHA-256 stand-in's calls: measured 35,683 (Bearer: 20,426). */
const MAX_DIGEST_COMPUTE = 40_000;
/** Slots it allocates besides the stand-in's: measured 638 (Bearer: 298; 1,858 when the parameters were read a charCodeAt at a time). */
const MAX_DIGEST_SLOTS = 760;

describe('an authenticated PUT under XS: Digest against Bearer', function () {
  this.timeout(120_000);

  it('costs at most a fixed number of computrons and slots more than a Bearer PUT', async () => {
    const c = await authCosts();
    const compute = c.digest.compute - c.standIn.compute;
    const slots = c.digest.slots - c.standIn.slots;
    console.log(`      Bearer PUT ${c.bearer.compute} computrons, ${c.bearer.slots} slots; Digest PUT ${compute} computrons, ${slots} slots ` +
      `(besides the SHA-256 stand-in's ${c.standIn.compute} and ${c.standIn.slots})`);
    assert.ok(c.bearer.compute > 0 && compute > c.bearer.compute, 'a Digest PUT does more than a Bearer one');
    assert.ok(compute <= MAX_DIGEST_COMPUTE, `a Digest PUT costs ${compute} computrons (bound ${MAX_DIGEST_COMPUTE})`);
    assert.ok(slots <= MAX_DIGEST_SLOTS, `a Digest PUT allocates ${slots} slots (bound ${MAX_DIGEST_SLOTS})`);
  });
});
