// The host server when modules fail or misbehave (real processes on loopback): a module killed and
// restarted, one that accepts but never answers, two with one serial, a full queue, a module that
// answers garbage, not HTTP, or far too much; and its own command-line errors.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { exchange, json, startHost, startSimAt, within, HOST_MAIN, type Proc } from './host-helpers';

const listed = async (host: Proc, serial: string): Promise<any> =>
  json(await exchange(host.port, 'GET', '/api/v1/device')).response.filter((m: any) => m.serialNumber === serial);

/** A fake module: answers the device list as a module would, and every other request with `answer`. */
function fakeModule(serial: string, answer: (socket: net.Socket) => void): Promise<{ port: number; close: () => void }> {
  const list = `{"timestamp":"2026-01-01T00:00:00.000Z","request":{"endpointName":"/api/v1/device","parameters":{}},"response":[{"serialNumber":"${serial}","model":4,"module":2}]}`;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => s.destroy());
    let head = '';
    s.on('data', (d) => {
      head += d.toString('latin1');
      while (head.includes('\r\n\r\n')) {
        const req = head.slice(0, head.indexOf('\r\n\r\n'));
        head = head.slice(head.indexOf('\r\n\r\n') + 4);
        if (req.startsWith('GET /api/v1/device HTTP')) {
          s.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${list.length}\r\n\r\n${list}`);
        } else {
          answer(s);
        }
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: (server.address() as net.AddressInfo).port,
    close: () => { server.close(); for (const s of sockets) s.destroy(); },
  })));
}

describe('host server: faults', function () {
  this.timeout(30000);

  it('lists a killed module online:false within 5 s, answers 502 at once, and takes it back when restarted', async () => {
    const [a, b] = await Promise.all([startSimAt('0xB0000001'), startSimAt('0xB0000002')]);
    const host = await startHost(['--module', `http://127.0.0.1:${a.port}`, '--module', `http://127.0.0.1:${b.port}`]);
    let again: Proc | undefined;
    try {
      await within(3000, async () => (await listed(host, '0xB0000001'))[0]?.online === true, 'module online');
      await a.stop();
      const took = await within(5000, async () => (await listed(host, '0xB0000001'))[0]?.online === false, 'killed module offline');
      assert.ok(took <= 5000);
      const r = await exchange(host.port, 'GET', '/api/v1/device/0xB0000001/system/0/model');
      assert.equal(r.status, 502);
      assert.equal(json(r).response.error, 'aErrConnection');
      assert.ok(r.ms < 500, `502 took ${r.ms} ms`);
      assert.equal((await exchange(host.port, 'GET', '/api/v1/device/0xB0000002/system/0/model')).status, 200);
      again = await startSimAt('0xB0000001', [], a.port);
      await within(5000, async () => (await exchange(host.port, 'GET', '/api/v1/device/0xB0000001/system/0/model')).status === 200, 'restarted module answers');
      assert.equal((await listed(host, '0xB0000001'))[0].online, true);
    } finally {
      await Promise.all([host.stop(), a.stop(), b.stop(), again?.stop()]);
    }
  });

  it('answers 504 within 5 s for a module that accepts but never answers, holding up nobody else; 503 + Retry-After when its queue is full', async () => {
    const [a, b] = await Promise.all([startSimAt('0xC0000001'), startSimAt('0xC0000002')]);
    const host = await startHost(['--module', `http://127.0.0.1:${a.port}`, '--module', `http://127.0.0.1:${b.port}`,
      '--module-connections', '2', '--queue', '2']);
    try {
      await within(3000, async () => (await listed(host, '0xC0000001'))[0]?.online === true, 'module online');
      a.child.kill('SIGSTOP'); // the kernel still accepts its connections; nothing answers
      const p = '/api/v1/device/0xC0000001/system/0/model';
      // One request on its one connection, two waiting: the queue is full.
      const hung = [exchange(host.port, 'GET', p), exchange(host.port, 'GET', p), exchange(host.port, 'GET', p)];
      await new Promise((r) => setTimeout(r, 200));
      const full = await exchange(host.port, 'GET', p);
      assert.equal(full.status, 503);
      assert.equal(json(full).response.error, 'aErrResource');
      assert.match(String(full.headers['retry-after']), /^\d+$/);
      const other = await exchange(host.port, 'GET', '/api/v1/device/0xC0000002/system/0/model');
      assert.equal(other.status, 200);
      assert.ok(other.ms < 1000, `the other module took ${other.ms} ms`);
      for (const r of await Promise.all(hung)) {
        assert.equal(r.status, 504);
        assert.equal(json(r).response.error, 'aErrTimeout');
        assert.ok(r.ms <= 5600, `504 after ${r.ms} ms`);
      }
    } finally {
      a.child.kill('SIGCONT');
      await Promise.all([host.stop(), a.stop(), b.stop()]);
    }
  });

  it('answers 409 aErrDuplicate for a serial two modules answer for, listing both', async () => {
    const [a, b] = await Promise.all([startSimAt('0xD0000001'), startSimAt('0xD0000001')]);
    const host = await startHost(['--module', `http://127.0.0.1:${a.port}`, '--module', `http://127.0.0.1:${b.port}`]);
    try {
      await within(3000, async () => (await listed(host, '0xD0000001')).filter((m: any) => m.online).length === 2, 'both listed online');
      const r = await exchange(host.port, 'GET', '/api/v1/device/0xD0000001/system/0/model');
      assert.equal(r.status, 409);
      assert.equal(json(r).response.error, 'aErrDuplicate');
      assert.match(json(r).response.message, new RegExp(`${a.port}.*${b.port}|${b.port}.*${a.port}`));
    } finally {
      await Promise.all([host.stop(), a.stop(), b.stop()]);
    }
  });

  it('answers a clear 502 for garbage, non-HTTP and oversized answers, and stays healthy', async () => {
    const fakes = await Promise.all([
      fakeModule('0xE0000001', (s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: nonsense\r\n\r\n{}')),
      fakeModule('0xE0000002', (s) => s.end('SSH-2.0-OpenSSH_9.2\r\n')),
      fakeModule('0xE0000003', (s) => {
        s.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${4 << 20}\r\n\r\n`);
        const mb = Buffer.alloc(1 << 20, 0x20);
        for (let i = 0; i < 4; i++) s.write(mb);
      }),
    ]);
    const sim = await startSimAt('0xE0000004');
    const host = await startHost([...fakes.map((f) => ['--module', `http://127.0.0.1:${f.port}`]).flat(), '--module', `http://127.0.0.1:${sim.port}`]);
    try {
      await within(3000, async () => (await exchange(host.port, 'GET', '/api/v1/targets')).body.toString().split('targets').length - 1 === 4, 'all listed');
      const expect = [/not HTTP/, /not HTTP|cannot be reached/, /larger than/];
      for (let i = 0; i < 3; i++) {
        const r = await exchange(host.port, 'GET', `/api/v1/device/0xE000000${i + 1}/system/0/model`);
        assert.equal(r.status, 502, `fake ${i + 1}: ${r.body}`);
        assert.equal(json(r).response.error, 'aErrConnection');
        assert.match(json(r).response.message, expect[i]);
      }
      assert.equal((await exchange(host.port, 'GET', '/api/v1/device/0xE0000004/system/0/model')).status, 200);
      assert.equal((await exchange(host.port, 'GET', '/api/v1/device')).status, 200);
    } finally {
      for (const f of fakes) f.close();
      await Promise.all([host.stop(), sim.stop()]);
    }
  });

  it('reports command-line errors on one line with exit status 2', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as net.AddressInfo).port;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-cli-'));
    const bad = path.join(dir, 'bad');
    fs.writeFileSync(bad, '0x1234ABCD s3cret-token\nnot a line at-all\n');
    const good = path.join(dir, 'good');
    fs.writeFileSync(good, '* s3cret-token\n');
    const cases: [string[], RegExp][] = [
      [['--tokens', bad], /^error: --tokens \S+: line 2 is not 'SERIAL TOKEN'/],
      [['--tokens', good, '--host', '0.0.0.0'], /^error: --tokens on 0\.0\.0\.0 without --token would let anyone/],
      [['--port', String(port), '--no-discovery'], /^error: port \d+ is busy: pick another with --port N, or --port 0 for any free one\n$/],
      [['--module', 'ftp://x'], /^error: --module takes http:\/\/ADDR\[:PORT\]/],
      [['--bogus'], /^error: Unknown option '--bogus'/],
      [['--tokens', '/nonexistent/tokens'], /^error: --tokens \/nonexistent\/tokens: no such file/],
    ];
    try {
      for (const [args, re] of cases) {
        const r = spawnSync(process.execPath, [HOST_MAIN, ...args], { encoding: 'utf8', timeout: 10000 });
        assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, re);
        assert.equal(r.stderr.trim().split('\n').length, 1);
        assert.ok(!r.stderr.includes('s3cret'), 'a token is never shown');
      }
    } finally {
      busy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
