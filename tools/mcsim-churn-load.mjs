#!/usr/bin/env node
// Connection churn, for a device build running in mcsim (docs/module.md §Memory budget): clients that
// open a new connection for every request, more of them at once than the module has connection
// slots. 4 clients each send --pairs GET + PUT pairs (system/0/uptime, system/0/hbinterval) while a
// fifth fetches GET /metrics and a sixth the device description, --fetches times each (trying again
// 20 ms after a 503, the module refusing a connection beyond its slots). Prints the statuses each kind got and
// exits 1 when a request got no answer or the module no longer answers at the end (a fixed-heap
// build aborts when it runs out).
//
//   node tools/mcsim-churn-load.mjs [--port 8080] [--pairs 40] [--fetches 10]

import * as http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, pairs: { type: 'string', default: '40' },
  fetches: { type: 'string', default: '10' } } });
const [PORT, PAIRS, FETCHES] = [values.port, values.pairs, values.fetches].map(Number);

/** One request on a connection of its own; resolves with its status (0: no answer) and body. */
function exchange(method, path, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, agent: false, headers: { host: '127.0.0.1' } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString() }));
      res.on('error', () => resolve({ status: 0, body: '' }));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

const request = async (method, path, body) => (await exchange(method, path, body)).status;

const counts = {};
function count(kind, status) {
  const c = (counts[kind] ??= {});
  c[status] = (c[status] ?? 0) + 1;
}

async function client(kind, n, send) {
  for (let i = 0; i < n; i++) count(kind, await send());
}

/** A fetch that, refused for want of a slot (503), tries again 20 ms later, as a client would: at most 50 times. */
async function persistent(kind, path) {
  for (let tries = 0; tries < 50; tries++) {
    const status = await request('GET', path);
    count(kind, status);
    if (status !== 503) return status;
    await new Promise((r) => setTimeout(r, 20));
  }
  return 503;
}

async function main() {
  const serial = await exchange('GET', '/api/v1/device/system/0/serialnumber');
  if (serial.status !== 200) {
    console.error(`nothing answers on 127.0.0.1:${PORT}: start the build under mcsim first`);
    process.exit(2);
  }
  const description = '/api/v1/device/0x' + JSON.parse(serial.body).response.value.toString(16).padStart(8, '0');
  const t0 = Date.now();
  const pair = async () => {
    const get = await request('GET', '/api/v1/device/system/0/uptime');
    count('GET system/0/uptime', get);
    return request('PUT', '/api/v1/device/system/0/hbinterval', '{"value":20}');
  };
  await Promise.all([
    ...[1, 2, 3, 4].map(() => client('PUT system/0/hbinterval', PAIRS, pair)),
    client('', FETCHES, () => persistent('GET /metrics', '/metrics')),
    client('', FETCHES, () => persistent('GET the description', description)),
  ]);
  const after = await request('GET', '/api/v1/device/system/0/serialnumber');
  console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s, a connection per request:`);
  for (const [kind, c] of Object.entries(counts)) {
    if (!kind) continue; // the retrying clients' own tally
    console.log(`  ${kind}: ${Object.entries(c).map(([s, n]) => `${n} x ${s === '0' ? 'no answer' : s}`).join(', ')}`);
  }
  console.log(`  afterwards: ${after === 200 ? '200, the module answers' : after ? after : 'no answer: the module is gone'}`);
  const lost = Object.entries(counts).some(([kind, c]) => kind && c[0]);
  process.exit(after === 200 && !lost ? 0 : 1);
}

void main();
