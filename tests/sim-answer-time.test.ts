// --answer-time: the simulator answers at a module's pace, one read at a time across every
// connection, each its MS after the engine took it up (host-sim/pacer.ts). What a client sees: the
// same answers, each at least MS after it asked, no more than one every MS in all, and clients that
// leave while they wait leave the simulator answering.

import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { createSimModule } from '../hal/sim/index';
import { parseOptions, UsageError } from '../host-sim/options';
import { startSimServer, type SimServer } from './sim-server';

const PACE_MS = 40;
const GET = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Send `count` GETs one after another on one connection; resolves with each answer's status line and ms. */
function sequence(port: number, count: number): Promise<{ lines: string[]; ms: number[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const lines: string[] = [];
    const ms: number[] = [];
    let buffered = '';
    let t0 = 0;
    const ask = (): void => { t0 = performance.now(); socket.write(GET); };
    socket.on('connect', ask);
    socket.on('error', reject);
    socket.on('data', (d) => {
      buffered += d.toString('latin1');
      const head = buffered.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(buffered);
      if (head < 0 || !length || buffered.length < head + 4 + Number(length[1])) return;
      ms.push(performance.now() - t0);
      lines.push(buffered.slice(0, buffered.indexOf('\r\n')) + ' ' + buffered.slice(head + 4));
      buffered = '';
      if (lines.length === count) { socket.destroy(); resolve({ lines, ms }); } else ask();
    });
  });
}

describe('simulator --answer-time: a module\'s pace', function () {
  this.timeout(20000);
  let server: SimServer;

  before(async () => {
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], answerTimeMs: PACE_MS });
  });
  after(() => server.close());

  it('answers as without a pace, each answer at least MS after the request', async () => {
    const { lines, ms } = await sequence(server.port, 3);
    for (const line of lines) {
      assert.match(line, /^HTTP\/1\.1 200 OK /);
      assert.equal(JSON.parse(line.slice(line.indexOf('{'))).response.value, 0x1234abcd);
    }
    for (const t of ms) assert.ok(t >= PACE_MS - 1, `answered after ${t.toFixed(1)} ms, not before ${PACE_MS}`);
  });

  it('answers one request at a time across connections', async () => {
    const t0 = performance.now();
    const runs = await Promise.all([1, 2, 3].map(() => sequence(server.port, 2)));
    const took = performance.now() - t0;
    for (const r of runs) for (const line of r.lines) assert.match(line, /^HTTP\/1\.1 200 OK /);
    assert.ok(took >= 6 * PACE_MS - 1, `6 requests on 3 connections took ${took.toFixed(0)} ms, not the ${6 * PACE_MS} of one at a time`);
  });

  it('goes on answering when clients leave before their answers, and lets their connections go', async () => {
    // As on a module, a request already read is worked on whether or not its client stays for the answer.
    const leaving = Array.from({ length: 4 }, () => {
      const s = net.connect(server.port, '127.0.0.1', () => { s.write(GET); setTimeout(() => s.destroy(), 5); });
      s.on('error', () => {});
      return s;
    });
    await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    const { lines } = await sequence(server.port, 1);
    assert.match(lines[0], /^HTTP\/1\.1 200 OK /);
    assert.ok(performance.now() - t0 < 8 * PACE_MS, 'answered after the turns ahead of it');
    assert.ok(leaving.every((s) => s.destroyed));
    for (let i = 0; i < 50 && server.stats().connections > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.stats().connections, 0, 'every connection closed');
  });

  it('takes 0..10000 ms on the command line, 0 (no pace) by default', () => {
    assert.equal(parseOptions([]).answerTimeMs, 0);
    assert.equal(parseOptions(['--answer-time', '5']).answerTimeMs, 5);
    for (const bad of ['=-1', ' x', ' 10001', ' 2.5']) {
      assert.throws(() => parseOptions(bad.startsWith('=') ? ['--answer-time' + bad] : ['--answer-time', bad.trim()]), (e: unknown) => e instanceof UsageError && /--answer-time must be an integer 0\.\.10000/.test((e as Error).message));
    }
  });
});
