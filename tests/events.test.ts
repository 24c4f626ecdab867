// The event stream (docs/api.md §Events): parsed off a real socket of the simulator's TCP server, and
// its timing, idle comments and one-stream limit driven through a Connection with a test clock.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { put } from './sim-helpers';
import { rawExchange, simApi } from './helpers';

interface StreamEvent { timestamp: string; values: Record<string, { value: number; rawValue: number; error?: string }> }

/** Open `path` on a raw socket for `ms`, then close it; the head and the parsed `data:` events. */
function readStream(port: number, path: string, ms: number): Promise<{ head: string; events: StreamEvent[]; comments: string[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.on('data', (d: string) => { text += d; });
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), ms);
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      const events: StreamEvent[] = [];
      const comments: string[] = [];
      // Complete events only: each ends with a blank line.
      const blocks = text.slice(end + 4).split('\n\n').slice(0, -1);
      for (const block of blocks) {
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as StreamEvent);
          else if (line.startsWith(':')) comments.push(line);
        }
      }
      resolve({ head: text.slice(0, end), events, comments });
    });
  });
}

describe('event stream on the simulator (real socket)', () => {
  let server: SimServer;
  before(async () => {
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 8 });
  });
  after(() => server.close());

  it('sends timestamped values every interval for the watched operations', async () => {
    await put(server.port, '/api/v1/device/rail/0/enable', true);
    await put(server.port, '/api/v1/device/rail/0/voltagesetpoint', 5_000_000);
    const { head, events } = await readStream(server.port, '/api/v1/device/0x1234ABCD/events?watch=rail/0/voltage,rail/0/current,rail/0/enable&interval=100', 900);
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(head, /\r\nContent-Type: text\/event-stream\r\n/i);
    assert.match(head, /\r\nCache-Control: no-store\r\n/i);
    assert.doesNotMatch(head, /Content-Length/i);
    assert.ok(events.length >= 5 && events.length <= 11, `${events.length} events in 900 ms at 100 ms`);
    for (const ev of events) {
      assert.match(ev.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(Object.keys(ev.values), ['rail/0/voltage', 'rail/0/current', 'rail/0/enable']);
      assert.ok(Math.abs(ev.values['rail/0/voltage'].value - 5_000_000) < 50_000, JSON.stringify(ev.values));
      assert.ok(Math.abs(ev.values['rail/0/current'].value - 200_000) < 5_000, 'V / 25 Ω');
      assert.deepEqual(ev.values['rail/0/enable'], { value: true, rawValue: 1 });
    }
  });

  it('answers 400 before the stream starts when a watch entry names no readable operation', async () => {
    for (const [query, error, says] of [
      ['watch=rail/0/voltage,rail/0/nosuchop', 'aErrParam', /rail\/0\/nosuchop' names no readable operation/],
      ['watch=system/0/save', 'aErrParam', /system\/0\/save' names no readable operation/],
      ['watch=rail/7/voltage', 'aErrParam', /out of range/],
      ['interval=250', 'aErrParam', /watch is missing/],
      ['watch=rail/0/voltage&interval=99', 'aErrRange', /100\.\.60000/],
      ['watch=rail/0/voltage&interval=1s', 'aErrParam', /whole number/],
    ] as const) {
      const { out, closed } = rawExchange(simApi(), [`GET /api/v1/device/events?${query} HTTP/1.1\r\nHost: localhost\r\n\r\n`]);
      assert.match(out, /^HTTP\/1\.1 400 /, query);
      assert.match(out, /Content-Type: application\/json/);
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      assert.equal(body.response.error, error, query);
      assert.match(body.response.message, says, query);
      assert.equal(closed, false, 'the connection stays usable');
    }
  });
});

describe('event stream timing and limits (test clock)', () => {
  const head = (q: string): string => `GET /api/v1/device/events?${q} HTTP/1.1\r\nHost: localhost\r\n\r\n`;

  it('ticks on the connection clock, without bursts after a stall, and comments every 15 s while idle', () => {
    let t = 1000;
    const x = rawExchange(simApi(), [head('watch=system/0/hbinterval&interval=250')], () => t);
    const count = (): number => x.out.split('data: ').length - 1;
    assert.equal(count(), 1, 'the first event goes with the head');
    x.connection.checkTimeout(); // first poll: the schedule starts
    for (let i = 0; i < 8; i++) { t += 100; x.connection.checkTimeout(); }
    assert.equal(count(), 1 + 3, '800 ms at 250 ms: 3 more events (100 ms ticks)');
    t += 10_000; // the loop stalled
    x.connection.checkTimeout();
    x.connection.checkTimeout();
    assert.equal(count(), 5, 'one event after a stall, not a burst');

    let u = 0;
    const slow = rawExchange(simApi(), [head('watch=system/0/hbinterval&interval=60000')], () => u);
    slow.connection.checkTimeout();
    u = 14_999;
    slow.connection.checkTimeout();
    assert.doesNotMatch(slow.out, /\n: idle\n/);
    u = 15_000;
    slow.connection.checkTimeout();
    assert.match(slow.out, /\n: idle\n\n$/);
    assert.equal(slow.closed, false);
  });

  it('serves one stream at a time on a module (503 aErrResource), the slot freed when the client goes', () => {
    const api = simApi();
    const first = rawExchange(api, [head('watch=rail/0/voltage')]);
    assert.match(first.out, /^HTTP\/1\.1 200 /);
    const second = rawExchange(api, [head('watch=rail/0/current')]);
    assert.match(second.out, /^HTTP\/1\.1 503 /);
    assert.match(second.out, /"error":"aErrResource","message":"1 event stream is already open; close one first"/);
    first.connection.end();
    assert.equal(first.closed, true);
    const third = rawExchange(api, [head('watch=rail/0/current'), 'GET /api/v1/device/system/0/model HTTP/1.1\r\n\r\n']);
    assert.match(third.out, /^HTTP\/1\.1 200 /);
    assert.doesNotMatch(third.out, /"model"|HTTP\/1\.1 200 OK[\s\S]*HTTP\/1\.1/, 'bytes after the stream request are not answered');
    const sim = simApi({ maxStreams: 2 });
    assert.match(rawExchange(sim, [head('watch=rail/0/voltage')]).out, /^HTTP\/1\.1 200 /);
    assert.match(rawExchange(sim, [head('watch=rail/0/voltage')]).out, /^HTTP\/1\.1 200 /);
    assert.match(rawExchange(sim, [head('watch=rail/0/voltage')]).out, /^HTTP\/1\.1 503 /);
  });
});

describe('event stream through the node:http adapter', () => {
  it('streams, and frees the stream when the client goes', async () => {
    const http = await import('node:http');
    const { nodeHttpListener } = await import('./node-http-adapter');
    const api = simApi();
    const server = http.createServer(nodeHttpListener(api));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const url = `http://127.0.0.1:${port}/api/v1/device/events?watch=system/0/model&interval=100`;
      const read = (): Promise<string> => new Promise((resolve, reject) => {
        http.get(url, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
            if (text.split('data: ').length > 3) { res.destroy(); resolve(res.statusCode + ' ' + res.headers['content-type'] + '\n' + text); }
          });
        }).on('error', reject);
      });
      assert.match(await read(), /^200 text\/event-stream\nretry: 2000\n\ndata: \{"timestamp":"[^"]+","values":\{"system\/0\/model":\{"value":\d+,"rawValue":\d+\}\}\}\n\n/);
      await new Promise((r) => setTimeout(r, 100));
      assert.match(await read(), /^200 /, 'the first stream was released when its client went');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
