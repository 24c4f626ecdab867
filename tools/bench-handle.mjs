#!/usr/bin/env node
// In-process cost of the API core under Node: Api.handle called in a loop with a prepared request
// (no sockets, no HTTP parser, no writer), per request kind, ops per second of this process's CPU
// time (best of 5 rounds: CPU time, not wall time, so that other work on the machine counts less).
// It isolates what the routing and the handler cost, which `make bench` (wrk through node:http) blurs.
//
//   node tools/bench-handle.mjs [--ms 400]      (after `make build`)

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Api } = require(path.join(ROOT, 'build/src/api/api.js'));
const { HttpResponse } = require(path.join(ROOT, 'build/src/http/request.js'));
const { createSimModule } = require(path.join(ROOT, 'build/hal/sim/index.js'));

const i = process.argv.indexOf('--ms');
const ROUND_MS = i >= 0 ? Number(process.argv[i + 1]) : 400;
const ROUNDS = 5;

const FIXED = Date.UTC(2026, 10, 22, 10, 0, 0);
const api = new Api([createSimModule({ serialNumber: 0x1234abcd, now: () => FIXED })]);
const encoder = new TextEncoder();

function request(method, target, body = '') {
  const bytes = encoder.encode(body);
  return {
    method, target, versionMinor: 1, host: '127.0.0.1', origin: '', secFetchSite: '', authorization: '',
    acceptEncoding: '', ifNoneMatch: '', accessControlRequestMethod: '', peer: '', body: () => bytes,
  };
}

const CASES = [
  ['GET int (system/0/serialnumber)', request('GET', '/api/v1/device/system/0/serialnumber')],
  ['GET str (ethernet/0/macaddress)', request('GET', '/api/v1/device/ethernet/0/macaddress')],
  ['GET by serial, mixed case', request('GET', '/api/v1/device/0x1234ABCD/Rail/0/Voltage')],
  ['PUT (system/0/hbinterval 20)', request('PUT', '/api/v1/device/system/0/hbinterval', '{"value":20}')],
  ['404 (unknown entity)', request('GET', '/api/v1/device/nosuchentity/0/thing')],
  ['404 (index out of range)', request('GET', '/api/v1/device/system/7/serialnumber')],
  ['405 (PUT on a read-only op)', request('PUT', '/api/v1/device/system/0/serialnumber', '{"value":1}')],
];

const res = new HttpResponse();
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function round(req) {
  let n = 0;
  const end = performance.now() + ROUND_MS;
  const start = cpuMs();
  while (performance.now() < end) {
    for (let k = 0; k < 1000; k++) {
      res.reset();
      api.handle(req, res);
      api.afterResponse();
    }
    n += 1000;
  }
  return (n * 1000) / (cpuMs() - start);
}

console.log(`Api.handle in-process, ${ROUNDS} rounds of ${ROUND_MS} ms, best ops per CPU second`);
for (const [name, req] of CASES) {
  res.reset();
  api.handle(req, res);
  const status = res.status;
  round(req); // warm-up
  const rates = [];
  for (let r = 0; r < ROUNDS; r++) rates.push(round(req));
  rates.sort((a, b) => b - a);
  console.log(`${name.padEnd(34)} ${String(status).padStart(3)} ${Math.round(rates[0]).toLocaleString('en-US').padStart(12)} ops/s`);
}
