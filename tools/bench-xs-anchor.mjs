#!/usr/bin/env node
// make bench-xs, last part: the anchor. The Moddable SDK's own http Server (modules/network/http/
// http.js, read from $MODDABLE) runs in the same XS harness (xsnap-worker) with a fake socket
// (tools/xs-anchor/), answering the same GET with the same answer body that this project's device
// path gives: its computrons and heap slots per request beside ours, both this project's HTTP core
// answering the same fixed body (the same work) and the whole server. The SDK's Server closes the
// connection after each answer, so ours is shown both with a new connection per request and on one
// keep-alive connection. Without $MODDABLE it says so and stops (nothing of the SDK is in this
// repository).
//
//   MODDABLE=/path/to/moddable node tools/bench-xs-anchor.mjs [--samples N]

import * as path from 'node:path';
import * as fs from 'node:fs';
import { measure, ROOT, requireBuilt as require } from './xs-measure.mjs';

const i = process.argv.indexOf('--samples');
const SAMPLES = i >= 0 ? Number(process.argv[i + 1]) : 200;
const WARMUP = 20;

const sdkHttp = process.env.MODDABLE ? path.join(process.env.MODDABLE, 'modules/network/http/http.js') : '';
if (!sdkHttp || !fs.existsSync(sdkHttp)) {
  console.log('\nanchor (the Moddable SDK http Server under the same harness): skipped; set MODDABLE to an SDK checkout');
  process.exit(0);
}

const built = path.join(ROOT, 'build', 'tests', 'xs');
const { XsnapWorker } = require(path.join(built, 'xsnap-worker.js'));
const { bundleForXs } = require(path.join(built, 'bundle.js'));
const { encodeScript, decodeEvents, latin1Bytes, latin1String, FLAG_RESET, FLAG_KEEP } = require(path.join(built, 'script-format.js'));
const esbuild = require('esbuild');

const REQUEST = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n';

/** The SDK Server's bundle: http.js with "socket" and "timer" resolved to the fakes. */
async function anchorBundle() {
  const fakes = { 'sdk-http': sdkHttp, socket: path.join(ROOT, 'tools/xs-anchor/fake-socket.js'), timer: path.join(ROOT, 'tools/xs-anchor/timer.js') };
  const out = await esbuild.build({
    entryPoints: [path.join(ROOT, 'tools/xs-anchor/entry.js')], bundle: true, format: 'iife', platform: 'neutral',
    target: 'es2022', write: false, logLevel: 'silent',
    plugins: [{ name: 'sdk-modules', setup(b) { b.onResolve({ filter: /^(sdk-http|socket|timer)$/ }, (a) => ({ path: fakes[a.path] })); } }],
  });
  return out.outputFiles[0].text;
}

/** Runs `fn` with a fresh xsnap-worker that has evaluated `code`. */
async function inWorker(name, code, fn) {
  const worker = new XsnapWorker({ name, meteringLimit: 100_000_000 });
  try {
    await worker.start();
    await worker.evaluate(code);
    return await fn(worker);
  } finally {
    await worker.close();
  }
}

/** The last answer a bundle's handleCommand gives for an empty message, as text. */
const lastAnswer = async (worker) => new TextDecoder().decode((await worker.command(new Uint8Array(0))).reply);

/** Ours: one answer (to take its body), then the cost on one keep-alive connection and on a new one each time. */
const ours = async () => inWorker('anchor-ours', await bundleForXs(ROOT, 'tests/xs/xs-main.ts'), async (worker) => {
  await worker.command(encodeScript(FLAG_RESET, []));
  const bytes = [{ receive: latin1Bytes(REQUEST) }];
  const keep = await measure(worker, encodeScript(FLAG_KEEP, bytes), SAMPLES, WARMUP);
  const fresh = await measure(worker, encodeScript(0, bytes), SAMPLES, WARMUP);
  const answer = decodeEvents(keep.reply).filter((e) => e.type === 'write').map((e) => latin1String(e.bytes)).join('');
  return { keep, fresh, answer };
});

/** Our HTTP core alone, answering the same body (tools/xs-anchor/core-entry.ts). */
const core = async (body) => inWorker('anchor-core', await bundleForXs(ROOT, 'tools/xs-anchor/core-entry.ts'), async (worker) => {
  await worker.evaluate(`globalThis.anchorBody = ${JSON.stringify(body)}`);
  const request = latin1Bytes(' ' + REQUEST);
  request[0] = 0;
  const keep = await measure(worker, request, SAMPLES, WARMUP);
  request[0] = 1;
  const fresh = await measure(worker, request, SAMPLES, WARMUP);
  return { keep, fresh, answer: await lastAnswer(worker) };
});

/** The SDK's Server answering the same body. */
const sdk = async (body) => inWorker('anchor-sdk', await anchorBundle(), async (worker) => {
  await worker.evaluate(`globalThis.anchorBody = ${JSON.stringify(body)}`);
  const cost = await measure(worker, latin1Bytes(REQUEST), SAMPLES, WARMUP);
  return { cost, answer: await lastAnswer(worker) };
});

const pad = (s, n) => String(s).padStart(n);
const o = await ours();
const body = o.answer.slice(o.answer.indexOf('\r\n\r\n') + 4);
const s = await sdk(body);
const sdkBody = s.answer.slice(s.answer.indexOf('\r\n\r\n') + 4);
if (!s.answer.startsWith('HTTP/1.1 200 ') || sdkBody !== body) {
  console.error(`bench-xs-anchor: the SDK Server's answer differs from ours:\n${s.answer}\n---\n${o.answer}`);
  process.exit(1);
}
console.log(`\nanchor: GET system/0/serialnumber, the same ${body.length}-byte answer body, ${SAMPLES} samples after ${WARMUP} warm-up, medians`);
console.log(`${'server'.padEnd(58)} ${pad('computrons', 10)} ${pad('slots/req', 9)} ${pad('answer B', 8)}`);
const row = (name, c, answer) => console.log(`${name.padEnd(58)} ${pad(c.compute, 10)} ${pad(c.slots, 9)} ${pad(answer.length, 8)}`);
row('Moddable SDK http Server (new connection, closed after)', s.cost, s.answer);
const c = await core(body);
const coreBody = c.answer.slice(c.answer.indexOf('\r\n\r\n') + 4);
if (!c.answer.startsWith('HTTP/1.1 200 ') || coreBody !== body) {
  console.error(`bench-xs-anchor: the HTTP core's fixed answer differs from ours:\n${c.answer}`);
  process.exit(1);
}
row('this HTTP core, fixed answer, new connection per request', c.fresh, c.answer);
row('this HTTP core, fixed answer, one keep-alive connection', c.keep, c.answer);
row('this server (route, HAL, envelope), new connection', o.fresh, o.answer);
row('this server (route, HAL, envelope), one keep-alive connection', o.keep, o.answer);
