// The simulator under pressure: many concurrent clients, and a client that never reads its answers.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';

describe('host-sim server under load', function () {
  this.timeout(30000);
  let server: SimServer;
  before(async () => {
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })] });
  });
  after(async () => { await server.close(); });

  it('serves 100 concurrent keep-alive connections with no errors and only 200s', async () => {
    const perConnection = 20;
    const request = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const one = (): Promise<number[]> => new Promise((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1');
      const statuses: number[] = [];
      let pending = '';
      socket.on('connect', () => socket.write(request));
      socket.on('data', (d) => {
        pending += d.toString('latin1');
        // Each answer: head, then Content-Length bytes.
        for (;;) {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/Content-Length: (\d+)/.exec(pending.slice(0, end))![1]);
          if (pending.length < end + 4 + length) return;
          statuses.push(Number(pending.slice(9, 12)));
          pending = pending.slice(end + 4 + length);
          if (statuses.length === perConnection) {
            socket.end();
            resolve(statuses);
            return;
          }
          socket.write(request);
        }
      });
      socket.on('error', reject);
    });
    const all = await Promise.all(Array.from({ length: 100 }, one));
    const flat = all.flat();
    assert.equal(flat.length, 100 * perConnection);
    assert.ok(flat.every((s) => s === 200), 'all 200');
  });

  it('drops a closed connection whose client never takes its last answer', async () => {
    const lingering = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({})], lingerMs: 300, maxConnections: 2 });
    try {
      const held: net.Socket[] = [];
      for (let i = 0; i < 2; i++) {
        const s = net.connect(lingering.port, '127.0.0.1');
        await new Promise((r) => s.once('connect', r));
        s.pause(); // never reads
        s.write('BAD REQUEST\r\n\r\n' + 'x'.repeat(100000)); // answered 400 and closed by the server
        held.push(s);
      }
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(lingering.stats().connections, 0, 'both slots freed');
      for (const s of held) s.destroy();
    } finally {
      await lingering.close();
    }
  });

  it('stops reading from a client that never reads its answers: queued bytes stay bounded', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause(); // never read
    const chunk = Buffer.from('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(200));
    let sent = 0;
    let maxBuffered = 0;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      if (socket.write(chunk)) sent += chunk.length;
      else await new Promise((r) => setTimeout(r, 10));
      maxBuffered = Math.max(maxBuffered, server.stats().bufferedBytes);
      if (sent > 50e6) break;
    }
    // The client's writes back up once the server stops reading: far less than 50 MB went through,
    // and the server holds at most a few chunks of answers.
    assert.ok(sent < 50e6, `server kept reading: ${sent} bytes`);
    assert.ok(maxBuffered < 4 * 1024 * 1024, `server buffered ${maxBuffered} bytes`);
    socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.stats().connections, 0);
  });
});
