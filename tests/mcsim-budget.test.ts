// The device build in three quarters of the ESP32's XS heap (1,536 slots, 24 KB of chunks, fixed:
// budget/three-quarters/), built in an empty folder, under the Moddable simulator (mcsim) with a lab's
// mixed load at once: clients that open a connection per request (GET + PUT pairs, over the
// connection cap), keep-alive clients, an event stream held open, /metrics scraped and the device
// description read over and over (tools/mcsim-churn-load.mjs --mixed). The build has a token, and every
// write carries it as HTTP Digest: a module with a token holds more (its Digest state, a challenge per
// 401) than one without. A fixed heap aborts ("# Slot allocation: failed in fixed size heap") the
// moment the module needs more than it has. Needs the
// Moddable SDK's tools on PATH, root (mcsim runs in a network namespace of its own) and Xvfb; skips
// without them.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const LOAD_SECONDS = 40;
const TOKEN = 'lab-secret';

function missingTools(): string | undefined {
  const tools = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'moddable-tools'], { cwd: ROOT, encoding: 'utf8' });
  if (tools.status !== 0) return tools.stderr.trim().split('\n')[0] || 'the Moddable SDK tools are missing';
  if (spawnSync('sh', ['-c', 'command -v mcsim && command -v Xvfb && command -v unshare'], { encoding: 'utf8' }).status !== 0) return 'no mcsim, Xvfb or unshare on PATH';
  if (process.getuid?.() !== 0) return 'not root (mcsim runs in a network namespace of its own)';
  return undefined;
}

describe('the device build in three quarters of its heap, under a lab\'s mixed load (mcsim)', function () {
  this.timeout(30 * 60 * 1000);
  let out = '';

  before(function () {
    const why = missingTools();
    if (why) {
      console.log(`      skipped: ${why}`);
      this.skip();
    }
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-3q-'));
  });
  after(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it(`with a token, answers churn with Digest writes, keep-alive clients, an event stream, scrapes and descriptions at once for ${LOAD_SECONDS} s, and after`, () => {
    const build = spawnSync('make', ['-s', 'device-budget-3q', `DEVICE_BUILD_DIR=${out}`, `MCCONFIG_ARGS=token=${TOKEN}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(build.status, 0, build.stderr.slice(-2000));
    const app = path.join(out, 'bin/lin/mc/release/brainstem-rest-budget-3q/mc.so');
    const run = spawnSync('node', ['tools/mcsim-run.mjs', '--app', app, '--', 'node', 'tools/mcsim-churn-load.mjs', '--mixed', '--seconds', String(LOAD_SECONDS), '--token', TOKEN],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const report = `${run.stdout}\n${run.stderr}`;
    assert.doesNotMatch(report, /fixed size heap|memory full/, report);
    assert.match(report, /afterwards: 200, the module answers/, report);
    for (const kind of ['GET system/0/uptime', 'GET /metrics', 'GET the description', 'PUT system/0/hbinterval', 'GET over keep-alive']) {
      const line = report.split('\n').find((l) => l.trim().startsWith(`${kind}:`)) ?? '';
      assert.doesNotMatch(line, /no answer/, line);
      const ok = /(\d+) x 200/.exec(line);
      assert.ok(ok && Number(ok[1]) >= LOAD_SECONDS, `${kind}: ${line}`);
    }
    assert.match(report, /events received: [1-9]\d*/, report);
    assert.equal(run.status, 0, report);
  });
});
