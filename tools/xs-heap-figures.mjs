#!/usr/bin/env node
// What the device-side HTTP core costs in XS heap slots, under xsnap (no Moddable SDK needed), on the
// bundle tests/xs-heap.test.ts bounds (tests/xs/heap-entry.ts: the Api over the simulated module HAL,
// connections wired as a device server wires them): the live slots (after gc()) of the Api alone and
// with 4 connections each holding a half-received request, so what one connection holds; the slots
// one answered request allocates (median growth between collections); and what a connection holds
// while it streams GET /metrics or the device description, stopped where a module's socket is full.
//
// Then the same for the device server on the fake ECMA-419 sockets (tests/xs/device-entry.ts), and
// what an authenticated PUT costs with Bearer and with HTTP Digest (tests/xs/auth-cost.ts), and a whole
// GET /metrics scrape of that device server (tests/xs/metrics-cost.ts).
//
//   make build && node tools/xs-heap-figures.mjs

import * as path from 'node:path';
import * as fs from 'node:fs';
import { ROOT, requireBuilt, median } from './xs-measure.mjs';

const built = path.join(ROOT, 'build', 'tests', 'xs');
if (!fs.existsSync(path.join(built, 'xsnap-worker.js'))) {
  console.error('xs-heap-figures: build/tests/xs is missing; run `make build` first');
  process.exit(2);
}
const { XsnapWorker } = requireBuilt(path.join(built, 'xsnap-worker.js'));
const { bundleForXs } = requireBuilt(path.join(built, 'bundle.js'));
const { authCosts } = requireBuilt(path.join(built, 'auth-cost.js'));
const { scrapeCost } = requireBuilt(path.join(built, 'metrics-cost.js'));

export async function heapFigures() {
  const worker = new XsnapWorker({ name: 'xs-heap-figures' });
  await worker.start();
  try {
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/heap-entry.ts'));
    const command = async (bytes) => (await worker.command(new Uint8Array(bytes))).meter;
    const live = async () => {
      await worker.evaluate('gc()');
      return (await worker.evaluate('')).meter.currentHeapCount;
    };
    await command([0x48]); // the module HAL, not counted
    const base = await live();
    await command([0x53, 0]);
    const api = (await live()) - base;
    await command([0x53, 4]);
    const four = (await live()) - base;
    // Per request: the growth of currentHeapCount over one answered request, between collections.
    const one = [0x51, 0, 0, 0, 1];
    for (let i = 0; i < 50; i++) await command(one);
    const growth = [];
    let last = await command(one);
    for (let i = 0; i < 200; i++) {
      const m = await command(one);
      growth.push(m.currentHeapCount - last.currentHeapCount);
      last = m;
    }
    const idle = await live();
    const streams = {};
    for (const [name, kind] of [['metrics', 0x6d], ['description', 0x64]]) {
      const { reply } = await worker.command(new Uint8Array([0x54, kind]));
      if (process.env.DEBUG) console.log(Buffer.from(reply).toString());
      streams[name] = (await live()) - idle;
      await command([0x46]);
    }
    return { api, connection: (four - api) / 4, request: median(growth), streams };
  } finally {
    await worker.close();
  }
}

/**
 * The device server on the fake ECMA-419 sockets (tests/xs/device-entry.ts; the fake socket's own
 * JavaScript is inside the figures): what a boot retains (module, Api, listening server), what a
 * connection holding a half-received request holds, what a socket refused with 503 holds while its
 * answer waits (4 refused at once: one 503 on its way, three bare sockets waiting behind it), what a
 * refusal allocates (garbage included), and what an idle keep-alive connection holds after its answer.
 */
export async function deviceFigures() {
  const worker = new XsnapWorker({ name: 'xs-heap-figures-device' });
  await worker.start();
  try {
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/device-entry.ts'));
    const send = async (bytes) => (await worker.command(new Uint8Array(bytes))).meter.currentHeapCount;
    await send([0x42, 0]); // first allocations before the baseline
    await send([0x5a]);
    const empty = await worker.liveSlots();
    await send([0x42, 0]);
    const booted = await worker.liveSlots();
    await send([0x50]);
    const held = await worker.liveSlots();
    const before = await send([]);
    const after = await send([0x58]);
    const refused = await worker.liveSlots();
    await send([0x59]); // the refused clients read their 503s
    await send([0x42, 0]); // booted again, after every path above has made what it makes once
    const rebooted = await worker.liveSlots();
    await send([0x43]); // 4 keep-alive connections, each idle after one answer
    const idle = ((await worker.liveSlots()) - rebooted) / 4;
    return { boot: booted - empty, connection: (held - booted) / 4, refused: (refused - held) / 4, refusal: (after - before) / 4, idle };
  } finally {
    await worker.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await heapFigures();
  const d = await deviceFigures();
  console.log(`XS heap of the device core (xsnap, live slots after gc()):`);
  console.log(`  the Api over a module:                        ${f.api} slots`);
  console.log(`  one connection holding a half-received request: ${f.connection} slots`);
  console.log(`  one answered request allocates:               ${f.request} slots (median, GET system/0/serialnumber)`);
  console.log(`  a connection streaming GET /metrics holds:     ${f.streams.metrics} slots more (its socket full)`);
  console.log(`  a connection streaming the description holds:  ${f.streams.description} slots more (its socket full)`);
  console.log(`The device server on fake ECMA-419 sockets (xsnap, the fake sockets' own slots included):`);
  console.log(`  a boot (module, Api, listening server):        ${d.boot} slots`);
  console.log(`  one connection holding a half-received request: ${d.connection} slots`);
  console.log(`  one socket refused 503, its answer waiting:    ${d.refused} slots`);
  console.log(`  one refusal allocates:                         ${d.refusal} slots`);
  console.log(`  one idle keep-alive connection holds:          ${d.idle} slots`);
  const a = await authCosts(ROOT, 200);
  console.log(`An authenticated PUT (system/0/hbinterval, a token set; xsnap medians, SHA-256 a native call):`);
  console.log(`  with Bearer:      ${a.bearer.compute} computrons, ${a.bearer.slots} slots allocated`);
  console.log(`  with HTTP Digest: ${a.digest.compute} computrons, ${a.digest.slots} slots allocated`);
  console.log(`    of which the SHA-256 stand-in's calls (4 hashes, 13 writes): ${a.standIn.compute} computrons, ${a.standIn.slots} slots`);
  const m = await scrapeCost(ROOT);
  console.log(`A whole GET /metrics scrape of the device server (one client; xsnap median, the fake sockets' work included):`);
  console.log(`  ${m.compute} computrons, ${m.bytes} bytes received`);
}
