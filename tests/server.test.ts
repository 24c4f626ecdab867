// Socket-level tests against the real host-sim TCP server (and its command line).
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import * as http from 'node:http';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { splitResponses } from './helpers';

/** Send raw bytes, collect everything until the server closes or `ms` pass. */
function rawRequest(port: number, data: string | Buffer, ms = 1500): Promise<{ out: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => { socket.destroy(); }, ms);
    socket.on('connect', () => socket.write(data));
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', () => { closedByServer = true; });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ out: Buffer.concat(chunks).toString('utf8'), closedByServer });
    });
  });
}

function get(port: number, urlPath: string, agent: http.Agent): Promise<{ status: number; json: any; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), socket: req.socket! }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('host-sim server (sockets)', () => {
  let server: SimServer;
  before(async () => {
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 8 });
  });
  after(async () => { await server.close(); });

  it('serves keep-alive requests on one socket with a node:http client', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const a = await get(server.port, '/api/v1/device/system/0/serialnumber', agent);
    const b = await get(server.port, '/api/v1/device/system/0/hbinterval', agent);
    assert.equal(a.status, 200);
    assert.equal(a.json.response.value, 0x1234abcd);
    assert.equal(b.status, 200);
    assert.equal(a.socket, b.socket);
    agent.destroy();
  });

  it('answers pipelined requests in order over one socket, and closes on Connection: close', async () => {
    const req = (p: string, extra = ''): string => `GET /api/v1/device/${p} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
    const { out, closedByServer } = await rawRequest(server.port,
      req('system/0/serialnumber') + req('system/0/hbinterval') + req('nosuch/0/x') + req('system/0/model', 'Connection: close\r\n'));
    const r = splitResponses(out);
    assert.deepEqual(r.map((x) => x.status), [200, 200, 404, 200]);
    assert.equal(closedByServer, true);
  });

  it('reads a chunked PUT split across TCP segments', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let out = '';
    socket.on('data', (d) => { out += d.toString(); });
    const parts = ['PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n', '4\r\n{"va', '\r\n8\r\nlue":42}\r\n', '0\r\n\r\n'];
    for (const p of parts) {
      socket.write(p);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    const [res] = splitResponses(out);
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.body).response.value, 42);
  });

  it('answers a malformed request with 400 and closes, and stays healthy for the next client', async () => {
    const bad = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: y\r\n\r\n');
    assert.match(bad.out, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.equal(bad.closedByServer, true);
    const agent = new http.Agent({ keepAlive: false });
    assert.equal((await get(server.port, '/api/v1/device/system/0/serialnumber', agent)).status, 200);
  });

  it('refuses connections beyond the cap with 503 + Retry-After while every slot is a young partial request', async () => {
    const held: net.Socket[] = [];
    for (let i = 0; i < 8; i++) {
      const s = net.connect(server.port, '127.0.0.1');
      await new Promise((r) => s.once('connect', r));
      held.push(s);
    }
    await new Promise((r) => setTimeout(r, 50));
    const refused = await rawRequest(server.port, '');
    assert.match(refused.out, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(refused.out, /aErrResource/);
    assert.match(refused.out, /\r\nRetry-After: 1\r\n/);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const agent = new http.Agent({ keepAlive: false });
    assert.equal((await get(server.port, '/api/v1/device/system/0/serialnumber', agent)).status, 200);
  });
});

describe('host-sim command line', () => {
  it('starts, prints where it listens, and answers', async function () {
    this.timeout(10000);
    const main = path.resolve(__dirname, '../host-sim/main.js');
    const child = spawn(process.execPath, [main, '--port', '0', '--serial', '0xCAFE0001'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (d) => {
          text += d;
          const m = /127\.0\.0\.1:(\d+)/.exec(text);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const agent = new http.Agent({ keepAlive: false });
      const a = await get(port, '/api/v1/device/system/0/serialnumber', agent);
      assert.equal(a.json.response.value, 0xcafe0001);
    } finally {
      child.kill();
    }
  });

  it('refuses a bad option with a usage message and exit code 2', async () => {
    const main = path.resolve(__dirname, '../host-sim/main.js');
    const child = spawn(process.execPath, [main, '--port', 'abc'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => { err += d; });
    const code = await new Promise((r) => child.on('exit', r));
    assert.equal(code, 2);
    assert.match(err, /--port must be an integer/);
  });
});
