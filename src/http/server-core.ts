// What every server does with its connections, whatever its sockets are (host-sim/server.ts over Node's
// net, src/device/server.ts over an ECMA-419 listener): a new socket gets a Connection over the one
// request handler, which is admitted to a slot or answered 503 (docs/api.md §HTTP limits); one timer,
// every TICK_MS, checks each admitted connection's deadlines and ticks its event stream.

import { Connection, ConnectionShared, type RequestHandler, type Transport } from './connection';
import { refuseTransport } from './connection-shared';
import { ConnectionSlots } from './connection-slots';
import type { TextCodec } from '../../util/text';

/** The period of a server's one timer (ms): the shortest event-stream interval. */
export const TICK_MS = 100;

export interface ServerCoreOptions {
  /** Most connections holding a slot at once. */
  readonly maxConnections: number;
  /** Millisecond clock for deadlines and slot ages (monotonic on a module). */
  readonly now: () => number;
  readonly idleTimeoutMs?: number;
  readonly codec?: TextCodec;
}

/** Told of each connection before the tick checks it (the device notes whose answer a reset waits for). */
export interface TickWatcher {
  before(c: Connection): void;
}

export class ServerCore {
  readonly slots: ConnectionSlots<Connection>;
  private readonly now: () => number;
  /** What every connection shares (handler, clock, codec, the one answer in the making, the head's framing). */
  private readonly shared: ConnectionShared;

  constructor(handler: RequestHandler, options: ServerCoreOptions) {
    this.slots = new ConnectionSlots<Connection>(options.maxConnections);
    this.now = options.now;
    this.shared = new ConnectionShared(handler, { now: options.now, idleTimeoutMs: options.idleTimeoutMs, codec: options.codec });
  }

  /** The Connection of a new socket; `peer` is the client's address. admit() it next. */
  connect(transport: Transport, peer: string): Connection {
    return new Connection(this.shared.handler, transport, { shared: this.shared, peer });
  }

  /**
   * Give `c` a slot (taking an idle or stale one at the cap), or answer it 503 with Retry-After: 1:
   * false then, and the connection reads nothing more and closes once its answer is sent.
   */
  admit(c: Connection): boolean {
    if (this.slots.admit(c, this.now())) return true;
    c.refuse(503, this.busy(), 1);
    return false;
  }

  /**
   * A slot for a socket not yet made into a Connection: true when one is free or an idle or stale one
   * was taken for it (give it to admitted() next), false when every slot is answering or holds a
   * younger partial request (refuse() it).
   */
  makeRoom(): boolean {
    return this.slots.makeRoom(this.now());
  }

  /** The Connection of a new socket makeRoom() made room for; `peer` is the client's address. */
  admitted(transport: Transport, peer: string): Connection {
    const c = this.connect(transport, peer);
    this.slots.add(c);
    return c;
  }

  /**
   * Answer a socket makeRoom() found no slot for 503 with Retry-After: 1, as admit() answers, without a
   * Connection ever made: the transport closes once its answer is sent.
   */
  refuse(transport: Transport): void {
    refuseTransport(this.shared, transport, 503, this.busy(), 1);
  }

  private busy(): string {
    return `server busy: all ${this.slots.cap} connections are answering or receiving a request`;
  }

  /** Its socket closed: the connection ends (its event stream is released) and gives its slot back. */
  closed(c: Connection): void {
    c.end();
    this.slots.release(c);
  }

  /**
   * The timer's tick: every admitted connection checks its deadlines (408, idle close) and ticks its
   * event stream; `watcher.before` runs first for each (an object, not a closure the caller keeps).
   */
  tick(watcher?: TickWatcher): void {
    // Backwards: a connection that closes here leaves the list.
    const list = this.slots.list();
    for (let i = list.length - 1; i >= 0; i--) {
      const c = list[i];
      if (watcher) watcher.before(c);
      c.checkTimeout();
    }
  }
}
Object.freeze(ServerCore.prototype);
