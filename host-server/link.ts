// One module server the host server talks to (an origin, http://addr:port; a simulator may serve
// several modules there): an undici Pool of at most `connections` sockets (the module's budget less
// one), a bounded queue of requests waiting for one of them, and what the module last said it is
// (GET /api/v1/device), kept fresh by a probe once a second while nothing else was heard from it.

import { Pool, errors } from 'undici';
import { Exchange, type Exchanged } from './exchange';
import type { RelayedStream } from './relayed-stream';
import { aErrConnection, aErrResource, aErrTimeout } from '../hal/kit/errors';
import { tokenFor } from './tokens';
import { ModuleAuth } from './module-auth';

/** A module that does not answer within this long: 504 (docs/lab.md). */
export const ANSWER_TIMEOUT_MS = 5000;
/** Larger than any legitimate finite answer (a full device description is tens of KiB): 502. */
export const ANSWER_MAX = 1 << 20;
export const PROBE_INTERVAL_MS = 1000;
export const PROBE_TIMEOUT_MS = 2000;
/** Retry-After (s) of a 503 when a module's queue is full. */
export const QUEUE_RETRY_S = 1;

export interface ModuleEntry {
  serial: number;
  model: number | null;
  module: number | null;
}

export interface Outgoing {
  method: string;
  /** The request target as the client sent it (path and query). */
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** A module's answer (a finite body read whole, or an event stream to relay), or why there is none. */
export type Outcome =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
  | { kind: 'stream'; status: number; headers: Record<string, string | string[] | undefined>; body: RelayedStream }
  | { kind: 'error'; code: number; message: string; retryAfter?: number };

interface Waiter {
  go: () => void;
}

const TAKEN = Promise.resolve(true);

export class ModuleLink {
  readonly origin: string;
  /** host:port, as listed and as a Prometheus target. */
  readonly address: string;
  online = false;
  /** When the module last answered anything (ms since the epoch), 0 when never. */
  lastSeen = 0;
  /** The modules it answers for, from its last good GET /api/v1/device. */
  entries: ModuleEntry[] = [];
  /** What its announcement claimed, for listing it before it has ever answered. */
  hint: ModuleEntry | null = null;
  /** Why it is offline ('' when online). */
  problem = '';
  private readonly pool: Pool;
  private readonly maxActive: number;
  private readonly queueMax: number;
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private probing = false;
  private closed = false;
  /** The tokens of its modules, sent as HTTP Digest (a nonce per token). */
  private readonly auth = new ModuleAuth();

  /** The operator's tokens (--tokens): a module that wants one for reads gets its own when probed. */
  constructor(origin: string, moduleConnections: number, queueMax: number, private readonly tokens: ReadonlyMap<number | '*', string> = new Map()) {
    this.origin = origin;
    this.address = origin.slice('http://'.length);
    this.maxActive = moduleConnections - 1;
    this.queueMax = queueMax;
    // Answers are read under our own deadline; undici's own timeouts are the backstop.
    this.pool = new Pool(origin, {
      connections: this.maxActive, pipelining: 1, connectTimeout: PROBE_TIMEOUT_MS,
      headersTimeout: ANSWER_TIMEOUT_MS + 1000, bodyTimeout: 0, keepAliveTimeout: 10000, maxHeaderSize: 16384,
    });
  }

  /** Requests answering now and waiting (tests, the listing). */
  load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Send one request: a turn on a connection, the answer within `timeoutMs` of now, or the error. */
  async send(out: Outgoing, stream: boolean, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Outcome> {
    const deadline = Date.now() + timeoutMs;
    const turn = this.turn(timeoutMs);
    if (turn === null) {
      return { kind: 'error', code: aErrResource, retryAfter: QUEUE_RETRY_S,
        message: `module at ${this.address} is busy: ${this.maxActive} requests answering and ${this.queueMax} waiting; try again` };
    }
    if (!(await turn)) return this.timeout(timeoutMs);
    const left = Math.max(1, deadline - Date.now()); // undici's own deadlines: what is left of ours
    const r = await new Promise<Exchanged>((resolve) => {
      this.pool.dispatch({ method: out.method as 'GET', path: out.path, headers: out.headers, body: out.body,
        headersTimeout: left, bodyTimeout: stream ? 0 : left }, new Exchange(resolve, stream, ANSWER_MAX));
    });
    if (r.kind === 'stream') {
      r.body.whenClosed(() => this.release());
    } else {
      this.release();
    }
    if (r.kind === 'failed') return this.failed(r.error, timeoutMs);
    this.heard();
    if (r.kind === 'too-large') return { kind: 'error', code: aErrConnection, message: `module at ${this.address} sent an answer larger than ${ANSWER_MAX} bytes: refused` };
    return r;
  }

  /** `send` with the operator's `token` for the module ('' for none): HTTP Digest (host-server/module-auth.ts). */
  sendWithToken(token: string, out: Outgoing, stream: boolean, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Outcome> {
    return this.auth.send(token, out.method, out.path, out.body?.length ?? 0, (authorization, empty) =>
      this.send({ ...out, headers: authorization ? { ...out.headers, authorization } : out.headers, body: empty ? Buffer.alloc(0) : out.body },
        stream, timeoutMs));
  }

  /**
   * A connection for one request: at once (a resolved true) when one is free, else a place in the
   * queue that resolves true when a connection frees or false after `timeoutMs`; null when full.
   */
  private turn(timeoutMs: number): Promise<boolean> | null {
    if (this.active < this.maxActive) {
      this.active++;
      return TAKEN;
    }
    if (this.waiting.length >= this.queueMax) return null;
    return new Promise((resolve) => {
      const w: Waiter = { go: () => { clearTimeout(timer); resolve(true); } };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(w);
    });
  }

  /** A connection is free: the next waiter takes it (active stays the same), else it is returned. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.active--;
  }

  private timeout(ms: number): Outcome {
    return { kind: 'error', code: aErrTimeout, message: `module at ${this.address} did not answer within ${ms / 1000} s` };
  }

  /** A request that got no HTTP answer: why, and whether the module is now offline. */
  private failed(e: Error, timeoutMs: number): Outcome {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (e instanceof errors.HTTPParserError || code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) {
      return { kind: 'error', code: aErrConnection, message: `module at ${this.address} answered something that is not HTTP (${e.message})` };
    }
    if (e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError) return this.timeout(timeoutMs);
    const reason = code && code !== 'UND_ERR_SOCKET' ? code : e.message;
    this.down(`cannot reach it: ${reason}`);
    return { kind: 'error', code: aErrConnection, message: `module at ${this.address} cannot be reached: ${reason}` };
  }

  heard(): void {
    this.lastSeen = Date.now();
  }

  down(problem: string): void {
    this.online = false;
    this.problem = problem;
  }

  /** Ask the module what it is, unless it answered something within the last interval. */
  async probe(): Promise<void> {
    if (this.probing || this.closed || (this.online && Date.now() - this.lastSeen < PROBE_INTERVAL_MS)) return;
    this.probing = true;
    try {
      let o = await this.send({ method: 'GET', path: '/api/v1/device', headers: {}, body: null }, false, PROBE_TIMEOUT_MS);
      if (o.kind === 'answer' && o.status === 401) o = await this.probeWithToken();
      if (o.kind === 'error') {
        if (o.code !== aErrResource) this.down(o.message);
        return;
      }
      const list = o.kind === 'answer' && o.status === 200 ? readListing(o.body) : null;
      if (o.kind === 'answer' && o.status === 401) {
        this.down('it asks for a token for reads, and the --tokens file gives none it takes (a line for its serial, or *)');
        return;
      }
      if (!list) {
        this.down('its GET /api/v1/device answer is not a device list');
        return;
      }
      this.entries = list;
      this.online = true;
      this.problem = '';
    } finally {
      this.probing = false;
    }
  }

  /**
   * The probe again with the token of the serial it last answered for (or announced), else the `*`
   * one: only a module that asked for a token (401) is sent one.
   */
  private probeWithToken(): Promise<Outcome> {
    const known = this.entries[0] ?? this.hint;
    const token = tokenFor(this.tokens, known ? known.serial : -1);
    if (token === '') return Promise.resolve({ kind: 'answer', status: 401, headers: {}, body: Buffer.alloc(0) });
    return this.sendWithToken(token, { method: 'GET', path: '/api/v1/device', headers: {}, body: null }, false, PROBE_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }
}

/** The `response` of a module's GET /api/v1/device, checked: null when it is anything else. */
export function readListing(body: Buffer): ModuleEntry[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const list = (doc as { response?: unknown } | null)?.response;
  if (!Array.isArray(list) || list.length === 0 || list.length > 256) return null;
  const out: ModuleEntry[] = [];
  for (const item of list) {
    const s = typeof item?.serialNumber === 'string' && /^0x[0-9A-Fa-f]{8}$/.test(item.serialNumber) ? parseInt(item.serialNumber, 16) : -1;
    if (s < 0) return null;
    const int = (v: unknown): number | null => (Number.isInteger(v) ? (v as number) : null);
    out.push({ serial: s, model: int(item.model), module: int(item.module) });
  }
  return out;
}
