// The host-sim server reads every socket into one shared buffer (host-sim/server.ts): no connection
// may see another's bytes, whether its request arrives in pieces, whole, or pipelined. The same
// exchanges run over Node's 'data' events (sharedReadBuffer: false), the way a Node without the
// socket handle takes.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { splitResponses } from './helpers';

const PATH = '/api/v1/device/system/0/hbinterval';

function put(value: string): { head: string; body: string } {
  const body = `{"value": ${value}}`;
  return { head: `PUT ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body };
}

/** A client socket whose answers are collected as they come. */
async function client(port: number): Promise<{ socket: net.Socket; text: () => string }> {
  const socket = net.connect(port, '127.0.0.1');
  let out = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => { out += d; });
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, text: () => out };
}

/** Write, then give the server time to read it (each write a read of its own). */
async function send(socket: net.Socket, data: string): Promise<void> {
  socket.write(data);
  await new Promise((resolve) => setTimeout(resolve, 40));
}

/** The values echoed by each answer in `out`, in order. */
function values(out: string): number[] {
  return splitResponses(out).map((r) => {
    assert.equal(r.status, 200, r.body);
    return JSON.parse(r.body).response.value;
  });
}

for (const sharedReadBuffer of [true, false]) {
  describe(`host-sim server reads (${sharedReadBuffer ? 'one shared buffer' : "'data' events"})`, () => {
    let server: SimServer;
    before(async () => {
      server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({})], sharedReadBuffer });
    });
    after(async () => { await server.close(); });

    it("keeps a request arriving in pieces apart from another connection's reads in between", async () => {
      const a = await client(server.port);
      const b = await client(server.port);
      const slow = put('123');
      const fast = put('200');
      await send(a.socket, slow.head.slice(0, 20)); // part of the request line
      await send(b.socket, fast.head + fast.body); // a whole request over the same bytes
      await send(a.socket, slow.head.slice(20) + slow.body.slice(0, 11)); // rest of head, part of body
      await send(b.socket, `${fast.head}${fast.body}`.repeat(3)); // three pipelined in one read
      await send(a.socket, slow.body.slice(11));
      assert.deepEqual(values(a.text()), [123]);
      assert.deepEqual(values(b.text()), [200, 200, 200, 200]);
      a.socket.destroy();
      b.socket.destroy();
    });

    it('answers a pipelined read whose last request is cut, then finishes it from the next read', async () => {
      const a = await client(server.port);
      const b = await client(server.port);
      const first = put('7');
      const second = put('250');
      const whole = first.head + first.body + second.head + second.body;
      const cut = whole.length - 5;
      await send(a.socket, whole.slice(0, cut));
      await send(b.socket, put('99').head + put('99').body);
      await send(a.socket, whole.slice(cut));
      assert.deepEqual(values(a.text()), [7, 250]);
      assert.deepEqual(values(b.text()), [99]);
      a.socket.destroy();
      b.socket.destroy();
    });

    it('answers and closes when the client half-closes after its request', async () => {
      const a = await client(server.port);
      const ended = new Promise((resolve) => a.socket.once('end', resolve));
      const one = put('31');
      a.socket.end(one.head + one.body);
      await ended;
      assert.deepEqual(values(a.text()), [31]);
    });
  });
}
