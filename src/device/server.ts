// The device's TCP server: an ECMA-419 listener feeding the same server core the desktop simulator
// runs (host-sim/server.ts): src/http/server-core.ts admits each connection to a slot or answers it
// 503, and its tick, run by one Timer, checks every connection's deadlines and ticks event streams.

import Listener from 'embedded:io/socket/listener';
import type TCP from 'embedded:io/socket/tcp';
import Timer from 'timer';
import type { Connection, RequestHandler } from '../http/connection';
import { ServerCore, TICK_MS, type TickWatcher } from '../http/server-core';
import { WrapSafeTicks } from './ticks';
import { DeviceTransport, READ_CHUNK, type TransportEvents } from './transport';
import { SendTurns } from './send-turns';
import type { TextCodec } from '../../util/text';

export interface DeviceServerOptions {
  readonly port: number;
  readonly maxConnections: number;
  readonly idleTimeoutMs?: number;
  readonly codec: TextCodec;
  /** Monotonic milliseconds (src/device/ticks.ts); the server reads it every 100 ms, which keeps it exact. */
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
    if (c) this.core.closed(c); // however the socket went, its event stream (if any) is released
    this.connections.delete(t);
  }

  /** The listener's onReadable: `requests` sockets wait to be accepted. */
  accept(listener: Listener, requests: number): void {
    for (let i = 0; i < requests; i++) {
      const socket = listener.read() as TCP | undefined;
      if (!socket) return;
      // Read before the transport adopts the socket: the accepted object is detached then.
      const peer = socket.remoteAddress ?? '';
      let t: DeviceTransport;
      try {
        t = new DeviceTransport(socket, this);
      } catch (e) {
        trace(`accept failed: ${(e as Error).message}\n`);
        continue;
      }
      // Refused (503): no Connection; the transport answers, drains and closes on its own.
      const c = this.core.accept(t, peer);
      if (c) this.connections.set(t, c);
    }
  }

  /** TickWatcher: the tick is about to check `c`. */
  before(c: Connection): void {
    this.current = c.transport as DeviceTransport;
  }

  /** The timer's tick. */
  tick(): void {
    this.ticks(); // read at least once per wrap period, connections or not
    // A tick may answer requests held behind a streamed description: `current` is their transport.
    this.core.tick(this);
    this.current = null;
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

// The SDK calls the listener's callback with `this` bound to the listener, a timer's with the timer.
function onListenerReadable(this: Listener, requests: number): void { (this as OwnedListener).owner.accept(this, requests); }
function onServerTick(timer: Timer): void { (timer as OwnedTimer).owner.tick(); }
