// A module that wants its token for reads too (--token-reads) behind the host server, real processes on
// loopback: with the token in the --tokens file it comes online and its reads are forwarded.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exchange, json, startHost, startSimAt, within, type Proc } from './host-helpers';

const SECRET = 'reads-token-4d2';

describe('host server: a module that wants its token for reads', function () {
  this.timeout(20000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-reads-'));
  let sim: Proc;
  let host: Proc | undefined;

  before(async () => {
    sim = await startSimAt('0x30000201', ['--token', SECRET, '--token-reads']);
  });

  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });

  after(async () => {
    await sim?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('comes online with the * token of --tokens, and its reads are forwarded with it', async () => {
    const tokens = path.join(dir, 'star');
    fs.writeFileSync(tokens, `* ${SECRET}\n`);
    host = await startHost(['--module', `http://127.0.0.1:${sim.port}`, '--tokens', tokens]);
    await within(5000, async () => json(await exchange(host!.port, 'GET', '/api/v1/device')).response.some((m: any) => m.online), 'online');
    const r = await exchange(host.port, 'GET', '/api/v1/device/0x30000201/system/0/serialnumber');
    assert.equal(r.status, 200);
    assert.equal(json(r).response.value, 0x30000201);
    assert.ok(!r.body.toString().includes(SECRET));
  });
});
