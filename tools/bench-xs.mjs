#!/usr/bin/env node
// make bench-xs: what the device-side request path costs under XS (@agoric/xsnap's xsnap-worker).
//
// Uses the compiled test driver (build/tests/xs/*.js, so run `make build` first) and bundles
// tests/xs/xs-main.ts (HTTP core + API core + simulated HAL, fixed clock) from the TypeScript sources.
// First, per request kind, the device path alone (Connection.receive with the request's bytes already
// in XS: no harness) against the targets, broken down by stage (tests/xs/xs-stages.ts: each stage
// run on its own with the real modules; `other` is the glue between them). Then, per request kind: XS computrons (meter `compute`) and heap slots (`currentHeapCount`
// growth per request, `allocate` arena bytes), the same for a bare byte-echo handleCommand fed the
// same bytes in the same worker, and their ratio; then the live heap (after gc()) after 100 and
// after 10,000 requests on one long-lived Connection/Api; then the minified device bundle size.
//
//   node tools/bench-xs.mjs [--requests N] [--samples N] [--limit COMPUTRONS]

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { median, measure as measureCommand } from './xs-measure.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const LONG_RUN = arg('--requests', 10_000);
const SAMPLES = arg('--samples', 200);
const WARMUP = 20;
const LIMIT = arg('--limit', 100_000_000); // xsnap's default crank limit: a runaway request fails loudly

const built = path.join(ROOT, 'build', 'tests', 'xs');
for (const f of ['xsnap-worker.js', 'bundle.js', 'script-format.js']) {
  if (!fs.existsSync(path.join(built, f))) {
    console.error(`bench-xs: ${path.join(built, f)} is missing; run \`make build\` first`);
    process.exit(2);
  }
}
const { XsnapWorker } = require(path.join(built, 'xsnap-worker.js'));
const { bundleForXs } = require(path.join(built, 'bundle.js'));
const { encodeScript, decodeEvents, latin1Bytes, latin1String, FLAG_RESET, FLAG_KEEP } = require(path.join(built, 'script-format.js'));
const esbuild = require('esbuild');

const CRLF = '\r\n';
const HOST = 'Host: 192.168.1.50' + CRLF;
const get = (p) => `GET ${p} HTTP/1.1${CRLF}${HOST}${CRLF}`;
const put = (p, body) =>
  `PUT ${p} HTTP/1.1${CRLF}${HOST}Content-Type: application/json${CRLF}Content-Length: ${body.length}${CRLF}${CRLF}${body}`;

const CASES = [
  { name: 'GET int (system/0/serialnumber)', stream: get('/api/v1/device/system/0/serialnumber'), requests: 1 },
  { name: 'GET str (ethernet/0/macaddress)', stream: get('/api/v1/device/ethernet/0/macaddress'), requests: 1 },
  { name: 'PUT (system/0/hbinterval 20)', stream: put('/api/v1/device/system/0/hbinterval', '{"value":20}'), requests: 1 },
  { name: 'error 404 (unknown entity)', stream: get('/api/v1/device/nosuchentity/0/thing'), requests: 1 },
];
// Pipelining: the same requests in one read and in one read each, on one keep-alive connection. A GET
// after a PUT costs the simulated HAL one pass of its physics (hal/sim/context.ts advance()), whichever
// way the bytes arrive, so a pipelined request is compared with the same requests read one by one.
const FOUR = CASES.map((c) => c.stream);
const GET_INT = CASES[0].stream;
CASES.push(
  { name: '4 pipelined (one chunk)', stream: FOUR.join(''), requests: 4 },
  { name: 'the same 4, one read each', reads: FOUR, requests: 4 },
  { name: '4 GET int pipelined', stream: GET_INT.repeat(4), requests: 4 },
  { name: '4 GET int, one read each', reads: [GET_INT, GET_INT, GET_INT, GET_INT], requests: 4 },
);
/** Pipelined against one read each: [pipelined case, one-read-each case] by name. */
const PIPELINE_PAIRS = [['4 pipelined (one chunk)', 'the same 4, one read each'], ['4 GET int pipelined', '4 GET int, one read each']];
const PIPELINE_TARGET = 1.1;

/** Sends `script` SAMPLES times (after a warm-up); medians of compute and of heap-slot growth. */
const measure = (worker, script) => measureCommand(worker, script, SAMPLES, WARMUP);

async function heapAfterGc(worker) {
  await worker.evaluate('gc()');
  return (await worker.evaluate('')).meter;
}

function pad(s, n, right = false) {
  s = String(s);
  return right ? s.padEnd(n) : s.padStart(n);
}

/** Computron targets of the device path per request kind (issue: half the work per request). */
const TARGETS = [9000, 9000, 14000, 8000];
const STAGES = ['parse', 'route', 'body', 'hal', 'format', 'envelope', 'write'];

/** The breakdown table: total device path and each stage, medians over SAMPLES, harness subtracted. */
async function stageBreakdown() {
  const worker = new XsnapWorker({ name: 'bench-xs-stages', meteringLimit: LIMIT });
  try {
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/xs-stages.ts'));
    const cost = async (kind, stage) => {
      const msg = new Uint8Array([kind, stage]);
      for (let i = 0; i < WARMUP; i++) await worker.command(msg);
      const xs = [];
      for (let i = 0; i < SAMPLES; i++) xs.push((await worker.command(msg)).meter.compute);
      return median(xs);
    };
    const header = `${pad('request', 34, true)} ${pad('total', 7)} ${pad('target', 7)}  ` +
      STAGES.map((s) => pad(s, 8)).join(' ') + ` ${pad('other', 7)}`;
    console.log('device path per request (Connection.receive, bytes already in XS), computrons, by stage:');
    console.log(header);
    console.log('-'.repeat(header.length));
    let met = 0;
    for (let k = 0; k < 4; k++) {
      const c = CASES[k];
      const kind = (await worker.evaluate(`globalThis.kindIndex = prepareKind(${JSON.stringify(c.stream)})`)) && k;
      const base = await cost(kind, 0);
      const total = (await cost(kind, 8)) - base;
      const parts = [];
      for (let s = 1; s <= STAGES.length; s++) parts.push(Math.max(0, (await cost(kind, s)) - base));
      const other = total - parts.reduce((a, b) => a + b, 0);
      const ok = total <= TARGETS[k];
      if (ok) met++;
      console.log(`${pad(c.name, 34, true)} ${pad(total, 7)} ${pad((ok ? '<=' : '> ') + TARGETS[k], 7)}  ` +
        parts.map((v) => pad(v, 8)).join(' ') + ` ${pad(other, 7)}`);
    }
    console.log(`targets met: ${met} of 4\n`);
  } finally {
    await worker.close();
  }
}

/** Per request case: the core's cost next to an echo handler's (the harness alone), heap and status. */
async function perCaseTable(worker) {
  const header = `${pad('request', 34, true)} ${pad('core comp', 10)} ${pad('echo comp', 10)} ${pad('ratio', 7)} ` +
    `${pad('comp/req', 9)} ${pad('slots/req', 10)} ${pad('heap slots', 11)} ${pad('allocate B', 11)} status`;
  console.log(header);
  console.log('-'.repeat(header.length + 8));
  await worker.command(encodeScript(FLAG_RESET, []));
  const perRequest = new Map();
  for (const c of CASES) {
    const script = encodeScript(FLAG_KEEP, (c.reads ?? [c.stream]).map((r) => ({ receive: latin1Bytes(r) })));
    await worker.evaluate('handleCommand = coreCommand');
    const core = await measure(worker, script);
    await worker.evaluate('handleCommand = echoCommand');
    const echo = await measure(worker, script);
    const text = decodeEvents(core.reply).map((e) => (e.type === 'write' ? latin1String(e.bytes) : '')).join('');
    const status = (text.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((s) => s.slice(9)).join(',');
    console.log(`${pad(c.name, 34, true)} ${pad(core.compute, 10)} ${pad(echo.compute, 10)} ` +
      `${pad((core.compute / echo.compute).toFixed(1) + 'x', 7)} ${pad(Math.round(core.compute / c.requests), 9)} ` +
      `${pad(core.slots / c.requests, 10)} ${pad(core.heap, 11)} ${pad(core.allocate, 11)} ${status}`);
    perRequest.set(c.name, core.compute / c.requests);
  }
  await worker.evaluate('handleCommand = coreCommand');
  for (const [piped, alone] of PIPELINE_PAIRS) {
    const ratio = perRequest.get(piped) / perRequest.get(alone);
    console.log(`${piped}: ${ratio.toFixed(3)} x one read each per request ` +
      `(${ratio <= PIPELINE_TARGET ? 'within' : 'OVER'} the ${PIPELINE_TARGET} target)`);
  }
}

/** One long-lived Api + Connection (FLAG_KEEP), cycling the four single requests: does the heap grow? */
async function longRunTable(worker) {
  await worker.command(encodeScript(FLAG_RESET, []));
  const singles = CASES.slice(0, 4).map((c) => encodeScript(FLAG_KEEP, [{ receive: latin1Bytes(c.stream) }]));
  const marks = new Map([[100, null], [1000, null], [LONG_RUN, null]]);
  let closed = false;
  const t0 = Date.now();
  for (let i = 1; i <= LONG_RUN; i++) {
    const r = await worker.command(singles[i % singles.length]);
    if (decodeEvents(r.reply).some((e) => e.type === 'close')) closed = true;
    if (marks.has(i)) marks.set(i, await heapAfterGc(worker));
  }
  const ms = Date.now() - t0;
  const m100 = marks.get(100);
  const mEnd = marks.get(LONG_RUN);
  console.log(`\nlong-lived Connection/Api, ${LONG_RUN} requests (GET int, GET str, PUT, 404 in turn) in ${ms} ms` +
    `${closed ? ' -- WARNING: the connection closed during the run' : ''}`);
  for (const [n, m] of marks) {
    console.log(`  live heap after ${pad(n, 6)} requests + gc: ${pad(m.currentHeapCount, 7)} slots, allocate ${m.allocate} bytes`);
  }
  const grew = mEnd.currentHeapCount - m100.currentHeapCount;
  console.log(`  growth ${m100 ? 100 : '?'} -> ${LONG_RUN}: ${grew} slots, ${mEnd.allocate - m100.allocate} bytes allocate ` +
    `(${grew > 64 || mEnd.allocate > m100.allocate ? 'GROWS: check for a leak' : 'flat'})`);
}

/** The device bundle: HTTP core + API core + simulated HAL, minified. */
async function bundleSizes() {
  const sizes = [];
  for (const [label, contents] of [
    ['src (http + api)', "export { Connection } from './src/http/connection'; export { Api } from './src/api/api';"],
    ['src + hal/sim', "export { Connection } from './src/http/connection'; export { Api } from './src/api/api'; export { createSimModule } from './hal/sim/index';"],
  ]) {
    const out = await esbuild.build({
      stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'device-entry.ts' },
      bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', minify: true, write: false, logLevel: 'silent',
      absWorkingDir: ROOT, tsconfig: path.join(ROOT, 'tsconfig.json'),
    });
    const bytes = out.outputFiles[0].contents;
    sizes.push(`  ${pad(label, 18, true)} ${pad(bytes.length, 7)} bytes minified, ${pad(gzipSync(bytes, { level: 9 }).length, 6)} gzipped`);
  }
  console.log('\nminified device bundle (esbuild, es2022):');
  console.log(sizes.join('\n'));
}

async function main() {
  await stageBreakdown();
  const code = await bundleForXs(ROOT, 'tests/xs/xs-main.ts');
  const worker = new XsnapWorker({ name: 'bench-xs', meteringLimit: LIMIT });
  try {
    await worker.start();
    const loaded = await worker.evaluate(code);
    await worker.evaluate('globalThis.coreCommand = globalThis.handleCommand; globalThis.echoCommand = (msg) => msg;');
    const base = await heapAfterGc(worker);

    console.log(`XS guard rail bench: xsnap-worker, metering limit ${LIMIT} computrons/request, ` +
      `${SAMPLES} samples after ${WARMUP} warm-up, medians`);
    console.log(`bundle load: ${loaded.meter.compute} computrons; heap after load + gc: ${base.currentHeapCount} slots, ` +
      `allocate ${base.allocate} bytes\n`);

    await perCaseTable(worker);
    await longRunTable(worker);
  } finally {
    await worker.close();
  }
  await bundleSizes();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
