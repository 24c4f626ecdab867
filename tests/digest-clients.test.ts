// docs/security.md §Digest against real clients and a real simulator process (--token, --auth digest):
// curl --digest and Python requests' HTTPDigestAuth write; Bearer is refused; a request captured on
// the wire (curl's own) sent again is refused 401 stale=true and runs nothing; a wrong password is
// 401 and, ten times within a minute, locks the address out (429).
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { execFile } from 'node:child_process';
import { get, startSim, type SimProcess } from './sim-helpers';

const TOKEN = 'lab-s3cret';
const HB = '/api/v1/device/system/0/hbinterval';

function run(cmd: string, args: string[], input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { timeout: 20000 }, (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** One raw request on its own connection: the status line and head of the answer. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.end(text));
    let out = '';
    s.on('data', (d) => { out += d.toString('latin1'); });
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

const PYTHON = `
import sys, requests
from requests.auth import HTTPDigestAuth
url, password, value = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = requests.Session()
s.auth = HTTPDigestAuth("admin", password)
for v in (value, value + 1):  # the second PUT reuses the nonce with nc=00000002
    r = s.put(url, json={"value": v})
    print(r.status_code, r.headers.get("www-authenticate", ""))
`;

describe('HTTP Digest with real clients against the simulator (--auth digest)', function () {
  this.timeout(30000);
  let sim: SimProcess;
  let url: string;
  before(async () => {
    sim = await startSim(['--no-state', '--token', TOKEN, '--auth', 'digest']);
    url = `http://127.0.0.1:${sim.port}${HB}`;
  });
  after(async () => {
    await sim?.stop();
  });

  it('curl --digest writes; curl with Bearer and the right token is refused', async () => {
    const ok = await run('curl', ['-s', '-w', ' %{http_code}', '--digest', '-u', `admin:${TOKEN}`, '-X', 'PUT', '-d', '{"value": 21}', url]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /"response":\{"value":21,"rawValue":21\}\} 200$/);
    const bearer = await run('curl', ['-s', '-w', ' %{http_code}', '-H', `Authorization: Bearer ${TOKEN}`, '-X', 'PUT', '-d', '{"value": 22}', url]);
    assert.match(bearer.out, / 401$/);
    assert.equal((await get(sim.port, HB)).json.response.value, 21);
  });

  it('Python requests with HTTPDigestAuth writes, twice on one nonce', async () => {
    const r = await run('python3', ['-c', PYTHON, url, TOKEN, '31']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(r.out.trim().split('\n').map((l) => l.split(' ')[0]), ['200', '200'], r.out);
    assert.equal((await get(sim.port, HB)).json.response.value, 32);
  });

  it('a request captured from curl and sent again is refused 401 stale=true and runs nothing', async () => {
    const v = await run('curl', ['-s', '-v', '--digest', '-u', `admin:${TOKEN}`, '-X', 'PUT', '-d', '{"value": 41}', url]);
    const auth = /^> (Authorization: Digest .*)\r?$/m.exec(v.err)?.[1];
    assert.ok(auth, v.err);
    assert.equal((await get(sim.port, HB)).json.response.value, 41);
    const again = await raw(sim.port, `PUT ${HB} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"value": 42}`);
    assert.match(again, /^HTTP\/1\.1 401 /);
    assert.match(again, /WWW-Authenticate: Digest [^\r]*stale=true/);
    assert.equal((await get(sim.port, HB)).json.response.value, 41, 'the replay ran nothing');
  });

  it('a wrong password is 401 and counts: the eleventh attempt within a minute is 429', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--digest', '-u', 'admin:wrong', '-X', 'PUT', '-d', '{"value": 50}', url]);
      statuses.push(r.out);
    }
    assert.deepEqual(statuses, [...Array(10).fill('401'), '429']);
    assert.equal((await get(sim.port, HB)).json.response.value, 41);
  });
});
