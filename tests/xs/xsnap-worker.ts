// A small Node-side driver for @agoric/xsnap's `xsnap-worker` binary, spoken to directly over its
// netstring protocol so that no SES lockdown (`@endo/init`) enters the mocha process.
//
// Protocol (node_modules/@agoric/xsnap/src/xsnap.js): the parent writes netstrings `<len>:<payload>,`
// to the worker's fd 3 and reads netstrings from its fd 4.
//   e<code>   evaluate a script                 -> `.`<meter JSON>\x01  or  `!`<error text>
//   ?<bytes>  call globalThis.handleCommand(ArrayBuffer) -> `.`<meter JSON>\x01<reply bytes>
//   q         quit
// While a request runs the worker may itself send `?<bytes>` (issueCommand from XS); the driver
// answers `/` + whatever `onWorkerCommand` returns (an empty reply by default).
//
// One request is in flight at a time (the protocol has no ids); calls queue. Every request is
// bounded by a timeout, the worker's exit rejects whatever is pending, and close() always ends with
// the child gone (q + EOF, then SIGKILL after a grace period) so mocha can exit.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { sha256Service } from './sha256-service';

export interface XsMeter {
  /** Computrons used by the request (xsnap's `compute`). */
  compute: number;
  /** Bytes the XS machine has allocated in total (chunks + slots). */
  allocate: number;
  /** Live heap slots after the request. */
  currentHeapCount: number;
  /** Everything else the worker reported. */
  raw: Record<string, unknown>;
}

export interface XsResult {
  reply: Uint8Array;
  meter: XsMeter;
}

export interface XsnapWorkerOptions {
  /** Worker name (first argv); must not start with '-'. */
  name?: string;
  /** Computron limit per request (`-l N`); 0 = unlimited (the default). */
  meteringLimit?: number;
  /** Path to xsnap-worker; defaults to the one inside node_modules/@agoric/xsnap. */
  bin?: string;
  /** Per-request timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Answer for commands the worker issues to the parent (default: sha256Service, for tests/xs/xs-sha256.ts). */
  onWorkerCommand?: (bytes: Uint8Array) => Uint8Array;
  /** Where the worker's stdout/stderr go ('inherit' shows XS `print` output). */
  stdio?: 'inherit' | 'ignore';
}

const OK = 0x2e; // '.'
const ERR = 0x21; // '!'
const QUERY = 0x3f; // '?'
const SEP = 0x01;

/** Locates xsnap-worker from this file, in tests/xs/ or build/tests/xs/ (first node_modules upwards). */
export function defaultWorkerPath(): string {
  const platform = process.platform === 'darwin' ? 'mac' : 'lin';
  const rel = path.join('node_modules', '@agoric', 'xsnap', 'xsnap-native', 'xsnap', 'build', 'bin', platform, 'release', 'xsnap-worker');
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, rel);
      if (fs.existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`xsnap-worker not found above ${__dirname} or ${process.cwd()} (${rel})`);
}

/** Encodes one netstring `<len>:<payload>,`. */
/** A heap entry's command: an opcode and a 32-bit count, big-endian. */
export const opWithCount = (op: number, n: number): Uint8Array => Uint8Array.of(op, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
export function netstring(parts: readonly Uint8Array[]): Buffer {
  let len = 0;
  for (const p of parts) len += p.byteLength;
  return Buffer.concat([Buffer.from(`${len}:`, 'latin1'), ...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)), Buffer.from(',', 'latin1')]);
}

/** Incremental netstring decoder. */
export class NetstringReader {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly onMessage: (msg: Buffer) => void, private readonly maxLength = 64 * 1024 * 1024) {}
  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const colon = this.buf.indexOf(0x3a);
      if (colon < 0) {
        if (this.buf.length > 20) throw new Error('netstring: no length prefix');
        return;
      }
      const lenText = this.buf.subarray(0, colon).toString('latin1');
      if (!/^\d+$/.test(lenText)) throw new Error(`netstring: bad length ${JSON.stringify(lenText)}`);
      const len = Number(lenText);
      if (len > this.maxLength) throw new Error(`netstring: message of ${len} bytes is too long`);
      const end = colon + 1 + len;
      if (this.buf.length < end + 1) return;
      if (this.buf[end] !== 0x2c) throw new Error('netstring: missing trailing comma');
      const msg = Buffer.from(this.buf.subarray(colon + 1, end)); // copy: buf is reused
      this.buf = this.buf.subarray(end + 1);
      this.onMessage(msg);
    }
  }
}

interface Pending {
  resolve(result: XsResult): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  what: string;
}

function parseMeter(text: string): XsMeter {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const num = (k: string): number => (typeof raw[k] === 'number' ? (raw[k] as number) : NaN);
  return { compute: num('compute'), allocate: num('allocate'), currentHeapCount: num('currentHeapCount'), raw };
}

export class XsnapWorker {
  private child: ChildProcess | undefined;
  private toWorker: Writable | undefined;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private exitError: Error | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly opts: Required<Omit<XsnapWorkerOptions, 'onWorkerCommand'>> & Pick<XsnapWorkerOptions, 'onWorkerCommand'>;

  constructor(options: XsnapWorkerOptions = {}) {
    this.opts = {
      name: options.name ?? 'xs-guard-rail',
      meteringLimit: options.meteringLimit ?? 0,
      bin: options.bin ?? defaultWorkerPath(),
      timeoutMs: options.timeoutMs ?? 30_000,
      stdio: options.stdio ?? 'inherit',
      onWorkerCommand: options.onWorkerCommand ?? sha256Service(),
    };
    if (this.opts.name.startsWith('-')) throw new Error('worker name cannot start with "-"');
  }

  get running(): boolean {
    return this.child !== undefined && this.exitError === undefined;
  }

  /** Spawns the worker and checks it answers (evaluates an empty script). */
  async start(): Promise<void> {
    if (this.child) throw new Error('xsnap worker already started');
    const { name, bin, meteringLimit, stdio } = this.opts;
    const child = spawn(bin, [name, '-l', String(meteringLimit)], {
      stdio: ['ignore', stdio, stdio, 'pipe', 'pipe'],
    });
    this.child = child;
    const toWorker = child.stdio[3] as Writable;
    const fromWorker = child.stdio[4] as Readable;
    this.toWorker = toWorker;
    // EPIPE after the worker died surfaces through 'exit'; don't let it become an uncaught error.
    toWorker.on('error', () => {});
    const reader = new NetstringReader((msg) => this.onMessage(msg));
    fromWorker.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (e) {
        this.fail(e instanceof Error ? e : new Error(String(e)));
        child.kill('SIGKILL');
      }
    });
    fromWorker.on('error', () => {});
    this.exited = new Promise<void>((resolve) => {
      child.once('error', (err) => {
        this.fail(new Error(`xsnap worker ${name} failed to start: ${err.message}`));
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.fail(new Error(`xsnap worker ${name} exited (${signal ? `signal ${signal}` : `code ${code}${exitMeaning(code)}`})`));
        resolve();
      });
    });
    await this.evaluate('');
  }

  /** Evaluates a script in the worker's global scope. */
  evaluate(code: string): Promise<XsResult> {
    return this.request(Buffer.from(`e${code}`, 'utf8'), 'evaluate');
  }

  /** Calls the worker's globalThis.handleCommand with `bytes`; resolves with its reply. */
  command(bytes: Uint8Array): Promise<XsResult> {
    return this.request(Buffer.concat([Buffer.from('?'), bytes]), 'command');
  }

  /** Calls handleCommand with `bytes` and parses its reply as the entry's JSON report. */
  async report<T>(bytes: Uint8Array | readonly number[]): Promise<T> {
    return JSON.parse(Buffer.from((await this.command(Uint8Array.from(bytes))).reply).toString('latin1')) as T;
  }

  /** Live slots now: the heap count right after a full collection. */
  async liveSlots(): Promise<number> {
    await this.evaluate('gc()');
    return (await this.evaluate('')).meter.currentHeapCount;
  }

  /** Ends the worker: `q`, EOF, then SIGKILL if it has not exited within `graceMs`. Idempotent. */
  async close(graceMs = 2000): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      if (this.exitError === undefined && this.toWorker && !this.toWorker.destroyed) {
        this.toWorker.write(netstring([Buffer.from('q')]));
        this.toWorker.end();
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    } else {
      await this.exited;
    }
    this.fail(new Error('xsnap worker closed'));
    for (const s of [child.stdio[3], child.stdio[4]]) (s as Readable | Writable | null)?.destroy();
  }

  private request(payload: Buffer, what: string): Promise<XsResult> {
    const run = (): Promise<XsResult> =>
      new Promise<XsResult>((resolve, reject) => {
        if (!this.child) return reject(new Error('xsnap worker not started'));
        if (this.exitError) return reject(this.exitError);
        const timer = setTimeout(() => {
          this.fail(new Error(`xsnap worker: ${what} timed out after ${this.opts.timeoutMs} ms`));
          this.child?.kill('SIGKILL');
        }, this.opts.timeoutMs);
        this.pending = { resolve, reject, timer, what };
        this.toWorker!.write(netstring([payload]));
      });
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private onMessage(msg: Buffer): void {
    const p = this.pending;
    if (msg.length === 0) {
      this.fail(new Error('xsnap protocol error: empty message'));
      this.child?.kill('SIGKILL');
      return;
    }
    if (msg[0] === QUERY) {
      const answer = this.opts.onWorkerCommand?.(new Uint8Array(msg.subarray(1))) ?? new Uint8Array(0);
      this.toWorker!.write(netstring([Buffer.from('/'), answer]));
      return;
    }
    if (!p) {
      this.fail(new Error(`xsnap protocol error: unsolicited message ${JSON.stringify(msg.subarray(0, 80).toString('latin1'))}`));
      this.child?.kill('SIGKILL');
      return;
    }
    this.pending = undefined;
    clearTimeout(p.timer);
    if (msg[0] === OK) {
      const sep = msg.indexOf(SEP, 1);
      const meterText = sep < 0 ? '{}' : msg.subarray(1, sep).toString('utf8');
      let meter: XsMeter;
      try {
        meter = parseMeter(meterText || '{}');
      } catch {
        p.reject(new Error(`xsnap protocol error: bad meter data ${JSON.stringify(meterText)}`));
        return;
      }
      const reply = new Uint8Array(msg.subarray(sep < 0 ? 1 : sep + 1));
      p.resolve({ reply, meter });
    } else if (msg[0] === ERR) {
      p.reject(new Error(`XS exception in ${p.what}: ${msg.subarray(1).toString('utf8')}`));
    } else {
      p.reject(new Error(`xsnap protocol error: unknown message ${JSON.stringify(msg.subarray(0, 80).toString('latin1'))}`));
      this.child?.kill('SIGKILL');
    }
  }

  /** Records a terminal error and rejects the request in flight. */
  private fail(err: Error): void {
    if (!this.exitError) this.exitError = err;
    const p = this.pending;
    if (p) {
      this.pending = undefined;
      clearTimeout(p.timer);
      p.reject(err);
    }
  }
}

function exitMeaning(code: number | null): string {
  const meanings: Record<number, string> = {
    1: ': bad argument usage',
    2: ': I/O error',
    11: ': not enough memory',
    12: ': stack overflow',
    15: ': unhandled exception',
    16: ': property (key) name space exhausted',
    17: ': too much computation',
  };
  return code === null ? '' : meanings[code] ?? '';
}
