// Hostile clients of a lab network, run in the board's namespace (tests/pico-emu-hostile.test.ts,
// make pico-emu-hostile): four clients at once beside a stream of mDNS queries; clients that abort in
// the middle of an answer and of an event stream (a FIN, then a RST); scanners that connect and reset;
// 16 connections opened at once; a client that stops acknowledging in the middle of an answer (its
// packets dropped by a blackhole route in the namespace). After each, four clients at once. How many
// of each: PICO_EMU_HOSTILE (`aborts=20,streams=10,scanners=40,bursts=1,stalls=1,races=2`). Prints
// what it saw; the test judges.
import * as dgram from 'node:dgram';
import { spawnSync } from 'node:child_process';
import * as net from 'node:net';
import { BOARD, boardLog, result, say, sleep, waitServing } from './board-client';
import { type Fetched, fetchOne } from './network-client';

const LOCAL = '192.168.77.1';
/** The stalled client's own address: a blackhole route for what it sends stops its ACKs. */
const STALLED = '192.168.77.2';
const FOUR = ['/', '/api/v1/openapi.json', '/api/v1/device/0xC1000001', '/metrics'];
const STREAM = '/api/v1/device/events?watch=system/0/serialnumber&interval=100';
const LARGE = '/api/v1/openapi.json';
/** A client's wait for the next bytes: long, since a loaded machine runs the board at a few hundredths of real time. */
const PATIENCE_MS = 900_000;

function counts(): Record<string, number> {
  const c: Record<string, number> = { aborts: 20, streams: 10, scanners: 40, bursts: 1, stalls: 1, races: 2 };
  for (const part of (process.env.PICO_EMU_HOSTILE ?? '').split(',').filter(Boolean)) {
    const [k, v] = part.split('=');
    c[k] = Number(v);
  }
  return c;
}

/** What stopped the board, if anything: a panic, a fault, a watchdog reset. */
export function boardTrouble(): string | undefined {
  return /\*\*\* PANIC \*\*\*|pico-emu: backtrace|the core (stopped|faulted|locks up)|the watchdog resets/.exec(boardLog())?.[0];
}

/** A connection to the board that sends a GET for `path` and calls `then` at its first answer bytes. */
function connect(path: string, then: (s: net.Socket) => void, localAddress?: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host: BOARD, port: 80, localAddress });
    let first = '';
    s.setTimeout(PATIENCE_MS, () => s.destroy(new Error('timeout')));
    s.on('connect', () => s.write(`GET ${path} HTTP/1.1\r\nHost: ${BOARD}\r\n\r\n`));
    s.on('data', (b: Buffer) => {
      if (!first) {
        first = b.toString('latin1').split('\r\n')[0];
        then(s);
      }
    });
    s.on('error', () => { /* the reset, or the board's */ });
    s.on('close', () => resolve(first || 'no answer'));
  });
}

/** A FIN in the middle of the answer, then a RST a moment later: a browser tab closed, a curl stopped. */
const abort = (s: net.Socket): void => {
  s.end();
  setTimeout(() => s.resetAndDestroy(), 10);
};

/** A scanner or health check: connects, and resets at once. */
function scan(): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect({ host: BOARD, port: 80 });
    s.on('connect', () => s.resetAndDestroy());
    s.on('error', () => { /* refused or reset */ });
    s.on('close', () => resolve());
  });
}

/** 16 connections at once, each a GET: what each got (a status line, or how it ended). */
async function burst(): Promise<string[]> {
  return Promise.all(Array.from({ length: 16 }, () => connect('/api/v1/device/system/0/serialnumber', (s) => s.end())));
}

/** A client that stops acknowledging once the answer has begun; the others are served meanwhile. */
async function stall(): Promise<string> {
  const ip = (...a: string[]): void => { spawnSync('ip', a); };
  ip('addr', 'add', `${STALLED}/24`, 'dev', 'pico0');
  ip('route', 'add', 'blackhole', 'default', 'table', '100');
  let socket: net.Socket | undefined;
  const first = new Promise<void>((r) => {
    void connect(LARGE, (s) => { socket = s; ip('rule', 'add', 'from', STALLED, 'table', '100'); r(); }, STALLED);
  });
  await Promise.race([first, sleep(60_000)]);
  const four = await fourClients('while a client is stalled');
  ip('rule', 'del', 'from', STALLED, 'table', '100');
  socket?.destroy();
  return four.every((f) => f.status === 200 && !f.whole.includes('not whole')) ? 'served' : JSON.stringify(four);
}

async function fourClients(when: string): Promise<Fetched[]> {
  const four = await Promise.all(FOUR.map((p) => fetchOne(p, PATIENCE_MS)));
  say(`four clients ${when}: ${four.map((f) => `${f.path} ${f.status} ${f.bytes} B ${f.seconds} s ${f.error ?? f.whole}`).join('; ')}`);
  return four;
}

/** mDNS queries for the board's services, every 3 s of real time (a tenth of a second or more of the board's), until stopped. */
function mdnsQueries(): () => number {
  const q = Buffer.concat([Buffer.alloc(4), Buffer.from([0, 1, 0, 0, 0, 0, 0, 0]),
    ...'_http._tcp.local'.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0, 0, 12, 0, 1])]);
  const s = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  let sent = 0;
  s.bind(0, LOCAL);
  const timer = setInterval(() => { s.send(q, 5353, '224.0.0.251'); sent++; }, 3000);
  return () => { clearInterval(timer); s.close(); return sent; };
}

async function times(n: number, one: () => Promise<unknown>): Promise<number> {
  let done = 0;
  for (let i = 0; i < n && !boardTrouble(); i++) {
    await one();
    done++;
  }
  return done;
}

async function main(): Promise<void> {
  const c = counts();
  const out: Record<string, unknown> = { served: await waitServing(300) };
  const phases: Record<string, unknown>[] = [];
  out.phases = phases;
  const phase = async (name: string, run: () => Promise<unknown>): Promise<void> => {
    if (boardTrouble()) return;
    const done = await run();
    await sleep(2000);
    const after = await fourClients(`after ${name}`);
    phases.push({ name, done, after: after.map((f) => ({ path: f.path, status: f.status, whole: f.whole })), trouble: boardTrouble() });
    say(`${name}: ${JSON.stringify(done)}`);
  };
  const stopQueries = mdnsQueries();
  await phase('four clients beside mDNS queries', () => times(c.races, () => fourClients('beside mDNS queries')));
  out.mdnsQueries = stopQueries();
  await phase('aborts mid-answer', () => times(c.aborts, () => connect(LARGE, abort)));
  await phase('aborts mid-stream', () => times(c.streams, () => connect(STREAM, (s) => setTimeout(() => abort(s), 300))));
  await phase('scanners', () => times(c.scanners, scan));
  await phase('16 at once', async () => { const all: string[][] = []; for (let i = 0; i < c.bursts; i++) all.push(await burst()); return all; });
  await phase('a client that stops acknowledging', async () => {
    const each: string[] = []; // 'served', or what the four clients got while it was stalled
    for (let i = 0; i < c.stalls && !boardTrouble(); i++) each.push(await stall());
    return each;
  });
  out.trouble = boardTrouble();
  result(out);
}

if (require.main === module) void main();
