// What the mDNS responder costs under a real XS engine (xsnap), as src/device/announce.ts runs it:
// the live slots and ArrayBuffer bytes an announced, idle responder keeps, and that answering queries
// and dropping malformed packets keeps nothing (a fixed bound; docs/module.md §Discovery has the
// numbers these bounds come from).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker, opWithCount } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');
/** Live slots of an idle, announced responder (measured 186: docs/module.md §Discovery). */
const MAX_IDLE_SLOTS = 200;
/** Live slots that may come and go between two samples (XS caches, the JSON report itself). */
const SLOT_NOISE = 32;

interface Report { sent: number; bytes: number; dropped: number }

describe('the mDNS responder under XS', function () {
  this.timeout(120_000);
  let worker: XsnapWorker;

  const u32 = opWithCount;
  /** A command's report and its computrons. */
  async function command(bytes: Uint8Array): Promise<{ report: Report; compute: number }> {
    const { reply, meter } = await worker.command(bytes);
    return { report: JSON.parse(Buffer.from(reply).toString('latin1')) as Report, compute: meter.compute };
  }
  /** Slots in use now, garbage included (no collection first). */
  async function usedSlots(): Promise<number> {
    return (await worker.evaluate('')).meter.currentHeapCount;
  }
  const liveSlots = (): Promise<number> => worker.liveSlots();

  before(async function () {
    worker = new XsnapWorker({ name: 'xs-mdns' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/mdns-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  it('keeps a small fixed set when idle, and nothing more after 1,000 queries answered and 1,000 malformed packets', async () => {
    await command(u32(0x42, 0)); // the report path, before the baseline
    const base = await liveSlots();
    const idle = await command(u32(0x49, 0));
    const afterIdle = await liveSlots();
    assert.ok(idle.report.sent >= 5, `probes and announcements sent (${idle.report.sent})`);
    // Slots one answered query allocates (garbage included), less what the report alone allocates.
    await liveSlots();
    let before = await usedSlots();
    await command(u32(0x51, 0));
    const reportOnly = (await usedSlots()) - before;
    await liveSlots();
    before = await usedSlots();
    const one = await command(u32(0x51, 1));
    const oneSlots = (await usedSlots()) - before - reportOnly;
    const afterOne = await liveSlots();
    const many = await command(u32(0x51, 1000));
    const bad = await command(u32(0x42, 1000));
    const afterMany = await liveSlots();
    process.stdout.write(`      idle responder: ${afterIdle - base} slots; one query answered: ${one.compute} computrons, ` +
      `${oneSlots} slots allocated, ${one.report.bytes - idle.report.bytes} bytes sent; ` +
      `1,000 queries: ${many.compute} computrons; 1,000 self-pointers: ${bad.compute} computrons\n`);
    assert.ok(afterIdle - base <= MAX_IDLE_SLOTS, `an idle responder keeps ${afterIdle - base} slots (bound ${MAX_IDLE_SLOTS})`);
    assert.equal(many.report.sent - one.report.sent, 1000, 'every query answered');
    assert.equal(bad.report.dropped, 1000);
    assert.ok(afterMany - afterOne <= SLOT_NOISE, `live slots grew from ${afterOne} to ${afterMany}`);
  });
});
