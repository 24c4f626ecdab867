// TCP health probes against the emulated board (tests/pico-emu-probe.test.ts), run in its namespace:
// each connects and sends its FIN before a byte (`nc -z`, a load balancer's TCP check), then waits for
// the board's own FIN. The board's clock (the `timestamp` of an answer just before and just after)
// tells how long the board took in emulated time. Then four clients at once. Prints what it saw.
import * as net from 'node:net';
import { BOARD, request, response, result, say, waitServing } from './board-client';

const PROBES = 8;

/** The board's clock in ms, from an answer's `timestamp`. */
async function boardMs(): Promise<number> {
  const a = await request('GET', '/api/v1/device/system/0/serialnumber');
  const body = JSON.parse(a.body.toString('utf8')) as { timestamp?: string };
  return Date.parse(body.timestamp ?? '');
}

/** One probe: connect, FIN, then wait up to `seconds` for the board's FIN; whether it came. */
function probe(seconds: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: BOARD, port: 80 });
    const timer = setTimeout(() => { s.destroy(); resolve(false); }, seconds * 1000);
    s.on('connect', () => s.end());
    s.on('end', () => { clearTimeout(timer); s.destroy(); resolve(true); });
    s.on('error', () => { clearTimeout(timer); resolve(false); });
  });
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { served: await waitServing(240) };
  const closed: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const before = await boardMs();
    const came = await probe(120);
    const after = await boardMs();
    closed.push(came ? after - before : -1);
    say(`probe ${i + 1}: ${came ? `closed by the board, ${after - before} ms of its clock` : 'not closed'}`);
  }
  out.closedMs = closed;
  const four = await Promise.all(['/', '/api/v1/openapi.json', '/metrics', '/api/v1/device/system/0/serialnumber'].map((p) => request('GET', p)));
  out.four = four.map((a) => a.status);
  out.serial = (response(four[3]) as { value?: number } | undefined)?.value;
  result(out);
}

void main().catch((e) => { say(`failed: ${String(e)}`); result({ error: String(e) }); });
