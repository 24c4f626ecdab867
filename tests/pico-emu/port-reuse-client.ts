// A client that opens each connection from the local port of the one before it, right after the board
// has closed that one: the board closes first (its answers to HTTP/1.1 with `Connection: close`), so
// it holds that connection in TIME-WAIT, and a script that opens hundreds of connections a minute
// meets one of its own ports again within seconds (Linux picks them at random). Each reuse must be
// answered within seconds, as a second GET on a fresh port is. Run in the board's namespace
// (tests/esp32-emu-port-reuse.test.ts, tests/pico-emu-port-reuse.test.ts); prints what it saw, and
// the test judges.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { BOARD, result, say, waitServing } from './board-client';

const REUSES = Number(process.env.BOARD_PORT_REUSES ?? 5);
const PATIENCE_MS = 60_000;

interface Got { status: number; seconds: number; error?: string }
export interface Seen { served: boolean; reuses: { port: number; first: Got; again: Got }[] }

/** The tests' judgement: every reuse answered 200 within `withinS` real seconds (`out`: what to show if not). */
export function assertReusesAnswered(seen: Seen | undefined, withinS: number, out: string): void {
  assert.equal(seen?.served, true, out);
  assert.equal(seen.reuses.length, REUSES, out);
  console.log(`      from a port just closed: answered after ${seen.reuses.map((r) => r.again.seconds).join(', ')} s`);
  for (const r of seen.reuses) {
    assert.equal(r.first.status, 200, JSON.stringify(r));
    assert.equal(r.again.status, 200, `port ${r.port} again: ${JSON.stringify(r.again)}`);
    assert.ok(r.again.seconds < withinS, `port ${r.port} again answered after ${r.again.seconds} s`);
  }
}

/** A GET with `Connection: close` from `localPort`; the client closes only after the board has (so the
 * TIME-WAIT is the board's, and the port is free again on this side at once). */
function get(localPort: number): Promise<Got> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const s = net.connect({ host: BOARD, port: 80, localPort });
    let head = '';
    let error: string | undefined;
    s.setTimeout(PATIENCE_MS, () => s.destroy(new Error(`no answer in ${PATIENCE_MS / 1000} s`)));
    s.on('connect', () => s.write(`GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: ${BOARD}\r\nConnection: close\r\n\r\n`));
    s.on('data', (b: Buffer) => { head += b.toString('latin1'); });
    s.on('end', () => s.end());
    s.on('error', (e) => { error = e.message; });
    s.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? 0);
      resolve({ status, seconds: (Date.now() - t0) / 1000, ...(error ? { error } : {}) });
    });
  });
}

async function main(): Promise<void> {
  const served = await waitServing(240);
  const reuses: Seen['reuses'] = [];
  for (let k = 0; k < REUSES && served; k++) {
    const port = 41000 + 7 * k;
    const first = await get(port);
    await new Promise((r) => setTimeout(r, 100)); // the client's own side of the last connection is closed
    const again = await get(port);
    say(`port ${port}: ${first.status} in ${first.seconds} s, then from the same port ${again.status} in ${again.seconds} s${again.error ? ` (${again.error})` : ''}`);
    reuses.push({ port, first, again });
  }
  result({ served, reuses });
}

if (require.main === module) void main();
