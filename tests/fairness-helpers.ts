// Attackers and honest clients for the fairness tests against the simulator (tests/server-fairness)
// and the host server (tests/host-server-front).
import { strict as assert } from 'node:assert';
import * as net from 'node:net';

export type AttackKind = 'slowloris' | 'slow-body' | 'idle';

const HEAD = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n';
const SLOW_BODY_HEAD = 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Wait until `done()` holds, polling every 10 ms, for at most `ms`. */
export async function until(done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(10);
  }
}

/** A pool of attacker sockets of one kind, re-opened when the server drops them (reopen()). */
export class AttackerPool {
  readonly sockets: net.Socket[] = [];
  private readonly dropped = new Set<net.Socket>();
  refused = 0; // answered 503
  timedOut = 0; // answered 408
  /** The longest an attacker lived, from its first bytes sent to the server's close (ms). */
  longestMs = 0;

  constructor(private readonly port: number, private readonly kind: AttackKind) {}

  /** Open n attackers; resolves when every one is connected and has sent its first bytes. */
  async open(n: number): Promise<void> {
    const ready: Promise<void>[] = [];
    for (let i = 0; i < n; i++) ready.push(this.one());
    await Promise.all(ready);
  }

  /** Re-open every attacker the server dropped (a slowloris tool's next cycle). */
  async reopen(): Promise<number> {
    const n = this.dropped.size;
    this.dropped.clear();
    await this.open(n);
    return n;
  }

  /** Send one more byte on every live slowloris or slow-body socket (the trickle). */
  trickle(): void {
    for (const s of this.sockets) if (!this.dropped.has(s) && !s.destroyed && this.kind !== 'idle') s.write(this.kind === 'slowloris' ? 'X' : ' ');
  }

  /** Attackers the server has dropped (503, 408 or evicted) and not yet re-opened. */
  get droppedCount(): number {
    return this.dropped.size;
  }

  destroy(): void {
    for (const s of this.sockets) s.destroy();
  }

  private one(): Promise<void> {
    return new Promise((resolve) => {
      const s = net.connect(this.port, '127.0.0.1');
      this.sockets.push(s);
      s.on('error', () => undefined);
      s.on('data', (d) => {
        const text = d.toString('latin1');
        if (text.startsWith('HTTP/1.1 503')) this.refused++;
        if (text.startsWith('HTTP/1.1 408')) this.timedOut++;
      });
      let sentAt = 0;
      const drop = (): void => {
        if (this.dropped.has(s)) return;
        this.dropped.add(s);
        if (sentAt) this.longestMs = Math.max(this.longestMs, Date.now() - sentAt);
        s.destroy();
      };
      s.on('end', drop);
      s.on('close', drop);
      s.on('connect', () => {
        s.write(this.kind === 'slowloris' ? 'G' : this.kind === 'slow-body' ? SLOW_BODY_HEAD : HEAD, () => { sentAt = Date.now(); resolve(); });
      });
    });
  }
}

export interface Attempt { status: number; retryAfter: number; ms: number }

/** One honest GET on a new connection (Connection: close): its status and real latency. */
export function honestRequest(port: number): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    s.on('connect', () => s.write('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    s.on('data', (d) => { text += d.toString('latin1'); });
    s.on('error', reject);
    s.on('end', () => {
      s.destroy();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const m = /\r\nRetry-After: (\d+)\r\n/.exec(text);
      resolve({ status: Number(text.slice(9, 12)) || 0, retryAfter: m ? Number(m[1]) : 0, ms });
    });
  });
}

export interface Figures { requests: number; succeeded: number; first503: number; worstWaitMs: number; worstAttemptMs: number }

/** A server on a fake clock: its port, the slots it holds, and `advance` (the clock moves, then its timer's check runs). */
export interface FakeClockServer {
  port: number;
  slots(): number;
  advance(ms: number): void;
}

/**
 * 48 attackers of one kind against a cap of 16, re-opening what the server drops every 5 s of
 * (fake) time; 30 honest requests, one every 500 ms, each retried after Retry-After on a 503.
 */
export async function attackAtCap(kind: AttackKind, server: FakeClockServer): Promise<Figures> {
  let fake = 0;
  const advance = (ms: number): void => { fake += ms; server.advance(ms); };
  const pool = new AttackerPool(server.port, kind);
  const f: Figures = { requests: 0, succeeded: 0, first503: 0, worstWaitMs: 0, worstAttemptMs: 0 };
  try {
    await pool.open(48);
    await until(() => server.slots() === 16 && pool.droppedCount === 32);
    for (let round = 0; round < 30; round++) {
      advance(500);
      pool.trickle();
      if (round % 10 === 9) {
        await pool.reopen();
        await sleep(30);
      }
      f.requests++;
      const firstTry = fake;
      for (let tries = 0; tries < 5; tries++) {
        const a = await honestRequest(server.port);
        f.worstAttemptMs = Math.max(f.worstAttemptMs, a.ms);
        if (a.status === 200) {
          f.succeeded++;
          break;
        }
        assert.deepEqual([a.status, a.retryAfter], [503, 1], `round ${round}`);
        if (tries === 0) f.first503++;
        advance(a.retryAfter * 1000);
      }
      f.worstWaitMs = Math.max(f.worstWaitMs, fake - firstTry);
      assert.ok(server.slots() <= 16);
    }
  } finally {
    pool.destroy();
  }
  return f;
}

/** Every honest request succeeded, within 2 s (of the fake clock) and each answer within 2 s (real). */
export function assertFair(kind: AttackKind, f: Figures): void {
  assert.equal(f.succeeded, f.requests);
  assert.ok(f.worstWaitMs <= 2000, `waited ${f.worstWaitMs} ms`);
  assert.ok(f.worstAttemptMs < 2000, `an answer took ${f.worstAttemptMs} ms`);
  if (kind === 'idle') assert.equal(f.first503, 0, 'idle connections are always evicted first');
}
