// Fake of ECMA-419 embedded:io/socket/listener over the fake network (tests/fakes/net.ts).
// With net.lwip set it is the Pico W's lwIP listener, whose close breaks the next one: the SDK closes
// the listen pcb with tcp_close_safe (modules/io/socket/lwip/tcp.c:740), on the Pico tcp_close then
// tcp_abort (modules/network/socket/lwip/modLwipSafe.h:32). In lwIP (src/core/tcp.c) tcp_close frees
// the listen pcb to MEMP_TCP_PCB_LISTEN and leaves it CLOSED (:393-395, :2212); tcp_abort, finding it
// CLOSED, frees the same memory again into MEMP_TCP_PCB (:621). The next listener's tcp_new takes it
// from MEMP_TCP_PCB, tcp_listen takes it once more from MEMP_TCP_PCB_LISTEN (:883), marks it LISTEN
// (:890) and frees "the old" pcb, itself: tcp_free asserts "tcp_free: LISTEN" (:910, :212), a panic.

import { net, type Conn } from './net';
import TCP from './tcp';

export interface ListenerOptions {
  port: number;
  onReadable?(this: Listener, count: number): void;
}

export default class Listener {
  readonly port: number;
  private readonly pending: Conn[] = [];
  private readonly onReadable?: (this: Listener, count: number) => void;
  private closed = false;

  constructor(options: ListenerOptions) {
    if (net.lwip && net.listenPcbFreedTwice) {
      net.panic = 'tcp_free: LISTEN';
      throw new Error(`panic: ${net.panic}`);
    }
    if (net.listeners.has(options.port)) throw new Error(`port ${options.port} in use`);
    this.port = options.port;
    this.onReadable = options.onReadable;
    net.listeners.set(options.port, this);
  }

  /** The next accepted connection, as a TCP the server adopts with `new TCP({from})`. */
  read(): TCP | undefined {
    const conn = this.pending.shift();
    return conn ? TCP.accepted(conn) : undefined;
  }

  close(): void {
    if (net.lwip && !this.closed) net.listenPcbFreedTwice = true;
    this.closed = true;
    if (net.listeners.get(this.port) === this) net.listeners.delete(this.port);
  }

  /** A client connected (net.connect). */
  arrive(conn: Conn): void {
    this.pending.push(conn);
    net.later(() => { if (!this.closed && this.onReadable) this.onReadable.call(this, this.pending.length); });
  }
}
