// The simulator reads the wall clock once per socket read (host-sim/read-clock.ts): everything one
// read sets off (the connection's activity time, the module clock stamping the answers, the physics
// step) sees the instant the bytes arrived, and the clock moves again afterwards.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { ReadClock, wallClock } from '../host-sim/read-clock';
import { startSimServer, type SimServer } from './sim-server';
import { buildDevices } from '../host-sim/devices';
import { EVERYTHING } from '../hal/sim/profile';
import { splitResponses } from './helpers';

/** Replace Date.now by a clock that moves 1 ms at every reading, and count the readings. */
function steppingDateNow(): { readings: () => number; restore: () => void } {
  const real = Date.now;
  let t = Date.UTC(2026, 10, 23, 12, 0, 0);
  let readings = 0;
  Date.now = (): number => {
    readings++;
    return (t += 1);
  };
  return { readings: () => readings, restore: () => { Date.now = real; } };
}

/** Write `data` in one piece and collect the answers until `count` have come. */
function pipelined(port: number, data: string, count: number): Promise<ReturnType<typeof splitResponses>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('utf8');
      let answers: ReturnType<typeof splitResponses>;
      try {
        answers = splitResponses(out);
        if (answers.length === count) JSON.parse(answers[count - 1].body);
      } catch {
        return; // the last answer is still arriving
      }
      if (answers.length === count) {
        socket.destroy();
        resolve(answers);
      }
    });
    socket.on('error', reject);
  });
}

describe('wall clock read once per socket read', () => {
  it('ReadClock: a held instant stands still; released, the clock is read again', () => {
    const date = steppingDateNow();
    try {
      const clock = new ReadClock();
      const before = clock.now();
      clock.hold();
      const held = clock.now();
      assert.equal(clock.now(), held);
      assert.equal(clock.now(), held);
      assert.ok(held > before);
      clock.release();
      assert.ok(clock.now() > held);
      assert.equal(date.readings(), 3, 'one reading before, one for the hold, one after');
    } finally {
      date.restore();
    }
  });

  describe('the simulator server', () => {
    let server: SimServer;
    let date: ReturnType<typeof steppingDateNow>;
    before(async () => {
      const [device] = buildDevices([{ serial: 0x1234abcd, profile: EVERYTHING }], { kind: 'memory' });
      server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [device.module] });
    });
    after(async () => { await server.close(); });
    beforeEach(() => { date = steppingDateNow(); });
    afterEach(() => date.restore());

    it('stamps the pipelined requests of one read with one instant, read once', async () => {
      const get = (op: string): string => `GET /api/v1/device/system/0/${op} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
      const put = 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nContent-Length: 13\r\n\r\n{"value": 42}';
      const answers = await pipelined(server.port, get('uptime') + put + get('hbinterval') + get('uptime'), 4);
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200]);
      const bodies = answers.map((a) => JSON.parse(a.body));
      const stamps = new Set(bodies.map((b) => b.timestamp));
      // Date.now moves 1 ms per reading: one stamp means one reading served all four answers.
      assert.equal(stamps.size, 1, `timestamps: ${[...stamps].join(', ')}`);
      assert.equal(bodies[0].response.value, bodies[3].response.value, 'uptime stood still within the read');
      assert.equal(bodies[2].response.value, 42);
    });

    it('reads the clock again for the next read', async () => {
      const get = 'GET /api/v1/device/system/0/uptime HTTP/1.1\r\nHost: localhost\r\n\r\n';
      const [first] = await pipelined(server.port, get, 1);
      const [second] = await pipelined(server.port, get, 1);
      assert.ok(JSON.parse(second.body).timestamp > JSON.parse(first.body).timestamp);
    });
  });

  it('the process has one wall clock, shared by the server and the modules it builds', () => {
    assert.ok(wallClock instanceof ReadClock);
    const date = steppingDateNow();
    try {
      wallClock.hold();
      const [device] = buildDevices([{ serial: 1, profile: EVERYTHING }], { kind: 'memory' });
      const uptime = device.module.entities.system!.get(0, 'uptime', []);
      assert.equal(uptime, 0, 'built at the held instant, read at it');
    } finally {
      wallClock.release();
      date.restore();
    }
  });
});
