// What the host-server tests share: the host server and simulators as real processes on loopback,
// raw HTTP exchanges (status, headers, body bytes), a recording TCP relay, and polling.

import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

export interface Proc {
  child: ChildProcess;
  port: number;
  out: () => string;
  stop: () => Promise<number | null>;
}

/** Start a Node program with args; resolves with the port `portRe` finds in its stdout. */
export function startProgram(main: string, args: string[], portRe: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = portRe.exec(out);
      if (m) {
        resolve({
          child, port: Number(m[1]), out: () => out,
          stop: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); return exited; },
        });
      }
    });
    void exited.then((code) => reject(new Error(`${path.basename(main)} exited ${code}: ${out}`)));
  });
}

export const HOST_MAIN = path.resolve(__dirname, '../host-server/main.js');
export const SIM_MAIN = path.resolve(__dirname, '../host-sim/main.js');

/** The host server on a free port; it browses DNS-SD only when `discovery` (tests on loopback do not). */
export function startHost(args: string[], discovery = false): Promise<Proc> {
  return startProgram(HOST_MAIN, ['--port', '0', ...(discovery ? [] : ['--no-discovery']), ...args], /host server: http:\/\/[^:]+:(\d+)/);
}

/** A simulator serving `serial` (one module, settings in memory) on `port` (0: any). */
export function startSimAt(serial: string, extra: string[] = [], port = 0): Promise<Proc> {
  return startProgram(SIM_MAIN, ['--port', String(port), '--no-state', '--serial', serial, ...extra], /\ntry: .*127\.0\.0\.1:(\d+)/);
}

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

/** One exchange on a fresh connection. */
export function exchange(port: number, method: string, target: string, body?: string | Uint8Array, headers: http.OutgoingHttpHeaders = {}): Promise<Raw> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: Date.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const json = (r: Raw): any => JSON.parse(r.body.toString('utf8'));

/** Poll `f` every 100 ms until it returns true; resolves with the milliseconds it took, rejects past `ms`. */
export async function within(ms: number, f: () => Promise<boolean>, what: string): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await f().catch(() => false)) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A TCP relay to `target` that records every byte the target sends back. */
export interface Relay {
  port: number;
  recorded: () => Buffer;
  close: () => void;
}

export function relay(target: number): Promise<Relay> {
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (d: Buffer) => { chunks.push(d); client.write(d); });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: (server.address() as net.AddressInfo).port,
    recorded: () => Buffer.concat(chunks),
    close: () => { server.close(); for (const s of sockets) s.destroy(); },
  })));
}

/** The module sent, as one of its answers, exactly this status and body (found in what it sent). */
export function sentByModule(recorded: Buffer, status: number, body: Buffer): boolean {
  let at = recorded.indexOf(body);
  while (at >= 0) {
    const head = recorded.subarray(recorded.lastIndexOf('HTTP/1.1 ', at), at).toString('latin1');
    if (head.startsWith(`HTTP/1.1 ${status} `) && head.endsWith('\r\n\r\n') && new RegExp(`content-length: ${body.length}\\r\\n`, 'i').test(head)) return true;
    at = recorded.indexOf(body, at + 1);
  }
  return false;
}
