// What one GET /metrics scrape costs the device under a real XS engine (xsnap; tests/xs/metrics-cost.ts),
// for a module with the pins of a small board: the stream opens only the families the module reads
// (src/api/resources/readable-families.ts). docs/performance.md §make bench-xs has the figures.

import { strict as assert } from 'node:assert';
import { scrapeCost } from './xs/metrics-cost';

/**
 * Computrons of a whole scrape (873 bytes): measured 66,159; 170,476 when every scrape opened every
 * family of the route table. The bound leaves headroom over the first, none for going back to the second.
 */
const MAX_SCRAPE_COMPUTE = 80_000;

describe('GET /metrics under XS on a small board', function () {
  this.timeout(120_000);

  it('costs at most a fixed number of computrons for the whole scrape', async () => {
    const c = await scrapeCost();
    console.log(`      a scrape: ${c.compute} computrons, ${c.bytes} bytes received`);
    assert.ok(c.bytes > 500, `the scrape received ${c.bytes} bytes`);
    assert.ok(c.compute <= MAX_SCRAPE_COMPUTE, `a scrape costs ${c.compute} computrons (bound ${MAX_SCRAPE_COMPUTE})`);
  });
});
