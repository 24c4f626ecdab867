// The device's TCP server: an ECMA-419 listener feeding the same server core the desktop simulator
// runs (host-sim/server.ts): src/http/server-core.ts admits each connection to a slot or answers it
// 503, and its tick, run by one Timer, checks every connection's deadlines and ticks event streams.
// Newcomers are taken from the listener at once, but while a 503 is on its way to one of them the
// others wait as bare accepted sockets (a few slots each, no transport, no answer made, their bytes
// left in the stack), up to WAITING_MAX of them: when many clients connect at once, the module makes
// one refusal at a time instead of a transport and an answer for each. A waiting newcomer is admitted
// or refused, in order of arrival, once that 503 has gone or a slot frees (checked at each tick too).
// The tick runs only while there is something to watch (a connection, a waiting newcomer, a 503 on its
// way): an idle module's main loop sleeps until a client connects, instead of waking ten times a second.

import Listener from 'embedded:io/socket/listener';
import type TCP from 'embedded:io/socket/tcp';
import Timer from 'timer';
import type { Connection, RequestHandler } from '../http/connection';
import { ServerCore, TICK_MS, type TickWatcher } from '../http/server-core';
import { WrapSafeTicks } from './ticks';
import { DeviceTransport, READ_CHUNK } from './transport';
import type { TransportEvents } from './transport-owners';
import { SendTurns } from './send-turns';
import type { TextCodec } from '../../util/text';

export interface DeviceServerOptions {
  readonly port: number;
  readonly maxConnections: number;
  readonly idleTimeoutMs?: number;
  readonly codec: TextCodec;
  /** Monotonic milliseconds (src/device/ticks.ts); read at each tick and every hour, which keeps it exact. */
  readonly ticks?: () => number;
  /** Bytes one socket write may carry (the board profile's writeMax); 0 or absent: no pacing. */
  readonly writeMax?: number;
  /** Sockets with unacknowledged bytes at once when writes are paced (the board's sendingMax); 0: any. */
  readonly sendingMax?: number;
}

/** A reset waits at most this long for its answer to leave, then goes ahead. */
const FLUSH_WAIT_MS = 2000;
/** Time for the stack to send the FIN and the last ACKs before the chip restarts. */
const RESTART_DELAY_MS = 100;
/** Accepted sockets that may wait for a slot or their 503 while one 503 is sent; beyond them, each is refused at once. */
export const WAITING_MAX = 8;

export class DeviceServer implements TransportEvents, TickWatcher {
  readonly port: number;
  private readonly core: ServerCore;
  private readonly connections = new Map<DeviceTransport, Connection>();
  /** The transport whose bytes the core is handling now: its answer is the one a reset waits for. */
  private current: DeviceTransport | null = null;
  private readonly listener: Listener;
  private readonly timer: Timer;
  /** The one read buffer every connection's reads go through (handed on at once). */
  readonly readBuffer = new Uint8Array(READ_CHUNK);
  /** Monotonic milliseconds: Date jumps when SNTP or a clock PUT sets it, and Time.ticks wraps on ESP32. */
  private readonly ticks: () => number;
  /** The pacing of writes on a board with a small lwIP heap (the Pico W), or null. */
  readonly turns: SendTurns | null;
  /** Accepted sockets waiting for a slot or their 503, oldest first (see the top of this file). */
  private readonly waiting: TCP[] = [];
  /** Refused transports whose 503 has not gone yet. */
  private refusing = 0;
  /** Transports whose drain notice is due (transport.ts), heard at the next turn by one 0 ms timer. */
  private readonly drainNotices: DeviceTransport[] = [];
  /** admitWaiting() is running: an eviction it makes closes a socket, which must not start it again. */
  private admitting = false;
  /** The tick timer is scheduled (it is unscheduled, not cleared, while the server has nothing to watch). */
  private ticking = true;

  constructor(handler: RequestHandler, options: DeviceServerOptions) {
    this.turns = options.writeMax ? new SendTurns(options.writeMax, options.sendingMax ?? 0) : null;
    this.ticks = options.ticks ?? new WrapSafeTicks().now;
    this.core = new ServerCore(handler, {
      maxConnections: options.maxConnections, now: this.ticks, idleTimeoutMs: options.idleTimeoutMs, codec: options.codec,
    });
    // Module-level callbacks (in flash): the listener and the timer each carry their server.
    const listener = new Listener({ port: options.port, onReadable: onListenerReadable }) as OwnedListener;
    listener.owner = this;
    this.listener = listener;
    this.port = options.port;
    const timer = Timer.repeat(onServerTick, TICK_MS) as OwnedTimer;
    timer.owner = this;
    this.timer = timer;
  }

  /** Stop listening and drop every connection (a soft reset moving the REST port). */
  close(): void {
    Timer.clear(this.timer);
    // ECMA-419 §9 gives every IO class close(); the SDK's typings leave it out for Listener.
    (this.listener as unknown as { close(): void }).close();
    this.connections.forEach((c) => { c.end(); });
    this.connections.clear();
    const waiting = this.waiting;
    while (waiting.length) closeQuietly(waiting.shift()!);
  }

  /** Run `restart` once the answer now being sent has left its socket. */
  restartAfterFlush(restart: () => void): void {
    let fired = false;
    const go = (): void => {
      if (fired) return;
      fired = true;
      Timer.set(restart, RESTART_DELAY_MS);
    };
    const t = this.current;
    if (t) t.whenFlushed(go);
    else go();
    Timer.set(go, FLUSH_WAIT_MS); // a peer that never reads must not hold the reset off for ever
  }

  data(t: DeviceTransport, bytes: Uint8Array): void {
    const c = this.connections.get(t);
    if (!c) return;
    this.current = t;
    try {
      c.receive(bytes);
    } finally {
      this.current = null;
    }
  }

  /** The socket took bytes: a streamed description goes on (and the requests held behind it, a reset among them). */
  drained(t: DeviceTransport): void {
    const c = this.connections.get(t);
    if (!c) return;
    this.current = t;
    try {
      c.drained();
    } finally {
      this.current = null;
    }
  }

  end(t: DeviceTransport): void {
    const c = this.connections.get(t);
    if (c) c.end();
  }

  closed(t: DeviceTransport): void {
    const c = this.connections.get(t);
    if (c) {
      this.core.closed(c); // however the socket went, its event stream (if any) is released
      this.connections.delete(t);
    } else if (this.refusing > 0) this.refusing--; // a refused socket's 503 has gone
    this.admitWaiting(); // a slot, or the one refusal at a time, is free
  }

  /** TransportEvents: one 0 ms timer for every transport whose socket took bytes. */
  noticeDrain(t: DeviceTransport): void {
    const list = this.drainNotices;
    list.push(t);
    if (list.length === 1) (Timer.set(onDrainNotices, 0) as OwnedTimer).owner = this;
  }

  /** The drain timer fired: each transport hears its notice, and the list is emptied in place (no new array per turn). */
  drainNoticesDue(): void {
    const list = this.drainNotices;
    // A notice added while these are heard (the list was not empty: no timer set for it) is heard here too.
    for (let i = 0; i < list.length; i++) list[i].drainNoticed();
    list.length = 0;
  }

  /** The listener's onReadable: `requests` sockets wait to be accepted. */
  accept(listener: Listener, requests: number): void {
    for (let i = 0; i < requests; i++) {
      const socket = listener.read() as TCP | undefined;
      if (!socket) break;
      this.waiting.push(socket);
    }
    if (!this.ticking && this.waiting.length) {
      this.ticking = true;
      Timer.schedule(this.timer, TICK_MS, TICK_MS);
    }
    this.admitWaiting();
  }

  /**
   * The waiting sockets, oldest first: each gets a slot (an idle or stale one taken for it), or its 503
   * when no 503 is being sent already (or too many wait); the others wait on.
   */
  private admitWaiting(): void {
    if (this.admitting) return;
    this.admitting = true;
    try {
      this.admitEach();
    } finally {
      this.admitting = false;
    }
  }

  private admitEach(): void {
    const waiting = this.waiting;
    while (waiting.length) {
      const room = this.core.makeRoom();
      if (!room && this.refusing > 0 && waiting.length <= WAITING_MAX) return;
      const socket = waiting.shift()!;
      // Read before the transport adopts the socket: the accepted object is detached then.
      const peer = socket.remoteAddress ?? '';
      let t: DeviceTransport;
      try {
        t = new DeviceTransport(socket, this);
      } catch (e) {
        trace(`accept failed: ${(e as Error).message}\n`);
        closeQuietly(socket);
        continue;
      }
      if (room) this.connections.set(t, this.core.admitted(t, peer));
      else {
        // Refused (503): no Connection; the transport answers, drains and closes on its own.
        this.refusing++;
        this.core.refuse(t);
      }
    }
  }

  /** TickWatcher: the tick is about to check `c`. */
  before(c: Connection): void {
    this.current = c.transport as DeviceTransport;
  }

  /** The timer's tick. */
  tick(): void {
    this.ticks(); // the clock's reading (it is also read every hour while the tick sleeps: ticks.ts)
    if (this.turns) this.turns.resume(); // a write lwIP's heap refused is made again
    // A tick may answer requests held behind a streamed description: `current` is their transport.
    this.core.tick(this);
    this.current = null;
    if (this.waiting.length) this.admitWaiting(); // a connection may have gone idle since
    if (this.connections.size === 0 && this.waiting.length === 0 && this.refusing === 0) {
      this.ticking = false;
      Timer.schedule(this.timer); // nothing to watch: no turn of the main loop until a client connects
    }
  }
}
Object.freeze(DeviceServer.prototype);

/** The listener and the timer know their server: one property each instead of a closure. */
interface OwnedListener extends Listener {
  owner: DeviceServer;
}
interface OwnedTimer extends Timer {
  owner: DeviceServer;
}

/** Close an accepted socket that no transport adopted (the SDK may throw for one already gone). */
function closeQuietly(socket: TCP): void {
  try { socket.close(); } catch { /* already closed */ }
}

// The SDK calls the listener's callback with `this` bound to the listener, a timer's with the timer.
function onListenerReadable(this: Listener, requests: number): void { (this as OwnedListener).owner.accept(this, requests); }
function onServerTick(timer: Timer): void { (timer as OwnedTimer).owner.tick(); }
function onDrainNotices(timer: Timer): void { (timer as OwnedTimer).owner.drainNoticesDue(); }
