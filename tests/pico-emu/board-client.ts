// What a client in the emulated board's namespace has (tools/pico-emu/netns.sh runs it as
// PICO_EMU_CLIENT, tools/esp32-emu/netns.sh as ESP32_EMU_CLIENT, with the console in BOARD_LOG): HTTP to the board, the board's console so far, the access point's switch and
// python-zeroconf. It prints `client: …` lines as it goes and one `result: {…}` line, which the test
// (tests/pico-emu-run.ts) reads; it judges nothing itself.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

export const BOARD = '192.168.77.50';
/** The board's token where its image has one (the emulated ESP32's: ESP32_EMU_TOKEN): sent as Bearer. */
const TOKEN = process.env.BOARD_TOKEN;
const ROOT = path.resolve(__dirname, '../../..');

export interface Answer { status: number; headers: http.IncomingHttpHeaders; body: Buffer; error?: string; seconds: number }

export function say(line: string): void {
  console.log(`client: ${line}`);
}

export function result(value: unknown): void {
  console.log(`result: ${JSON.stringify(value)}`);
}

/** Whether the runner stopped the board's core (a panic's BKPT): nothing will answer again. */
export function boardStopped(): boolean {
  return /pico-emu: the core stopped/.test(boardLog());
}

/** One request to the board, on a connection of its own; an error (refused, timed out) as `error`. */
export function request(method: string, target: string, body?: string, timeoutMs = 60_000): Promise<Answer> {
  const t0 = Date.now();
  if (boardStopped()) return Promise.resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error: 'the board stopped', seconds: 0 });
  return new Promise((resolve) => {
    const req = http.request({ host: BOARD, port: 80, method, path: target, agent: false, timeout: timeoutMs,
      headers: { ...(TOKEN ? { Authorization: `Bearer ${TOKEN}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), seconds: (Date.now() - t0) / 1000 }));
      res.on('error', (e) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error: e.message, seconds: (Date.now() - t0) / 1000 }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs / 1000} s`)));
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error: e.message, seconds: (Date.now() - t0) / 1000 }));
    req.end(body);
  });
}

/** The `response` of a JSON answer, or undefined. */
export function response(a: Answer): unknown {
  try {
    return (JSON.parse(a.body.toString('utf8')) as { response?: unknown }).response;
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Asks for the serial number every 2 s until the board answers 200 (true) or `seconds` pass. */
export async function waitServing(seconds: number): Promise<boolean> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end && !boardStopped()) {
    const a = await request('GET', '/api/v1/device/system/0/serialnumber', undefined, 20_000);
    if (a.status === 200) return true;
    await sleep(2000);
  }
  return false;
}

/** The board's console so far (the runner's output). */
export function boardLog(): string {
  try {
    return fs.readFileSync(process.env.PICO_EMU_LOG ?? process.env.BOARD_LOG ?? '', 'utf8');
  } catch {
    return '';
  }
}

/** Waits until the board's console has a line matching `re` after character `from`; its match and end. */
export async function waitLog(re: RegExp, seconds: number, from = 0): Promise<{ line: string; end: number } | undefined> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const log = boardLog();
    const lines = log.slice(from).split('\n');
    let at = from;
    for (const line of lines) {
      at += line.length + 1;
      if (re.test(line) && at <= log.length) return { line, end: at };
    }
    if (Date.now() > end || /pico-emu: the core stopped/.test(log)) return undefined;
    await sleep(500);
  }
}

/** The emulated access point goes away, or comes back: SIGUSR1 to the runner. */
export function toggleAccessPoint(): void {
  process.kill(Number(process.env.PICO_EMU_PID), 'SIGUSR1');
}

/** python-zeroconf resolves the instance (SRV, TXT, address): its dns-sd: line. */
export function resolve(instance: string, seconds = 10): string {
  const r = spawnSync('/usr/bin/python3', [path.join(ROOT, 'tools/pico-emu/dnssd-resolve.py'), instance, String(seconds)],
    { encoding: 'utf8', timeout: (seconds + 20) * 1000 });
  return (r.stdout || r.stderr || `dnssd-resolve.py: ${r.error?.message ?? 'no output'}`).trim();
}
