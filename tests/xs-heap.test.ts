// Memory guard that needs no Moddable SDK: under a real XS engine (xsnap), the device-side
// core (Api + 4 Connections + a shared codec, wired as src/device/main.ts wires them, over the simulated
// module HAL, which is made before the baseline and not counted) with
// every connection holding a half-received request retains at most a fixed number of heap slots and
// of buffer bytes, and neither grows over 10,000 requests. docs/module.md §Memory budget has the
// numbers these bounds come from; they leave headroom over what was measured, not room for a leak.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Live slots the core adds over the loaded bundle and the HAL: measured 404 with 4 half requests held
 * (514 when every connection made its body buffer, chunked decoder and answer object of its own), 425
 * after 10,100 requests; 18 of them are the streamed-body path of a firmware update (each parser's sink,
 * its router and the Content-Digest value; the Api's table of uploads). The slots between the two are mostly the parser's three RegExps (src/http/patterns.ts),
 * made once at the first field that needs them on either path: these requests arrive in two reads, so
 * only the byte path runs here, and the fast path makes the same patterns at a device's first request.
 */
const MAX_CORE_SLOTS = 440;
/**
 * Buffer bytes the 4 connections hold: 4 x 512, the idle size of the on-demand request buffers, which a
 * small half-received request fits in (36,872 when each connection held a 5 KiB head and a 4 KiB body
 * buffer for its whole life).
 */
const MAX_CONNECTION_BUFFER_BYTES = 4 * 512;
/** Live slots that may come and go between two samples (XS caches, the JSON report itself). */
const SLOT_NOISE = 64;

interface Report { bytes: number; written: number; closed: number }

describe('retained heap of the device-side core under XS', function () {
  this.timeout(120_000);
  let worker: XsnapWorker;

  async function command(bytes: number[]): Promise<Report> {
    const { reply } = await worker.command(new Uint8Array(bytes));
    return JSON.parse(Buffer.from(reply).toString('latin1')) as Report;
  }
  async function liveSlots(): Promise<number> {
    await worker.evaluate('gc()');
    return (await worker.evaluate('')).meter.currentHeapCount;
  }
  const run = (n: number): number[] => [0x52, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

  before(async function () {
    worker = new XsnapWorker({ name: 'xs-heap' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/heap-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  it('stays under a fixed bound with 4 connections each holding a half-received request, and does not grow over 10,000 requests', async () => {
    await command([0x48]); // the module HAL (not the core) and the report path, before the baseline
    const base = await liveSlots();
    const held = await command([0x53]);
    const afterSetUp = await liveSlots();
    const core = afterSetUp - base;
    assert.ok(core > 0 && core <= MAX_CORE_SLOTS, `the core retains ${core} slots (bound ${MAX_CORE_SLOTS})`);
    assert.ok(held.bytes <= MAX_CONNECTION_BUFFER_BYTES, `4 connections hold ${held.bytes} buffer bytes (bound ${MAX_CONNECTION_BUFFER_BYTES})`);
    assert.equal(held.written, 0, 'a half-received request is not answered');

    const warm = await command(run(100));
    const afterWarm = await liveSlots();
    let last = warm;
    for (let i = 0; i < 10; i++) last = await command(run(1000));
    const afterLong = await liveSlots();
    assert.equal(last.closed, 0, 'no connection closed');
    assert.ok(last.written > 10_100 * 100, `answers were written (${last.written} bytes)`);
    assert.ok(afterLong - afterWarm <= SLOT_NOISE, `live slots grew from ${afterWarm} to ${afterLong} over 10,000 requests`);
    assert.ok(afterLong - base <= MAX_CORE_SLOTS, `the core retains ${afterLong - base} slots after 10,100 requests`);
    assert.equal(last.bytes, warm.bytes, 'buffer bytes held by the connections changed over 10,000 requests');
  });
});
