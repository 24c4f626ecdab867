// GET /api/v1/device/{serial} is streamed, never built whole: HTTP/1.1 gets it chunked, one chunk per
// few operations, made only while the transport has room (on each drain); HTTP/1.0 gets it close-delimited.
// De-chunked it is byte for byte the envelope the description always had. Keep-alive and pipelining
// go on after it, HEAD sends the head alone, errors before the first byte are ordinary answers, and
// the largest single write stays under WRITE_MAX on the simulator's `everything` profile and on the
// device board (the device server on fake sockets too).
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { Api } from '../src/api/api';
import { Connection, type Transport } from '../src/http/connection';
import { STREAM_LOW_WATER } from '../src/http/streamed-body';
import { envelope, TimestampClock } from '../src/api/values/envelope';
import { createSimModule } from '../hal/sim/index';
import type { ModuleHal } from '../hal/types';
import { startSimServer } from './sim-server';
import { freshWorld, makeModule, net, platform, serve } from './fakes/world';
import { dechunk, SERIAL, wholeDescription } from './helpers';

const NOW = 1735787045678;
const PATH = '/api/v1/device/0x1234ABCD';
/** The largest single write the description may make: a piece (PIECE_TARGET) plus one operation (≤ 526 bytes). */
const WRITE_MAX = 1536;
const CRLF = '\r\n';
const req = (method: string, path = PATH, version = '1.1', extra = ''): string =>
  `${method} ${path} HTTP/${version}${CRLF}Host: 127.0.0.1${CRLF}${extra}${CRLF}`;
const normalise = (s: string): string => s.replace(/"timestamp":"[^"]*"/g, '"timestamp":"T"');

/** The description's envelope as it was made whole before streaming (the reference bytes). */
function expected(m: ModuleHal): string {
  return envelope(new TimestampClock().format(m.now()), PATH, '{}', wholeDescription(m));
}

/** A transport whose peer takes bytes only when told (take()): backlog() is what it has not taken. */
class PacedTransport implements Transport {
  readonly writes: Uint8Array[] = [];
  queued = 0;
  maxQueued = 0;
  closed = false;
  conn: Connection | null = null;
  constructor(private readonly paced: boolean) {}
  write(bytes: Uint8Array): void {
    this.writes.push(bytes.slice());
    this.queued += bytes.length;
    this.maxQueued = Math.max(this.maxQueued, this.queued);
  }
  close(): void { this.closed = true; }
  backlog(): number { return this.paced ? this.queued : 0; }
  /** The peer reads everything: the connection hears of the drain. */
  take(): void { this.queued = 0; this.conn!.drained(); }
  bytes(): Buffer { return Buffer.concat(this.writes); }
  get largest(): number { return Math.max(...this.writes.map((w) => w.length)); }
}

function connect(m: ModuleHal, paced: boolean, now = (): number => NOW): { t: PacedTransport; c: Connection } {
  const t = new PacedTransport(paced);
  t.conn = new Connection(new Api([m]), t, { now, idleTimeoutMs: 30000 });
  return { t, c: t.conn };
}

/** The answers in `bytes`, framed by Content-Length, chunked coding, or the close (HTTP/1.0). */
function answers(bytes: Uint8Array, methods: string[]): { status: number; head: string; body: string; sizes: number[] }[] {
  const out = [];
  let at = 0;
  for (const method of methods) {
    const end = Buffer.from(bytes.subarray(at)).indexOf('\r\n\r\n');
    assert.ok(end >= 0, `answer ${out.length + 1} missing`);
    const head = Buffer.from(bytes.subarray(at, at + end)).toString('latin1');
    at += end + 4;
    let body: Uint8Array = new Uint8Array(0);
    let sizes: number[] = [];
    const length = /content-length: (\d+)/i.exec(head);
    if (method === 'HEAD') { /* no body whatever the head says */ } else if (/transfer-encoding: chunked/i.test(head)) {
      const d = dechunk(bytes.subarray(at));
      body = d.body; sizes = d.sizes; at += d.used;
    } else if (length) {
      body = bytes.subarray(at, at + Number(length[1])); at += body.length;
    } else {
      body = bytes.subarray(at); at = bytes.length; // close-delimited
    }
    out.push({ status: Number(head.slice(9, 12)), head, body: Buffer.from(body).toString('utf8'), sizes });
  }
  assert.equal(at, bytes.length, 'bytes after the last answer');
  return out;
}

describe('the device description is streamed', () => {
  const sim = (): ModuleHal => createSimModule({ serialNumber: SERIAL, now: () => NOW });

  it('HTTP/1.1: chunked, one chunk per entity, de-chunked byte-identical to the whole envelope', () => {
    const m = sim();
    const { t, c } = connect(m, false);
    c.receive(Buffer.from(req('GET')));
    const [a] = answers(t.bytes(), ['GET']);
    assert.equal(a.status, 200);
    assert.match(a.head, /^Transfer-Encoding: chunked$/m);
    assert.doesNotMatch(a.head, /content-length/i);
    assert.equal(a.body, expected(m));
    const entities = Object.keys(JSON.parse(a.body).response.entities).length;
    assert.ok(a.sizes.length > entities, `${a.sizes.length} chunks for ${entities} entities`);
    assert.equal(t.writes.length, 1 + a.sizes.length + 1, 'the head, one write per chunk (its size line and piece), the last chunk');
    assert.ok(t.largest < WRITE_MAX, `largest write ${t.largest} bytes (everything profile)`);
    assert.ok(t.largest < a.body.length / 4, `largest write ${t.largest} of ${a.body.length}`);
    assert.equal(t.closed, false);
  });

  it('the device board: the same stream, every write under the bound', () => {
    freshWorld();
    const m = makeModule();
    const { t, c } = connect(m, false);
    c.receive(Buffer.from(req('GET')));
    const [a] = answers(t.bytes(), ['GET']);
    assert.equal(normalise(a.body), normalise(expected(m)));
    assert.ok(t.largest < WRITE_MAX, `largest write ${t.largest} bytes (device board)`);
  });

  it('makes a piece only while the transport has room, and goes on at each drain', () => {
    const m = sim();
    const { t, c } = connect(m, true);
    c.receive(Buffer.from(req('GET')));
    const first = t.queued;
    assert.ok(first < STREAM_LOW_WATER + WRITE_MAX, `${first} bytes written before the first drain`);
    let drains = 0;
    while (!t.bytes().includes(Buffer.from('\r\n0\r\n\r\n')) && drains < 1000) { t.take(); drains++; }
    assert.ok(drains > 5, `${drains} drains`);
    assert.ok(t.maxQueued < STREAM_LOW_WATER + WRITE_MAX, `at most ${t.maxQueued} bytes waited in the transport`);
    assert.equal(answers(t.bytes(), ['GET'])[0].body, expected(m));
  });

  it('keep-alive and pipelining after it: answers in order, input during the stream waits its turn', () => {
    const m = sim();
    const { t, c } = connect(m, true);
    c.receive(Buffer.from(req('GET') + req('GET', '/api/v1/device/system/0/serialnumber') + req('HEAD')));
    c.receive(Buffer.from(req('GET') + req('GET', '/api/v1/device/nosuch/0/thing')));
    for (let i = 0; i < 1000 && t.queued; i++) t.take();
    const list = answers(t.bytes(), ['GET', 'GET', 'HEAD', 'GET', 'GET']);
    assert.deepEqual(list.map((a) => a.status), [200, 200, 200, 200, 404]);
    assert.equal(list[0].body, expected(m));
    assert.equal(JSON.parse(list[1].body).response.value, SERIAL);
    assert.equal(list[3].body, expected(m));
    assert.equal(t.closed, false);
  });

  it('HEAD: the head alone (chunked, as GET would be), and the connection goes on', () => {
    const { t, c } = connect(sim(), true);
    c.receive(Buffer.from(req('HEAD') + req('GET', '/api/v1/device/system/0/serialnumber')));
    const [head, next] = answers(t.bytes(), ['HEAD', 'GET']);
    assert.equal(head.status, 200);
    assert.match(head.head, /^Transfer-Encoding: chunked$/m);
    assert.equal(next.status, 200);
    assert.equal(t.closed, false);
  });

  it('HTTP/1.0: no chunked coding, the body ends with the connection', () => {
    const m = sim();
    const { t, c } = connect(m, true);
    c.receive(Buffer.from(req('GET', PATH, '1.0')));
    for (let i = 0; i < 1000 && !t.closed; i++) t.take();
    assert.equal(t.closed, true);
    const [a] = answers(t.bytes(), ['GET']);
    assert.doesNotMatch(a.head, /transfer-encoding|content-length/i);
    assert.match(a.head, /^Connection: close$/m);
    assert.equal(a.body, expected(m));
  });

  it('Connection: close on HTTP/1.1: chunked to its last chunk, then closed; the request after it is not read', () => {
    const m = sim();
    const { t, c } = connect(m, true);
    c.receive(Buffer.from(req('GET', PATH, '1.1', `Connection: close${CRLF}`) + req('GET', '/api/v1/device/system/0/serialnumber')));
    for (let i = 0; i < 1000 && !t.closed; i++) t.take();
    assert.equal(t.closed, true);
    const [a] = answers(t.bytes(), ['GET']);
    assert.match(a.head, /^Transfer-Encoding: chunked$/m);
    assert.match(a.head, /^Connection: close$/m);
    assert.equal(a.body, expected(m));
  });

  it('errors before the first byte are ordinary answers (404 for another serial, 405)', () => {
    const { t, c } = connect(sim(), true);
    c.receive(Buffer.from(req('GET', '/api/v1/device/0x0BADF00D') + req('DELETE')));
    const list = answers(t.bytes(), ['GET', 'DELETE']);
    assert.deepEqual(list.map((a) => a.status), [404, 405]);
    for (const a of list) assert.match(a.head, /^Content-Length: \d+$/m);
  });

  it('a client that stops reading is closed after the idle timeout; too much input waiting closes after the stream', () => {
    let now = NOW;
    const { t, c } = connect(sim(), true, () => now);
    c.receive(Buffer.from(req('GET')));
    now += 29000;
    assert.equal(c.checkTimeout(), false);
    c.receive(Buffer.from('GET / HTTP/1.1\r\n')); // sending without reading keeps nothing alive
    now += 2000;
    assert.equal(c.checkTimeout(), true);
    assert.equal(t.closed, true);

    const m = sim();
    const p = connect(m, true);
    p.c.receive(Buffer.from(req('GET')));
    p.c.receive(Buffer.from(req('GET', '/api/v1/device/system/0/serialnumber').repeat(200))); // ~12 KB
    for (let i = 0; i < 1000 && !p.t.closed; i++) p.t.take();
    assert.equal(p.t.closed, true);
    assert.equal(answers(p.t.bytes(), ['GET'])[0].body, expected(m));
  });

  it('the device server on fake sockets: streamed through a one-segment window at each drain, then the next answer', () => {
    freshWorld();
    const served = serve();
    const client = net.connect(8080, 1460);
    client.send(req('GET') + req('GET', '/api/v1/device/system/0/serialnumber'));
    net.run(); // no timer tick: each onWritable (the client took a segment) makes the next pieces
    const list = answers(Buffer.from(client.received, 'latin1'), ['GET', 'GET']);
    assert.equal(normalise(list[0].body), normalise(expected(served.device)));
    assert.ok(list[0].sizes.every((n) => n < WRITE_MAX), `largest chunk ${Math.max(...list[0].sizes)}`);
    assert.equal(JSON.parse(list[1].body).response.value, 0x1234abcd);
    assert.equal(client.closedByServer, false);
    served.server.close();
  });

  it('the device server: a reset pipelined behind the description still waits for its answer to leave', () => {
    freshWorld();
    serve();
    const client = net.connect(8080, 64);
    platform.chipRestarts = true;
    let receivedAtRestart = '';
    platform.onRestart = () => { receivedAtRestart = client.received; };
    // The client stops reading once the description has ended: the reset's answer stays in the module.
    const take = client.take.bind(client);
    client.take = () => { if (!client.received.includes('\r\n0\r\n\r\n')) take(); };
    client.send(req('GET') + req('GET', '/api/v1/device/system/0/reset'));
    net.run();
    net.advance(1000);
    assert.deepEqual(platform.restarts, [], 'restarted while its answer was still in the module');
    client.take = take;
    client.setReading(true);
    net.run();
    net.advance(500);
    assert.equal(platform.restarts.length, 1);
    const list = answers(Buffer.from(receivedAtRestart, 'latin1'), ['GET', 'GET']);
    assert.deepEqual(list.map((a) => a.status), [200, 200]);
  });

  it('the simulator: a node:http keep-alive client reads it, then the next request on the same socket', async () => {
    const m = sim();
    const server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [m] });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (p: string): Promise<{ status: number; text: string; te: string | undefined; socket: unknown }> =>
      new Promise((resolve, reject) => {
        const r = http.get({ host: '127.0.0.1', port: server.port, path: p, agent }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString('utf8'), te: res.headers['transfer-encoding'], socket: r.socket }));
        });
        r.on('error', reject);
      });
    try {
      const a = await get(PATH);
      const b = await get('/api/v1/device/system/0/serialnumber');
      assert.equal(a.te, 'chunked');
      assert.equal(normalise(a.text), normalise(expected(m)));
      assert.equal(b.status, 200);
      assert.equal(a.socket, b.socket);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
