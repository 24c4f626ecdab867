// The cost of a firmware update's streaming path under a real XS engine (xsnap), with the load of the
// memory budget: the device-side core (Api + 4 Connections, as src/device/app.ts wires them), three
// connections holding half-received requests while the fourth streams a 1 MiB image through the body
// sink into a FirmwareHal (tests/xs/firmware-heap-entry.ts). The image is never held: the slots and
// buffer bytes the update adds are bounded, and do not grow between 64 KiB and 1 MiB streamed.
// docs/firmware.md §What an update costs has the figures.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker, opWithCount } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');
const IMAGE_BYTES = 1024 * 1024;
/**
 * Slots an update under way holds over the core after its answer (the Upload, its writer and hash, the
 * parser's sink, the segment views): measured 80 (1,280 B at 16 B a slot on an ESP32).
 */
const MAX_UPDATE_SLOTS = 96;
/** Buffer bytes the 4 connections hold while the image streams: the idle request buffers (4 x 512) and the expected digest (32). */
const MAX_BUFFER_BYTES = 4 * 512 + 32;
/** Live slots that may come and go between two samples (XS caches, the JSON report itself). */
const SLOT_NOISE = 32;

interface Report { bytes: number; written: number; status: number; taken: number }

describe('firmware update streaming under XS: bounded memory', function () {
  this.timeout(120_000);
  let worker: XsnapWorker;

  const command = (bytes: Uint8Array | number[]): Promise<Report> => worker.report<Report>(bytes);
  const liveSlots = (): Promise<number> => worker.liveSlots();
  const send = (n: number): Uint8Array => opWithCount(0x42, n);

  before(async function () {
    worker = new XsnapWorker({ name: 'firmware-xs-heap' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/firmware-heap-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  it('streams a 1 MiB image with the update adding a fixed number of slots and no buffer, and answers 202', async () => {
    const before = await liveSlots();
    const set = await command([0x53]); // the core, 3 half requests, and the PUT's head: the Upload is open
    const open = await liveSlots();
    const early = await command(send(64 * 1024));
    const at64k = await liveSlots();
    const mid = await command(send(IMAGE_BYTES / 2 - 64 * 1024));
    const atHalf = await liveSlots();
    assert.equal(mid.status, 0, 'not answered before its body has all come');
    assert.ok(mid.bytes <= MAX_BUFFER_BYTES, `the connections hold ${mid.bytes} buffer bytes while the image streams (bound ${MAX_BUFFER_BYTES})`);
    assert.ok(atHalf - at64k <= SLOT_NOISE, `live slots grew from ${at64k} to ${atHalf} between 64 KiB and 512 KiB streamed`);
    const end = await command(send(IMAGE_BYTES / 2));
    const after = await liveSlots();
    assert.equal(end.taken, IMAGE_BYTES, 'every byte handed to the firmware HAL');
    assert.equal(end.status, 202);
    const report = { core: open - before, streaming: atHalf - before, afterAnswer: after - before, bytesWhileStreaming: mid.bytes, setBytes: set.bytes, early: early.bytes };
    console.log(`      XS slots: core+upload open ${report.core}, while streaming ${report.streaming}, after the 202 ${report.afterAnswer}; ` +
      `connection buffer bytes while streaming ${report.bytesWhileStreaming}`);
    assert.ok(atHalf - after <= MAX_UPDATE_SLOTS, `the update under way held ${atHalf - after} slots more than after it (bound ${MAX_UPDATE_SLOTS})`);
  });
});
