// Names a client chooses never become XS property keys (tests/xs/keys-entry.ts): XS keeps every key it
// makes for as long as the machine runs, one heap slot each (a module's XS never collects keys), so a
// lookup of a client's text as a key would take a module's fixed heap a slot per new name until it
// aborts. Under xsnap, each kind of request is sent with 300 new names after a warm-up: the live heap
// must not grow with them.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');
/** Live slots that may come and go between two samples (XS caches, the reply). */
const SLOT_NOISE = 12;
const KINDS = ['an unknown entity', 'an unknown operation', 'a segment where an index stands', 'a serial', 'a top-level name',
  'PUT body member names', 'member names inside the value', 'watched names and query names', 'header names and values',
  'tokens and content types'];

function u32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

describe('XS keys: names a client chooses (xsnap)', function () {
  this.timeout(60_000);
  let worker: XsnapWorker;

  before(async () => {
    worker = new XsnapWorker({ name: 'xs-keys' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/keys-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  KINDS.forEach((kind, k) => {
    it(`${kind}: 300 new ones leave the live heap as it was`, async () => {
      const send = async (first: number, count: number): Promise<string> =>
        Buffer.from((await worker.command(new Uint8Array([k, ...u32(first), ...u32(count)]))).reply).toString('latin1');
      const status = await send(0, 20); // warm-up: first allocations of this path
      assert.match(status, /^HTTP\/1\.1 \d{3} /, 'the request was answered');
      const before = await worker.liveSlots();
      await send(1000, 300);
      const after = await worker.liveSlots();
      assert.ok(after - before <= SLOT_NOISE, `the live heap grew by ${after - before} slots over 300 new names`);
    });
  });
});
