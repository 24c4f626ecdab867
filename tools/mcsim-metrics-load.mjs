#!/usr/bin/env node
// Scrapes under load, for a device build running in mcsim (docs/telemetry.md §Cost on the module):
// 4 keep-alive clients send back-to-back GETs (values, the device list, the device description) for
// --seconds, one of them asking for GET /metrics every --every requests. Prints per scrape kind the
// count, statuses, bytes and series, checks the last exposition with promtool, and exits 1 when an
// answer failed or the module stopped answering (a fixed-heap build aborts when it runs out).
//
//   node tools/mcsim-metrics-load.mjs [--port 8080] [--seconds 20] [--every 4] [--print]

import * as http from 'node:http';
import { spawnSync } from 'node:child_process';

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const PORT = arg('--port', 8080);
const SECONDS = arg('--seconds', 20);
const EVERY = arg('--every', 4);
const PATHS = ['/api/v1/device/system/0/uptime', '/api/v1/device/store/0/slotstate/0', '/api/v1/device/system/0/serialnumber',
  '/api/v1/device', '/api/v1/device/ethernet/0/macaddress', '/api/v1/device/system/0/model'];

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function get(path) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: PORT, path, agent, headers: { host: '127.0.0.1' } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(parts) }));
      res.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
  });
}

async function waitUp() {
  for (let i = 0; i < 200; i++) {
    if ((await get('/api/v1/device/system/0/uptime')).status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no module answers on port ${PORT}`);
}

const stats = { refused: {}, requests: 0, failed: 0, scrapes: 0, scrapeFailed: 0, bytes: [], series: 0, last: '' };

async function client(k, end) {
  for (let n = 0; Date.now() < end; n++) {
    const scrape = k === 0 && n % EVERY === 0;
    const path = scrape ? '/metrics' : PATHS[(n + k) % PATHS.length];
    const r = await get(path);
    stats.requests++;
    if (r.status !== 200) { stats.failed++; stats.refused[path] = r.status; }
    if (!scrape) continue;
    stats.scrapes++;
    if (r.status !== 200) { stats.scrapeFailed++; continue; }
    stats.bytes.push(r.body.length);
    stats.last = r.body.toString('utf8');
    stats.series = stats.last.split('\n').filter((l) => l.startsWith('brainstem_')).length;
  }
}

async function main() {
  await waitUp();
  const end = Date.now() + SECONDS * 1000;
  await Promise.all([0, 1, 2, 3].map((k) => client(k, end)));
  const alive = (await get('/api/v1/device/system/0/uptime')).status === 200;
  const check = spawnSync('promtool', ['check', 'metrics'], { input: stats.last, encoding: 'utf8' });
  const bytes = stats.bytes.length ? `${Math.min(...stats.bytes)}..${Math.max(...stats.bytes)}` : '-';
  console.log(`${SECONDS} s, 4 keep-alive clients: ${stats.requests} requests (${stats.failed} not 200), ` +
    `${stats.scrapes} scrapes (${stats.scrapeFailed} not 200), ${bytes} bytes and ${stats.series} series a scrape; ` +
    `promtool: ${check.status === 0 && !(check.stdout + check.stderr).trim() ? 'no problem' : (check.stdout + check.stderr).trim() || 'not run'}; ` +
    `module ${alive ? 'still answering' : 'NOT ANSWERING'}`);
  if (process.argv.includes('--print')) console.log(stats.last);
  const refused = Object.entries(stats.refused).map(([p, s]) => `${p} ${s}`).join(', ');
  if (refused) console.log(`not 200: ${refused}`);
  agent.destroy();
  if (!alive || stats.failed || !stats.scrapes) process.exitCode = 1;
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
