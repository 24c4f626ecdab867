// What a GET /metrics scrape costs the device under XS (tests/xs/device-entry.ts: the device module on
// the fake ECMA-419 sockets, the Api and the DeviceServer as src/device/app.ts wires them, the Pico W's
// write pacing), for tests/xs-metrics-cost.test.ts (its bound) and tools/xs-heap-figures.mjs (its
// figure): the computrons of one client's whole scrape (connect, request, every piece, close), median
// of several, and the bytes it received.

import * as path from 'node:path';
import { bundleForXs } from './bundle';
import { XsnapWorker } from './xsnap-worker';

export interface ScrapeCost { compute: number; bytes: number }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function scrapeCost(root: string = path.resolve(__dirname, '../../..'), samples = 9): Promise<ScrapeCost> {
  const worker = new XsnapWorker({ name: 'xs-metrics-cost' });
  await worker.start();
  try {
    await worker.evaluate(await bundleForXs(root, 'tests/xs/device-entry.ts'));
    const send = (bytes: number[]) => worker.command(new Uint8Array(bytes));
    await send([0x42, 1]);
    await send([0x4d]); // the first scrape finds the families this module reads
    const compute: number[] = [];
    let bytes = 0;
    for (let i = 0; i < samples; i++) {
      const r = await send([0x4d]);
      compute.push(r.meter.compute);
      bytes = (JSON.parse(Buffer.from(r.reply).toString('latin1')) as { bytes: number }).bytes;
    }
    return { compute: median(compute), bytes };
  } finally {
    await worker.close();
  }
}
