// The device's TCP server: an ECMA-419 listener feeding the same Connection core the desktop simulator
// runs (host-sim/server.ts). At most `maxConnections` hold a slot; at the cap the same slot policy as
// the simulator's (src/http/connection-slots.ts) lets a newcomer take the slot of an idle connection or
// of a stale partial request, else answers it 503 with Retry-After. One Timer checks every
// connection's deadlines and ticks event streams.

import Listener from 'embedded:io/socket/listener';
import type TCP from 'embedded:io/socket/tcp';
import Timer from 'timer';
import { Connection, type RequestHandler } from '../http/connection';
import { ConnectionSlots } from '../http/connection-slots';
import { WrapSafeTicks } from './ticks';
import { DeviceTransport, READ_CHUNK, type TransportEvents } from './transport';
import type { TextCodec } from '../../util/text';

export interface DeviceServerOptions {
  readonly port: number;
  readonly maxConnections: number;
  readonly idleTimeoutMs?: number;
  readonly codec: TextCodec;
  /** Monotonic milliseconds (src/device/ticks.ts); the server reads it every 100 ms, which keeps it exact. */
  readonly ticks?: () => number;
}

/** A reset waits at most this long for its answer to leave, then goes ahead. */
const FLUSH_WAIT_MS = 2000;
/** Time for the stack to send the FIN and the last ACKs before the chip restarts. */
const RESTART_DELAY_MS = 100;

export class DeviceServer implements TransportEvents {
  readonly port: number;
  private readonly handler: RequestHandler;
  private readonly slots: ConnectionSlots<Connection>;
  private readonly idleTimeoutMs: number | undefined;
  private readonly codec: TextCodec;
  private readonly connections = new Map<DeviceTransport, Connection>();
  /** The transport whose bytes the core is handling now: its answer is the one a reset waits for. */
  private current: DeviceTransport | null = null;
  private readonly listener: Listener;
  private readonly timer: Timer;
  /** The one read buffer every connection's reads go through (handed on at once). */
  private readonly readBuffer = new Uint8Array(READ_CHUNK);
  /** Monotonic milliseconds: Date jumps when SNTP or a clock PUT sets it, and Time.ticks wraps on ESP32. */
  private readonly ticks: () => number;

  constructor(handler: RequestHandler, options: DeviceServerOptions) {
    this.handler = handler;
    this.slots = new ConnectionSlots<Connection>(options.maxConnections);
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.codec = options.codec;
    this.ticks = options.ticks ?? new WrapSafeTicks().now;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the ECMA-419 callbacks run with `this` bound to the listener
    const self = this;
    this.listener = new Listener({
      port: options.port,
      onReadable(requests: number) { self.accept(this, requests); },
    });
    this.port = options.port;
    // 100 ms, the shortest event-stream interval (checkTimeout also ticks streams).
    this.timer = Timer.repeat(() => this.tick(), 100);
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
    if (c) {
      c.end(); // however the socket went, its event stream (if any) is released
      this.slots.release(c);
    }
    this.connections.delete(t);
  }

  private accept(listener: Listener, requests: number): void {
    for (let i = 0; i < requests; i++) {
      const socket = listener.read() as TCP | undefined;
      if (!socket) return;
      // Read before the transport adopts the socket: the accepted object is detached then.
      const peer = socket.remoteAddress ?? '';
      let t: DeviceTransport;
      try {
        t = new DeviceTransport(socket, this, this.readBuffer);
      } catch (e) {
        trace(`accept failed: ${(e as Error).message}\n`);
        continue;
      }
      const c = new Connection(this.handler, t, {
        now: this.ticks, idleTimeoutMs: this.idleTimeoutMs, codec: this.codec, peer,
      });
      if (!this.slots.admit(c, this.ticks())) {
        // Not added: it answers, drains and closes on its own.
        c.refuse(503, `server busy: all ${this.slots.cap} connections are answering or receiving a request`, 1);
        continue;
      }
      this.connections.set(t, c);
    }
  }

  private readonly tickOne = (c: Connection, t: DeviceTransport): void => {
    this.current = t;
    c.checkTimeout();
  };

  private tick(): void {
    this.ticks(); // read at least once per wrap period, connections or not
    // A tick may answer requests held behind a streamed description: `current` is their transport.
    // One callback made with the server, not one per tick.
    this.connections.forEach(this.tickOne);
    this.current = null;
  }
}
Object.freeze(DeviceServer.prototype);
