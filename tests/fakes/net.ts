// The fake world the device code runs in under Node: one virtual clock (Time.ticks, Timer), an event
// queue standing in for the ECMA-419 event loop, TCP listeners by port, and clients that connect to
// them. Nothing happens behind a test's back: callbacks run when the test calls run() or advance(ms),
// in the order they were caused, so a scenario (a peer that stops reading, a byte every few seconds...)
// plays the same way every time.

import type Listener from './listener';
import type { LwipHeap } from './lwip-heap';
import type TCP from './tcp';

interface FakeTimer {
  id: number;
  due: number;
  interval: number;
  repeat: boolean;
  callback: (t: unknown) => void;
}

/** Bytes in flight from one side to the other. */
export class Pipe {
  private chunks: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    if (!bytes.length) return;
    this.chunks.push(bytes.slice());
    this.length += bytes.length;
  }
  /** Take up to `n` bytes into `into` (from its start); returns how many. */
  take(into: Uint8Array, n: number): number {
    let done = 0;
    while (done < n && this.chunks.length) {
      const head = this.chunks[0];
      const k = Math.min(n - done, head.length);
      into.set(head.subarray(0, k), done);
      done += k;
      if (k === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(k);
    }
    this.length -= done;
    return done;
  }
  all(): Uint8Array {
    const out = new Uint8Array(this.length);
    this.take(out, this.length);
    return out;
  }
}

/** One TCP connection between a FakeClient and the server-side TCP that adopts it. */
export class Conn {
  server: TCP | null = null;
  /** Client to server, not yet read by the server. */
  readonly up = new Pipe();
  /** Server to client, not yet taken by the client (bounded by `window`). */
  readonly down = new Pipe();
  serverClosed = false;
  clientClosed = false;
  /** The client half-closed (sent its FIN): it sends nothing more but still reads. */
  clientFin = false;
  /**
   * What the server's socket does on that FIN: 'lwip' as the SDK's lwIP socket (the socket is not
   * ready from the FIN on, before the bytes before it are read: writes throw "not ready"), or
   * 'writable' as a stack that lets the server answer a half-closed peer.
   */
  finMode: 'lwip' | 'writable' = 'lwip';
  /** The client's address, as the server's socket reports it (remoteAddress). */
  address = '192.0.2.1';
  constructor(readonly client: FakeClient, readonly window: number) {}
  /** Bytes the server may write now. */
  writable(): number {
    return this.serverClosed || this.clientClosed ? 0 : this.window - this.down.length;
  }
}

export class FakeClient {
  readonly conn: Conn;
  /** Everything the server sent that this client has taken. */
  received = '';
  /** A client that does not read leaves the server's bytes in the network (back-pressure). */
  private reading = true;
  /** Called each time the client has taken bytes (a client that closes once its answer is whole). */
  onReceived: ((c: FakeClient) => void) | null = null;
  constructor(private readonly net: FakeNet, window: number) {
    this.conn = new Conn(this, window);
  }
  send(data: string | Uint8Array): void {
    if (this.conn.clientClosed) throw new Error('client closed');
    this.conn.up.push(typeof data === 'string' ? latin1(data) : data);
    this.net.notifyReadable(this.conn);
  }
  setReading(on: boolean): void {
    this.reading = on;
    if (on) this.net.later(() => this.take());
  }
  /** Take what the server sent (a reading client does this whenever bytes arrive). */
  take(): void {
    if (!this.reading || !this.conn.down.length) return;
    this.received += fromLatin1(this.conn.down.all());
    this.net.notifyWritable(this.conn);
    if (this.onReceived) this.onReceived(this);
  }
  /** Half-close: the FIN goes out after what was sent; the client goes on reading. */
  halfClose(): void {
    if (this.conn.clientFin || this.conn.clientClosed) return;
    this.conn.clientFin = true;
    const s = this.conn.server;
    if (s) s.fin(); // lwIP handles the FIN before it hands over the bytes that came with it
    this.net.later(() => { const t = this.conn.server; if (t && !this.conn.serverClosed && !this.conn.up.length) t.fireError(); });
  }
  get closedByServer(): boolean {
    return this.conn.serverClosed;
  }
  close(): void {
    if (this.conn.clientClosed) return;
    this.conn.clientClosed = true;
    this.net.later(() => { const s = this.conn.server; if (s && !this.conn.serverClosed) s.fireError(); });
  }
}

export function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

function fromLatin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export class FakeNet {
  /** Milliseconds of the virtual clock (Time.ticks). */
  now = 1000;
  readonly listeners = new Map<number, Listener>();
  /** Lines the device code traced. */
  traces: string[] = [];
  /** The Pico W's lwIP heap that server sockets write through (tests/fakes/lwip-heap.ts), or null: roomy. */
  lwip: LwipHeap | null = null;
  /** net.lwip: the SDK's own write (a write the heap refuses is lost and fails the socket), not the project's. */
  sdkWrites = false;
  /** What stopped the chip (an lwIP assertion's panic), or null: the chip runs. */
  panic: string | null = null;
  /** net.lwip: a listener was closed, so its pcb's memory is in both of lwIP's pools (tests/fakes/listener.ts). */
  listenPcbFreedTwice = false;
  /** Whether clients reach the module now (tests/fakes/wifi.ts: not while its station has no address). */
  reachable: () => boolean = () => true;
  private queue: (() => void)[] = [];
  private timers: FakeTimer[] = [];
  private nextId = 1;

  /** Back to an empty world (between tests). */
  reset(): void {
    this.now = 1000;
    this.lwip = null;
    this.sdkWrites = false;
    this.panic = null;
    this.listenPcbFreedTwice = false;
    this.listeners.clear();
    this.traces = [];
    this.queue = [];
    this.timers = [];
  }

  later(f: () => void): void {
    this.queue.push(f);
  }

  /** Run queued callbacks until nothing is left (bounded: a loop that never settles fails). */
  run(): void {
    for (let n = 0; ; n++) {
      if (n > 1e6) throw new Error('fake net: events never settle');
      if (this.queue.length) {
        this.queue.shift()!();
        continue;
      }
      // A timer due now (Timer.set(f, 0)) runs as soon as the events before it have, as in the real loop.
      const due = this.timers.find((t) => !t.repeat && t.due <= this.now);
      if (!due) return;
      this.timers.splice(this.timers.indexOf(due), 1);
      due.callback(due);
    }
  }

  /** Let `ms` of virtual time pass, firing timers in order and running what they cause. */
  advance(ms: number): void {
    const end = this.now + ms;
    this.run();
    for (;;) {
      let next: FakeTimer | null = null;
      for (const t of this.timers) if (t.due <= end && (!next || t.due < next.due)) next = t;
      if (!next) break;
      this.now = next.due;
      if (next.repeat) next.due += Math.max(1, next.interval);
      else this.timers.splice(this.timers.indexOf(next), 1);
      next.callback(next);
      this.run();
    }
    this.now = end;
  }

  setTimer(callback: (t: unknown) => void, ms: number, repeat: boolean): FakeTimer {
    const t = { id: this.nextId++, due: this.now + Math.max(0, ms), interval: ms, repeat, callback };
    this.timers.push(t);
    return t;
  }

  /**
   * Timer.schedule: with an interval, the timer fires `ms` from now and then every `repeat` ms (0: once);
   * without, it stays made but never fires until scheduled again (modules/base/timer/mc/timer.c:178-196).
   */
  scheduleTimer(t: unknown, ms?: number, repeat = 0): void {
    const timer = t as FakeTimer;
    const k = this.timers.indexOf(timer);
    if (ms === undefined) {
      if (k >= 0) this.timers.splice(k, 1);
      return;
    }
    timer.due = this.now + Math.max(0, ms);
    timer.repeat = repeat > 0;
    timer.interval = repeat > 0 ? repeat : ms;
    if (k < 0) this.timers.push(timer);
  }

  clearTimer(t: unknown): void {
    const k = this.timers.indexOf(t as FakeTimer);
    if (k >= 0) this.timers.splice(k, 1);
  }

  /** Timers still set (a test can check none is left behind). */
  pendingTimers(): number {
    return this.timers.length;
  }

  /**
   * Open a connection to the listener on `port`; `window` bytes may be in flight to the client;
   * `address` is the client's (a documentation address: no traffic leaves the process).
   */
  connect(port: number, window = 4096, address = '192.0.2.1'): FakeClient {
    if (!this.reachable()) throw new Error('fake net: the module has no network address');
    const l = this.listeners.get(port);
    if (!l) throw new Error(`fake net: nothing listens on port ${port}`);
    const c = new FakeClient(this, window);
    c.conn.address = address;
    l.arrive(c.conn);
    return c;
  }

  notifyReadable(conn: Conn): void {
    this.later(() => { const s = conn.server; if (s && !conn.serverClosed && conn.up.length) s.fireReadable(conn.up.length); });
  }

  notifyWritable(conn: Conn): void {
    this.later(() => { const s = conn.server; if (s && !conn.serverClosed) s.fireWritable(conn.writable()); });
  }

  notifyDelivered(conn: Conn): void {
    this.later(() => conn.client.take());
  }
}

/** The one fake world the fake modules share. */
export const net = new FakeNet();
