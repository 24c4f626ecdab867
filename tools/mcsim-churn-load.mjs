#!/usr/bin/env node
// Connection churn and the mixed load of a lab, for a device build running in mcsim (docs/module.md
// §Memory budget). Churn: clients that open a new connection for every request, more of them at once
// than the module has connection slots. 4 clients each send --pairs GET + PUT pairs (system/0/uptime,
// system/0/hbinterval) while a fifth fetches GET /metrics and a sixth the device description, --fetches
// times each (trying again 20 ms after a 503, the module refusing a connection beyond its slots).
//
// --seconds S runs every client for S seconds instead of a count. --mixed is the load of a lab: for
// --seconds (default 120) the churn above, --keepalive 2 clients sending back-to-back GETs over
// keep-alive connections (again on a fresh connection when the module closed an idle one, as a browser
// does), and an event stream held open the whole time (opened again if the module ends it).
// --update FILE (with --mixed) streams that firmware image (tools/esp32-app-image.mjs) to PUT
// /api/v1/device/firmware over and over while the rest runs, each time with a second update sent while
// it streams (the module must refuse it, 503): a budget build carries the ESP32's update path on
// desktop stand-ins (budget/module-features.json). Build it with a token (MCCONFIG_ARGS="token=T", and
// "auth=digest" to refuse Bearer) and pass --token T: every write then carries it as HTTP Digest, as the
// host server sends it (host-server/module-auth.ts, built by `make build`; a nonce shared by every
// client, each write its own count), or with --bearer as `Authorization: Bearer T`.
// --hold N opens N keep-alive connections, sends one GET on each and holds them for --seconds (5):
// what a connection costs.
//
// Prints the statuses each kind got and exits 1 when a request got no answer, the event stream got no
// events, or the module no longer answers at the end (a fixed-heap build aborts when it runs out).
//
//   node tools/mcsim-churn-load.mjs [--port 8080] [--pairs 40] [--fetches 10]
//   node tools/mcsim-churn-load.mjs --mixed [--seconds 120] [--keepalive 2]
//   node tools/mcsim-churn-load.mjs --mixed --update /tmp/app.bin --token T [--bearer]
//   node tools/mcsim-churn-load.mjs --hold 4 [--seconds 5]

import * as http from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, pairs: { type: 'string', default: '40' },
  fetches: { type: 'string', default: '10' }, seconds: { type: 'string' }, mixed: { type: 'boolean', default: false },
  keepalive: { type: 'string' }, events: { type: 'boolean' }, hold: { type: 'string', default: '0' },
  update: { type: 'string' }, token: { type: 'string' }, bearer: { type: 'boolean', default: false } } });
const [PORT, PAIRS, FETCHES, HOLD] = [values.port, values.pairs, values.fetches, values.hold].map(Number);
const SECONDS = Number(values.seconds ?? (values.mixed ? 120 : HOLD ? 5 : 0));
const KEEPALIVE = Number(values.keepalive ?? (values.mixed ? 2 : 0));
const EVENTS = values.events ?? values.mixed;
const KEEPALIVE_PATHS = ['/api/v1/device/system/0/uptime', '/api/v1/device/store/0/slotstate/0', '/api/v1/device/system/0/serialnumber',
  '/api/v1/device', '/api/v1/device/ethernet/0/macaddress', '/api/v1/device/system/0/model'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let end = Infinity; // with --seconds: when every client stops
const running = () => Date.now() < end;

const { ModuleAuth } = createRequire(import.meta.url)('../build/host-server/module-auth.js');
const auth = new ModuleAuth();

/** One request with the token when it is a write (HTTP Digest, or Bearer with --bearer). */
function exchange(method, path, body, agent = false, extra = {}, timeoutMs = 10_000) {
  if (!values.token || method === 'GET') return exchangeAs(method, path, body, agent, extra, timeoutMs);
  if (values.bearer) return exchangeAs(method, path, body, agent, { authorization: `Bearer ${values.token}`, ...extra }, timeoutMs);
  return auth.send(values.token, method, path, body ? body.length : 0, (authorization, empty) =>
    exchangeAs(method, path, empty ? Buffer.alloc(0) : body, agent, authorization ? { ...extra, authorization } : extra, timeoutMs));
}

/** One request (a connection of its own unless `agent`); resolves with its status (0: no answer), headers, body and whether its socket was reused. */
function exchangeAs(method, path, body, agent, extra, timeoutMs) {
  return new Promise((resolve) => {
    const headers = { host: '127.0.0.1', ...extra };
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, agent, headers }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString() }));
      res.on('error', () => resolve({ status: 0, body: '', reused: req.reusedSocket }));
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '', reused: req.reusedSocket }));
    req.end(body);
  });
}

const request = async (method, path, body) => (await exchange(method, path, body)).status;

const counts = {};
function count(kind, status) {
  const c = (counts[kind] ??= {});
  c[status] = (c[status] ?? 0) + 1;
}

/** `send` n times, or (with --seconds) until the time is up. */
async function client(kind, n, send) {
  for (let i = 0; SECONDS ? running() : i < n; i++) count(kind, await send());
}

/** A fetch that, refused for want of a slot (503), tries again 20 ms later, as a client would: 50 times (all the run with --seconds). */
async function persistent(kind, path) {
  for (let tries = 0; tries < 50 || (SECONDS && running()); tries++) {
    const status = await request('GET', path);
    count(kind, status);
    if (status !== 503) return status;
    await sleep(20);
  }
  return 503;
}

/**
 * Back-to-back GETs over one keep-alive connection. The module closes a connection idle longest when a
 * newcomer needs its slot: a request that meets that close on a reused socket goes again on a new one
 * (Node's own advice, and what browsers do); a 503 is tried again 20 ms later.
 */
async function keepAliveClient(k) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let n = 0; running(); n++) {
    const path = KEEPALIVE_PATHS[(n + k) % KEEPALIVE_PATHS.length];
    let r = await exchange('GET', path, undefined, agent);
    if (r.status === 0 && r.reused) {
      count('keep-alive: a reused connection closed by the module, sent again', 'retried');
      r = await exchange('GET', path, undefined, agent);
    }
    count('GET over keep-alive', r.status);
    if (r.status === 503) await sleep(20);
  }
  agent.destroy();
}

let events = 0;

/** An event stream held open until the end (opened again when it ends), counting the events it gets. */
async function eventStream(description) {
  const path = description + '/events?watch=system/0/uptime&interval=200';
  while (running()) {
    const status = await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: PORT, path, agent: false, headers: { host: '127.0.0.1' } }, (res) => {
        if (res.statusCode !== 200) { res.resume(); res.on('end', () => resolve(res.statusCode)); return; }
        res.setEncoding('utf8');
        res.on('data', (d) => { events += d.split('\ndata: ').length - 1 + (d.startsWith('data: ') ? 1 : 0); });
        const stop = setInterval(() => { if (!running()) { clearInterval(stop); req.destroy(); resolve(200); } }, 100);
        res.on('end', () => { clearInterval(stop); resolve(running() ? 'ended by the module' : 200); });
        res.on('error', () => { clearInterval(stop); resolve(running() ? 0 : 200); });
      });
      req.on('error', () => resolve(running() ? 0 : 200));
    });
    count('GET events (held open)', status);
    if (status !== 200) await sleep(status === 503 ? 20 : 200);
  }
}

const image = values.update ? readFileSync(values.update) : null;
const imageHeaders = image && { 'content-type': 'application/octet-stream',
  'content-digest': `sha-256=:${createHash('sha256').update(image).digest('base64')}:` };

/** --update: the image sent again and again, each time with a second one sent while it streams. */
async function updates() {
  while (running()) {
    const t0 = Date.now();
    const first = exchange('PUT', '/api/v1/device/firmware', image, false, imageHeaders, 60_000);
    await sleep(200);
    const second = await exchange('PUT', '/api/v1/device/firmware', image, false, imageHeaders, 60_000);
    const r = await first;
    if (r.status === 503) { // no slot for it: the second is no test of a busy update either
      count('PUT firmware: no connection slot (503), sent again', 503);
      await sleep(20);
      continue;
    }
    count('PUT firmware while another streams', second.status);
    count('PUT firmware (whole image)', r.status);
    console.log(`  firmware: ${r.status} after ${((Date.now() - t0) / 1000).toFixed(1)} s${r.status === 202 ? '' : ' ' + r.body}`);
  }
}

/** --hold N: N keep-alive connections, one GET each, held open for --seconds. */
async function hold() {
  const agents = Array.from({ length: HOLD }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  for (const a of agents) count('GET, then held open', (await exchange('GET', '/api/v1/device/system/0/uptime', undefined, a)).status);
  await sleep(SECONDS * 1000);
  for (const a of agents) a.destroy();
}

async function main() {
  const serial = await exchange('GET', '/api/v1/device/system/0/serialnumber');
  if (serial.status !== 200) {
    console.error(`nothing answers on 127.0.0.1:${PORT}: start the build under mcsim first`);
    process.exit(2);
  }
  const description = '/api/v1/device/0x' + JSON.parse(serial.body).response.value.toString(16).padStart(8, '0');
  const t0 = Date.now();
  if (SECONDS) end = t0 + SECONDS * 1000;
  const pair = async () => {
    const get = await request('GET', '/api/v1/device/system/0/uptime');
    count('GET system/0/uptime', get);
    return request('PUT', '/api/v1/device/system/0/hbinterval', '{"value":20}');
  };
  if (HOLD) await hold();
  else {
    await Promise.all([
      ...[1, 2, 3, 4].map(() => client('PUT system/0/hbinterval', PAIRS, pair)),
      client('', FETCHES, () => persistent('GET /metrics', '/metrics')),
      client('', FETCHES, () => persistent('GET the description', description)),
      ...Array.from({ length: KEEPALIVE }, (_, k) => keepAliveClient(k)),
      ...(EVENTS ? [eventStream(description)] : []),
      ...(image ? [updates()] : []),
    ]);
  }
  const after = await request('GET', '/api/v1/device/system/0/serialnumber');
  console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s, ${HOLD ? `${HOLD} connections held open` : `a connection per request${KEEPALIVE ? `, ${KEEPALIVE} keep-alive clients` : ''}${EVENTS ? ', an event stream' : ''}`}:`);
  for (const [kind, c] of Object.entries(counts)) {
    if (!kind) continue; // the retrying clients' own tally
    console.log(`  ${kind}: ${Object.entries(c).map(([s, n]) => `${n} x ${s === '0' ? 'no answer' : s}`).join(', ')}`);
  }
  if (EVENTS) console.log(`  events received: ${events}`);
  console.log(`  afterwards: ${after === 200 ? '200, the module answers' : after ? after : 'no answer: the module is gone'}`);
  const lost = Object.entries(counts).some(([kind, c]) => kind && c[0]);
  const noEvents = EVENTS && events === 0;
  process.exit(after === 200 && !lost && !noEvents ? 0 : 1);
}

void main();
