#!/usr/bin/env node
// make bench-xs (second part): what one event-stream tick and one console page cost under XS
// (@agoric/xsnap's xsnap-worker), on the device-side code with the simulated HAL (tests/xs/xs-events.ts).
// GET /metrics (a whole scrape). Per case: computrons (meter `compute`) and heap-slot growth (currentHeapCount) per call, medians; then
// the live heap after 10,000 ticks against after 100 (a stream must not grow).
//
//   node tools/bench-events-xs.mjs [--samples N]

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const built = path.join(ROOT, 'build', 'tests', 'xs');
const { XsnapWorker } = require(path.join(built, 'xsnap-worker.js'));
const { bundleForXs } = require(path.join(built, 'bundle.js'));

const i = process.argv.indexOf('--samples');
const SAMPLES = i >= 0 ? Number(process.argv[i + 1]) : 200;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const cmd = (text) => new Uint8Array(Buffer.from(text, 'latin1'));

async function measure(worker, text, samples = SAMPLES) {
  const compute = [];
  const growth = [];
  let last = (await worker.command(cmd(text))).meter;
  let bytes = 0;
  for (let k = 0; k < samples; k++) {
    const r = await worker.command(cmd(text));
    compute.push(r.meter.compute);
    growth.push(r.meter.currentHeapCount - last.currentHeapCount);
    last = r.meter;
    bytes = Number(Buffer.from(r.reply).toString('latin1'));
  }
  return { compute: median(compute), slots: median(growth), bytes };
}

async function heapAfterGc(worker) {
  await worker.evaluate('gc()');
  return (await worker.evaluate('')).meter;
}

const CASES = [
  ['1 value (system/0/serialnumber: the stream alone)', 'watch=system/0/serialnumber&interval=100'],
  ['1 value (rail/0/voltage)', 'watch=rail/0/voltage&interval=100'],
  ['3 values (rail/0 voltage, current, power)', 'watch=rail/0/voltage,rail/0/current,rail/0/power&interval=100'],
  ['8 values (rail/0 + port vbus)', 'watch=rail/0/voltage,rail/0/current,rail/0/power,rail/0/temperature,rail/0/enable,port/0/vbusvoltage,port/0/vbuscurrent,system/0/inputvoltage&interval=100'],
];

async function main() {
  const worker = new XsnapWorker({ name: 'bench-events-xs', meteringLimit: 100_000_000 });
  try {
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/xs-events.ts'));
    // The page's bytes, handed in as a module maps its resource (before any request: the Api is made with them).
    await worker.command(new Uint8Array([...cmd('gzip '), ...fs.readFileSync(path.join(ROOT, 'resources', 'console.html.gz'))]));
    console.log(`event stream and console page under XS (xsnap-worker), ${SAMPLES} samples, medians`);
    const idle0 = await measure(worker, 'page', 20);
    console.log(`GET / (console page, gzip): ${idle0.compute} computrons, ${idle0.slots} slots, ${idle0.bytes} bytes written`);
    for (const [verb, what] of [['metrics', 'the simulated HAL'], ['metrics const', 'HAL reads answering a constant: the exposition alone']]) {
      await worker.command(cmd(verb));
      const text = Buffer.from((await worker.command(cmd('last'))).reply).toString('latin1');
      const series = text.split('\n').filter((l) => l.startsWith('brainstem_')).length;
      const scrape = await measure(worker, verb, 20);
      console.log(`GET /metrics (everything profile, ${series} series; ${what}): ${scrape.compute} computrons ` +
        `(${Math.round(scrape.compute / series)} a series), ${scrape.slots} slots allocated, ${scrape.bytes} bytes written`);
    }
    for (const live of ['0', '1']) {
      await worker.command(cmd('live ' + live));
      console.log(live === '1' ? 'simulated time passing (the simulated HAL runs its physics on each read):' : 'module clock still (the stream and the HAL reads alone):');
      for (const [name, query] of CASES) {
        await worker.command(cmd('open ' + query));
        const due = await measure(worker, 'tick 100');
        const idle = await measure(worker, 'tick 10');
        console.log(`  tick, ${name}: event ${due.compute} computrons, ${due.slots} slots, ${due.bytes} bytes; ` +
          `not due ${idle.compute} computrons, ${idle.slots} slots`);
        await worker.command(cmd('close'));
      }
    }
    const before = await heapAfterGc(worker);
    await worker.command(cmd('open ' + CASES[2][1]));
    await worker.command(cmd('tick 100'));
    const held = await heapAfterGc(worker);
    console.log(`an open stream (3 values) holds ${held.currentHeapCount - before.currentHeapCount} live slots after gc ` +
      `(Connection + parser + stream; the parser's buffers are the HTTP core's)`);
    let m100;
    for (let k = 1; k <= 10_000; k++) {
      await worker.command(cmd('tick 100'));
      if (k === 100) m100 = await heapAfterGc(worker);
    }
    const m10k = await heapAfterGc(worker);
    console.log(`live heap after 100 ticks + gc: ${m100.currentHeapCount} slots, after 10,000: ${m10k.currentHeapCount} slots ` +
      `(${m10k.currentHeapCount - m100.currentHeapCount > 64 ? 'GROWS' : 'flat'})`);
  } finally {
    await worker.close();
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
