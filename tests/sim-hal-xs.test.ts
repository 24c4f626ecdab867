// hal/sim under the real XS engine: one scenario (every GET route of every instance, sets, simulated
// time passing, save/reset) is bundled with esbuild, run in a Node vm and in xsnap-worker, and must
// produce the same transcript on both. Proves the simulator uses nothing XS lacks and is deterministic.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { build } from 'esbuild';
import { XsnapWorker } from './xs/xsnap-worker';

const ROOT = path.resolve(__dirname, '../..');

const SCENARIO = `
import { createSimModule, memoryStorage } from './hal/sim/index';
import { allRoutes } from './src/api/route/routes';
const clock = { t: Date.UTC(2024, 5, 30, 23, 59, 30) };
const storage = memoryStorage();
let m = createSimModule({ now: () => clock.t, storage, serialNumber: 0x0badcafe });
const out = [];
const show = (v) => (v instanceof Uint8Array ? 'b' + Array.from(v).join('.') : JSON.stringify(v));
const attempt = (f) => { try { return show(f()); } catch (e) { return 'E' + e.code + ':' + e.message; } };
function readAll() {
  for (const r of allRoutes()) {
    if (r.get === '-' || r.get === 'none') continue;
    const e = m.entities[r.entity];
    if (!e) continue;
    for (let i = 0; i < e.count; i++) {
      const p = r.params.map((x) => (x.max >= 0 ? x.max : e.limit(i, x.name) - 1));
      out.push(r.entity + '/' + i + '/' + r.op + '=' + attempt(() => e.get(i, r.op, p)));
    }
  }
}
readAll();
const E = m.entities;
out.push(attempt(() => E.rail.set(0, 'enable', [], true)));
out.push(attempt(() => E.usb.set(0, 'portdisable', [], 4)));
out.push(attempt(() => E.clock.set(0, 'day', [], 31)));
out.push(attempt(() => E.pointer.set(0, 'mode', [], 1)));
out.push(attempt(() => E.pointer.set(0, 'int', [], 0xdeadbeef)));
out.push(attempt(() => E.analog.run(2, 'bulkcapture', [])));
out.push(attempt(() => E.system.set(0, 'name', [], 'xs bench')));
out.push(attempt(() => E.system.run(0, 'save', [])));
clock.t += 3_723_456;
readAll();
out.push(attempt(() => E.system.run(0, 'reset', [])));
m.afterResponse();
m = createSimModule({ now: () => clock.t, storage, serialNumber: 0x0badcafe });
readAll();
globalThis.transcript = out.join('\\n');
`;

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: SCENARIO, resolveDir: ROOT, loader: 'ts', sourcefile: 'sim-scenario.ts' },
    bundle: true, format: 'iife', platform: 'neutral', target: 'es2022', write: false, logLevel: 'silent',
    absWorkingDir: ROOT, tsconfig: path.join(ROOT, 'tsconfig.json'),
  });
  return result.outputFiles[0].text;
}

describe('sim HAL under XS', function () {
  this.timeout(60_000);
  let worker: XsnapWorker | undefined;
  after(async () => { await worker?.close(); });

  it('runs the scenario with the same transcript as Node', async () => {
    const code = await bundle();
    const sandbox: { transcript?: string } = {};
    vm.runInNewContext(code, sandbox);
    const transcript = sandbox.transcript ?? '';
    assert.ok(transcript.split('\n').length > 900, 'scenario ran');
    assert.match(transcript, /E7:day 31 does not exist in 2024-06 \(1..30\); set month \(and year\) first/);
    assert.match(transcript, /clock\/0\/month=7/); // an hour later it is July
    assert.match(transcript, /system\/0\/name="xs bench"/);
    worker = new XsnapWorker({ name: 'sim-hal', stdio: 'ignore' });
    await worker.start();
    // XS compares its own transcript and throws (failing evaluate) on the first differing line.
    await worker.evaluate(`${code}
      const want = ${JSON.stringify(transcript)}.split('\\n');
      const got = globalThis.transcript.split('\\n');
      for (let k = 0; k < Math.max(want.length, got.length); k++) {
        if (want[k] !== got[k]) throw new Error('line ' + k + ': node ' + want[k] + ' / xs ' + got[k]);
      }`);
  });
});
