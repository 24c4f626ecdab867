// Run inside a network and mount namespace of its own (tests/lab-rack.test.ts starts it, with a veth
// interface, a private D-Bus and avahi-daemon): two simulators of 50 modules each announce with the
// project's responder while two independent DNS-SD implementations browse from the moment they start:
// python-zeroconf (tests/mdns/zeroconf-browse.py) and avahi (avahi-browse). Then malformed packets go
// to the group, and a fresh python-zeroconf browse must find all 100 again. Prints one JSON line.

import * as dgram from 'node:dgram';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { exchange, SIM_MAIN, startProgram, type Proc } from './host-helpers';
import { SELF_POINTER } from './mdns-helpers';

const ROOT = path.resolve(__dirname, '../..');
const BROWSE_PY = path.join(ROOT, 'tests/mdns/zeroconf-browse.py');
const LIMIT_S = 12;

interface Found { count: number; ms: number; badTxt: string[] }

/** TXT as DECISIONS names it, the serial matching the instance name (brainstem-a0000001 -> 0xA0000001). */
function txtRight(name: string, txt: Record<string, string | null>): boolean {
  const hex = /^brainstem-([0-9a-f]{8})/.exec(name)?.[1];
  return !!hex && txt.serial === `0x${hex.toUpperCase()}` && txt.model === '4' && txt.fw === '2.11.3' && txt.api === '/api/v1' && txt.auth === 'none';
}

/** python-zeroconf until 100 are resolved or LIMIT_S pass. */
function zeroconf(): Promise<Found> {
  return new Promise((resolve) => {
    const py = spawn('/usr/bin/python3', [BROWSE_PY, '100', String(LIMIT_S)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    py.stdout.on('data', (d) => { out += d; });
    py.on('exit', () => {
      const r = JSON.parse(out.trim().split('\n').pop() || '{"found":{},"ms":-1}') as { found: Record<string, { txt: Record<string, string> }>; ms: number };
      const names = Object.keys(r.found);
      resolve({ count: names.length, ms: r.ms, badTxt: names.filter((n) => !txtRight(n, r.found[n].txt)) });
    });
  });
}

/** avahi-browse, resolving, until 100 are resolved or LIMIT_S pass: `=` lines, TXT as "k=v" strings. */
function avahi(): Promise<Found> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const seen = new Map<string, { ms: number; ok: boolean }>();
    const browse = spawn('avahi-browse', ['-rp', '_brainstem._tcp'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let errors = '';
    browse.stderr.on('data', (d) => { errors += d; });
    const finish = (): void => {
      clearTimeout(timer);
      browse.kill();
      const ms = Math.max(-1, ...[...seen.values()].map((v) => v.ms));
      const bad = [...seen].filter(([, v]) => !v.ok).map(([k]) => k);
      resolve({ count: seen.size, ms, badTxt: seen.size ? bad : [errors.trim()] });
    };
    const timer = setTimeout(finish, LIMIT_S * 1000);
    browse.stdout.on('data', (d) => {
      buffer += d;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const f = buffer.slice(0, nl).split(';');
        buffer = buffer.slice(nl + 1);
        if (f[0] !== '=' || seen.has(f[3])) continue;
        const txt = Object.fromEntries((f[9] ?? '').split(/" "/).map((s) => s.replace(/"/g, '').split('=')));
        seen.set(f[3], { ms: Date.now() - t0, ok: txtRight(f[3], txt) });
        if (seen.size >= 100) finish();
      }
    });
  });
}

function sim(serial: string, port: number): Promise<Proc> {
  return startProgram(SIM_MAIN, ['--devices', '50', '--announce', '--host', '0.0.0.0', '--port', String(port), '--no-state', '--serial', serial],
    /at http:\/\/127\.0\.0\.1:(\d+)/);
}

/** The 18-byte self-pointer and a query whose counts exceed the packet, to the group. */
function malformed(): Promise<void> {
  const s = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  const huge = Buffer.from(SELF_POINTER);
  huge.writeUInt16BE(0xffff, 4);
  huge.writeUInt16BE(0xffff, 10);
  return new Promise((resolve) => s.bind(0, () => {
    s.send(SELF_POINTER, 5353, '224.0.0.251', () => s.send(huge, 5353, '224.0.0.251', () => s.close(() => resolve())));
  }));
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  const [zc, av, a, b] = await Promise.all([zeroconf(), avahi(), sim('0xA0000001', 9101), sim('0xB0000001', 9102)]);
  out.zeroconf = zc;
  out.avahi = av;
  try {
    await malformed();
    await new Promise((r) => setTimeout(r, 500));
    out.afterMalformed = await zeroconf();
    out.http = [(await exchange(a.port, 'GET', '/api/v1/device/0xA0000032/system/0/serialnumber')).status,
      (await exchange(b.port, 'GET', '/api/v1/device/0xB0000001/system/0/serialnumber')).status];
    out.alive = [a.child.exitCode, b.child.exitCode];
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`lab-rack-run: ${(e as Error).stack}\n`);
  process.exitCode = 1;
}).finally(() => process.exit());
