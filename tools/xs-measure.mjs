// Shared by the XS benchmarks (tools/bench-xs.mjs, tools/bench-xs-anchor.mjs): the repository root, a
// require for the compiled test driver, and the median computrons and heap-slot growth of one command
// sent to an xsnap-worker.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const requireBuilt = createRequire(import.meta.url);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Sends `script` `samples` times (after `warmup`); medians of compute and of heap-slot growth. */
export async function measure(worker, script, samples, warmup) {
  for (let i = 0; i < warmup; i++) await worker.command(script);
  const compute = [];
  const growth = [];
  let last = (await worker.command(script)).meter;
  let reply;
  for (let i = 0; i < samples; i++) {
    const r = await worker.command(script);
    compute.push(r.meter.compute);
    // Slots are reclaimed only when XS collects, so between two collections the growth of
    // currentHeapCount is what one request allocates; the median skips the collections.
    growth.push(r.meter.currentHeapCount - last.currentHeapCount);
    last = r.meter;
    reply = r.reply;
  }
  return { compute: median(compute), slots: median(growth), heap: last.currentHeapCount, allocate: last.allocate, reply };
}
