// The device code under the real XS engine (xsnap): the device HAL with the lin stand-ins for its io,
// the Api and the device server on the fake ECMA-419 sockets (tests/fakes, bundled by esbuild through
// tsconfig.json's paths) answer a walk of every route, each published bound at and just outside it,
// exactly as they do under Node and as published; the op tables and prototypes are frozen; and one device
// module, as a boot makes it, retains a bounded number of XS slots (its tables and methods are
// module-level data that preloading puts in flash).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { XsnapWorker } from './xs/xsnap-worker';
import { FULL_BOARD } from './fakes/world';
import { dechunk } from './helpers';

const ROOT = path.resolve(__dirname, '../..');

/** Slots a device module for the ESP32 DevKitC profile may retain (measured: 359; 387 with a Uint8Array for each byte setting's factory value). */
const MODULE_SLOTS_MAX = 375;

const ESP32_BOARD = {
  name: 'ESP32-DevKitC', model: 5, hardwareVersion: 1, moduleAddress: 2, digital: [4, 5, 18, 19, 21, 22, 23, 25],
  analog: [32, 33, 34, 35], analogFullScale: 3100000, servo: [26, 27], signal: [13, 14],
  uart: [{ port: 2, transmit: 17, receive: 16 }], led: 2, storeSlots: 0, slotCapacity: 0,
};

const SCENARIO = `
import { net } from './tests/fakes/net';
import platform from './tests/fakes/platform';
import Preference from './tests/fakes/preference';
import { readBoard } from './hal/device/board';
import { DeviceModule } from './hal/device/module';
import { DeviceEntity } from './hal/device/entity';
import { Api } from './src/api/api';
import { allRoutes } from './src/api/route/routes';
import { describeDevice } from './src/api/resources/describe';
import { DeviceServer } from './src/device/server';
import { standardTextCodec } from './util/text';

globalThis.trace = () => {};
Date.now = () => 1735787045678;
const device = (raw) => new DeviceModule({ board: readBoard(raw), platform, preferences: Preference, firmware: { version: 1, build: 2 }, serial: 0x1234abcd,
  httpPort: 8080, onReset: (restart) => server.restartAfterFlush(restart) });
const m = device(${JSON.stringify(FULL_BOARD)});
const codec = standardTextCodec();
const server = new DeviceServer(new Api([m], { codec }), { codec, port: 8080, maxConnections: 4 });
const client = net.connect(8080, 1 << 20);
const out = [];
const send = (request, want) => {
  client.received = '';
  client.send(request);
  net.run();
  const status = client.received.slice(9, 12);
  const body = client.received.slice(client.received.indexOf('\\r\\n\\r\\n') + 4);
  const verdict = want === undefined ? '' : status === want ? ' ok' : ' WRONG (want ' + want + ')';
  out.push(request.split(' ')[0] + ' ' + request.split(' ')[1] + ' -> ' + status + verdict + ' ' + body.replace(/"timestamp":"[^"]*",/, ''));
};
const head = (method, p, body) => method + ' ' + p + ' HTTP/1.1\\r\\nHost: localhost\\r\\n' + (body ? 'Content-Length: ' + body.length + '\\r\\n' : '') + '\\r\\n' + (body ?? '');
/** State an at-bound value needs first (tests/device-limits.test.ts has the same). */
const PREPARE = { 'signal/t3time': [['enable', 1], ['t2time', 0]], 'signal/t2time': [['t3time', 500000000]],
  'digital/state': [['configuration', 1]], 'digital/value': [['configuration', 1]] };
/** [value, status wanted] for each published bound and just outside it. */
function probes(l) {
  if (l.readOnly) return [[0, '501']];
  if (l.values) {
    const out = l.values.map((v) => [v, '200']);
    for (const v of l.values) for (const n of [v - 1, v + 1]) if (n >= 0 && !l.values.includes(n) && !out.some((o) => o[0] === n)) out.push([n, '400']);
    return out;
  }
  const out = [[l.min, '200'], [l.max, '200'], [l.max + 1, '400']];
  if (l.min > 0) out.push([l.min - 1, '400']);
  return out;
}
for (const r of allRoutes()) {
  const e = m.entities[r.entity];
  if (!e || r.get === 'none') continue;
  for (let i = 0; i < e.count; i++) {
    const p = ['/api/v1/device', r.entity, i, r.op, ...r.params.map((x) => Math.max(0, x.min))].join('/');
    if (r.get !== '-') send(head('GET', p));
    const l = e.limits(r.op);
    if (r.put === '-' || r.put === 'BYTES' || !l) continue;
    for (const [op, v] of PREPARE[r.entity + '/' + r.op] ?? []) send(head('PUT', '/api/v1/device/' + r.entity + '/' + i + '/' + op, JSON.stringify({ value: v })), '200');
    for (const [v, want] of probes(l)) {
      if (r.put === 'BOOL' && v > 1) continue;
      send(head('PUT', p, JSON.stringify({ value: r.put === 'BOOL' ? v === 1 : v })), want);
    }
  }
}
// The description through a one-segment window: streamed at each onWritable, then the next answer.
const narrow = net.connect(8080, 1460);
narrow.send(head('GET', '/api/v1/device/0x1234ABCD') + head('GET', '/api/v1/device/system/0/serialnumber'));
net.run();
const pieces = [];
describeDevice(m, (p) => { pieces.push(p); });
out.push('description ' + JSON.stringify(narrow.received));
out.push('expected ' + JSON.stringify(pieces.join('')));
const frozen = [DeviceEntity.prototype, Object.getPrototypeOf(m.entities.signal), Object.getPrototypeOf(m), m.entities.system.ops,
  m.entities.system.ops.modulesoftwareoffset.limits.values].every((o) => Object.isFrozen(o));
out.push('frozen ' + frozen);
globalThis.transcript = out.join('\\n');
globalThis.make = () => { globalThis.kept = device(${JSON.stringify(ESP32_BOARD)}); };
`;

/** The io the lin build maps to its stand-ins (manifest.json) gets them here too; serial stays a fake. */
const LIN_STANDINS: Plugin = {
  name: 'lin-standins',
  setup(b) {
    b.onResolve({ filter: /^embedded:io\/(digital|analog|pwm)$/ }, (args) => ({
      path: path.join(ROOT, 'hal', 'device', 'standin', args.path.slice('embedded:io/'.length) + '.ts'),
    }));
  },
};

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: SCENARIO, resolveDir: ROOT, loader: 'ts', sourcefile: 'device-scenario.ts' },
    bundle: true, format: 'iife', platform: 'neutral', target: 'es2022', write: false, logLevel: 'silent',
    absWorkingDir: ROOT, tsconfig: path.join(ROOT, 'tsconfig.json'),
    plugins: [LIN_STANDINS],
  });
  return result.outputFiles[0].text;
}

/** The streamed description in the transcript: chunked, the expected JSON, then the pipelined answer. */
function checkDescription(transcript: string): void {
  const line = (name: string): string => JSON.parse(transcript.split('\n').find((l) => l.startsWith(name + ' '))!.slice(name.length + 1)) as string;
  const received = Buffer.from(line('description'), 'latin1');
  const end = received.indexOf('\r\n\r\n') + 4;
  assert.match(received.subarray(0, end).toString('latin1'), /^HTTP\/1\.1 200 OK\r\n[^]*Transfer-Encoding: chunked\r\n/);
  const d = dechunk(received.subarray(end));
  const body = JSON.parse(Buffer.from(d.body).toString('utf8')) as { response: unknown };
  assert.deepEqual(body.response, JSON.parse(line('expected')));
  assert.ok(Math.max(...d.sizes) < 1536, `largest chunk ${Math.max(...d.sizes)}`);
  const next = received.subarray(end + d.used).toString('latin1');
  assert.match(next, /^HTTP\/1\.1 200 OK\r\n[^]*"value":305441741/);
}

describe('device code under XS', function () {
  this.timeout(60_000);
  let worker: XsnapWorker | undefined;
  let code = '';
  before(async () => {
    code = await bundle();
    worker = new XsnapWorker({ name: 'device', stdio: 'ignore' });
    await worker.start();
    await worker.evaluate(code);
  });
  after(async () => { await worker?.close(); });

  it('answers a walk of every route as it does under Node', async () => {
    const sandbox: { transcript?: string } = {};
    vm.createContext(sandbox);
    Object.assign(sandbox, { TextEncoder, TextDecoder });
    vm.runInContext(code, sandbox);
    const transcript = sandbox.transcript ?? '';
    assert.ok(transcript.split('\n').length > 150, 'scenario ran');
    assert.match(transcript, /PUT \/api\/v1\/device\/signal\/0\/t3time -> 400 ok .*aErrRange/);
    assert.doesNotMatch(transcript, /WRONG/);
    assert.match(transcript, /GET \/api\/v1\/device\/analog\/0\/value -> 200 .*"value":27782,/); // the lin stand-in's wave
    assert.ok((transcript.match(/ ok /g) ?? []).length > 300, 'bounds checked');
    assert.match(transcript, /frozen true$/);
    checkDescription(transcript);
    await worker!.evaluate(`
      const want = ${JSON.stringify(transcript)}.split('\\n');
      const got = globalThis.transcript.split('\\n');
      for (let k = 0; k < Math.max(want.length, got.length); k++) {
        if (want[k] !== got[k]) throw new Error('line ' + k + ': node ' + want[k] + ' / xs ' + got[k]);
      }`);
  });

  it(`retains under ${MODULE_SLOTS_MAX} slots for a device module of the ESP32 board`, async () => {
    await worker!.evaluate('gc()');
    const before = (await worker!.evaluate('')).meter.currentHeapCount;
    await worker!.evaluate('make(); gc()');
    const after = (await worker!.evaluate('')).meter.currentHeapCount;
    assert.ok(after - before < MODULE_SLOTS_MAX, `${after - before} slots`);
  });
});
