// The client examples of docs/clients.md (examples/) run as written against a real simulator process.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { startSim, type SimProcess } from './sim-helpers';
import { PYTHON } from './python';

const EXAMPLES = path.resolve(__dirname, '../../examples');

function run(cmd: string, args: string[], device: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: { ...process.env, DEVICE: device }, timeout: 20000 }, (e, out, err) => {
      resolve({ code: e ? Number(e.code ?? 1) : 0, out, err });
    });
  });
}

/** What the Python and JavaScript clients print (their formatting of the same answers). */
function checkClientOutput(out: string): void {
  const lines = out.trim().split('\n');
  assert.equal(lines[0], 'serial number: 305441741');
  assert.equal(lines[1], 'hbinterval: 20');
  assert.equal(lines[2], 'refused: 400 aErrRange: hbinterval: 0 is out of range 1..255');
  assert.equal(lines.length, 6, out);
  for (const l of lines.slice(3)) assert.match(l, /^event: rail\/0\/voltage=\d+ rail\/0\/current=\d+$/);
}

/** What each client printed, by file name: the docs say Python and JavaScript print the same. */
const printed = new Map<string, string>();

describe('client examples (examples/)', function () {
  this.timeout(30000);
  let sim: SimProcess;
  let device: string;
  before(async () => {
    sim = await startSim(['--no-state']);
    device = `http://127.0.0.1:${sim.port}`;
  });
  after(async () => {
    await sim.stop();
  });

  it('curl.sh: a read, a write, an error (400 aErrRange) and at least three events', async () => {
    const r = await run('sh', [path.join(EXAMPLES, 'curl.sh')], device);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    assert.equal(JSON.parse(lines[0]).response.value, 305441741);
    assert.deepEqual(JSON.parse(lines[1]).response, { value: 20, rawValue: 20 });
    assert.match(lines[2], /"error":"aErrRange".* \(HTTP 400\)$/);
    assert.equal(lines[3], 'retry: 2000');
    const events = lines.filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    assert.ok(events.length >= 3, r.out);
    for (const e of events) assert.deepEqual(Object.keys(e.values), ['rail/0/voltage', 'rail/0/current']);
  });

  it('client.mjs (fetch and EventSource)', async () => {
    const r = await run(process.execPath, [path.join(EXAMPLES, 'client.mjs')], device);
    assert.equal(r.code, 0, r.err);
    checkClientOutput(r.out);
    printed.set('client.mjs', r.out);
  });

  it('client.py (requests)', async () => {
    const r = await run(PYTHON, [path.join(EXAMPLES, 'client.py')], device);
    assert.equal(r.code, 0, r.err);
    checkClientOutput(r.out);
    // Rail 0 is off in both runs (0 µV, 0 µA): the same answers, so the same lines.
    assert.equal(r.out, printed.get('client.mjs'), 'client.py prints what client.mjs printed');
  });
});

describe('client examples with a token, sent as HTTP Digest (examples/token*)', function () {
  this.timeout(30000);
  let sim: SimProcess;
  let device: string;
  before(async () => {
    sim = await startSim(['--no-state', '--token', 'lab-secret', '--auth', 'digest']);
    device = `http://127.0.0.1:${sim.port}`;
  });
  after(async () => {
    await sim.stop();
  });

  it('token.sh: curl --digest writes; a wrong token is 401', async () => {
    const r = await run('sh', [path.join(EXAMPLES, 'token.sh')], device);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.deepEqual(JSON.parse(lines[0]).response, { value: 20, rawValue: 20 });
    assert.equal(lines[1], 'wrong token: HTTP 401');
  });

  for (const [file, cmd] of [['token-client.mjs', process.execPath], ['token-client.py', PYTHON]]) {
    it(`${file}: two writes, the second on the same nonce`, async () => {
      const r = await run(cmd, [path.join(EXAMPLES, file)], device);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, 'hbinterval: 20\nhbinterval: 21\n');
    });
  }
});
