#!/usr/bin/env node
// What the device's transport costs under XS (@agoric/xsnap), on the fake network of tests/fakes
// bundled into the worker with the device module, Api and DeviceServer (tests/xs/device-entry.ts):
// live heap slots of the booted module, Api and listening server, those that 4 idle keep-alive
// connections add to it, and the computrons of
// 4 clients fetching a 7,000-byte document at once, written as far as each socket reports (ESP32)
// and paced through the Pico W's lwIP heap (one segment per socket, two sockets at once), and of one GET
// and one PUT of a value on a connection of their own. The fake
// network's own work (its clients, timers, heap model) is inside the figure, the same for every build.
//   node tools/bench-xs-device.mjs [--samples N]     (run `make build` first)

import * as path from 'node:path';
import { median, ROOT, requireBuilt } from './xs-measure.mjs';

const i = process.argv.indexOf('--samples');
const SAMPLES = i >= 0 ? Number(process.argv[i + 1]) : 15;
const built = path.join(ROOT, 'build', 'tests', 'xs');
const { XsnapWorker } = requireBuilt(path.join(built, 'xsnap-worker.js'));
const { bundleForXs } = requireBuilt(path.join(built, 'bundle.js'));

const worker = new XsnapWorker({ name: 'bench-xs-device' });
await worker.start();
await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/device-entry.ts'));
const command = async (bytes) => {
  const r = await worker.command(new Uint8Array(bytes));
  return { meter: r.meter, reply: JSON.parse(Buffer.from(r.reply).toString('latin1')) };
};
const live = async () => { await worker.evaluate('gc()'); return (await worker.evaluate('')).meter.currentHeapCount; };

for (const [name, paced] of [['as the socket reports (ESP32)', 0], ['paced, Pico W lwIP heap', 1]]) {
  const slots = [];
  const boot = [];
  const compute = [];
  let reply;
  for (let s = 0; s < SAMPLES; s++) {
    await command([0x5a]);
    const empty = await live();
    await command([0x42, paced]);
    const booted = await live();
    boot.push(booted - empty);
    await command([0x43]);
    slots.push((await live()) - booted);
    const r = await command([0x46]);
    compute.push(r.meter.compute);
    reply = r.reply;
  }
  console.log(`${name}: booted ${median(boot)} slots; 4 idle connections ${median(slots)} slots; 4 x 7,000-byte fetch ${median(compute)} computrons ` +
    `(${reply.bytes} bytes received, ${reply.failures} writes lost)`);
}
// One GET and one PUT of a value, each on a connection of its own with `Connection: close` (as the Pico W
// figures ask), paced: the computrons of the device's whole path, the fake network's work included.
for (const [name, cmd] of [['GET /api/v1/device/system/0/serialnumber', 0x47], ['PUT /api/v1/device/system/0/hbinterval', 0x55]]) {
  await command([0x5a]);
  await command([0x42, 1]);
  const compute = [];
  let reply;
  for (let s = 0; s < SAMPLES; s++) {
    const r = await command([cmd]);
    compute.push(r.meter.compute);
    reply = r.reply;
  }
  console.log(`${name}, a connection of its own: ${median(compute)} computrons (status ${reply.status}, ${reply.bytes} bytes received)`);
}
await worker.close();
